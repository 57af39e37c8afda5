"""A whole set over HTTP, on two app instances sharing one Redis: matchmaking seats each
entrant once, the tables stay closed until the set finished, the set is rated once, and
neither the set's secret nor another seat's token is ever in an answer."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
from redis.asyncio import Redis

from kronikas.adapters.scripts import game_keys
from tests.arena.conftest import Client, bearer, register, two_arenas

SEEN: list[bytes] = []


def seen(r: httpx.Response) -> httpx.Response:
    """Keep every answer's body, to look for what must never be in one."""
    SEEN.append(r.content)
    return r


async def ticket_until(client: Client, token: str, status: str, rounds: int = 200) -> Any:
    for _ in range(rounds):
        r = seen(await client.get("/v1/arena/queue?wait=0.2", headers=bearer(token)))
        assert r.status_code == 200, r.text
        if r.json()["status"] == status:
            return r.json()
    raise AssertionError(f"never {status}")


async def test_a_set_on_two_instances_is_seated_once_closed_then_rated_once(
    redis_url: str, redis: Redis
) -> None:
    SEEN.clear()
    async with two_arenas(redis_url, arena_fill_s=600) as (a, b):
        apps = [a, b, a, b]
        entrants = [
            await register(apps[i], f"Bot {i}", peer=f"198.51.100.{10 + i}") for i in range(4)
        ]
        queued = await asyncio.gather(
            *(
                app.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
                for app, (_, token) in zip(apps, entrants, strict=True)
            )
        )
        for r in queued:
            assert seen(r).status_code == 202, r.text
        tickets = await asyncio.gather(
            *(
                ticket_until(app, token, "seated")
                for app, (_, token) in zip(apps, entrants, strict=True)
            )
        )
        # one set, every entrant at one seat of it, no seat twice
        assert len({t["set_id"] for t in tickets}) == 1
        seats = {(t["table_id"], t["seat"]) for t in tickets}
        assert len(seats) == 4 and len({t["table_id"] for t in tickets}) == 2
        set_id = tickets[0]["set_id"]
        # queueing again while seated is refused
        again = await a.post(
            "/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(entrants[0][1])
        )
        assert seen(again).status_code == 409 and again.json()["code"] == "arena_busy"

        tables = sorted({t["table_id"] for t in tickets})
        # closed to spectators and the lobby; each seat sees its own table
        for table in tables:
            for path in ("", "/events", "/record", "/views", "/stream", "/events?wait=1"):
                closed = seen(await b.get(f"/v1/games/{table}{path}"))
                assert closed.status_code == 409 and closed.json()["code"] == "set_in_play"
        lobby = seen(await a.get("/v1/games?limit=100")).json()
        assert not {g["id"] for g in lobby["games"]} & set(tables)
        early = seen(await a.get(f"/v1/arena/sets/{set_id}"))
        assert early.status_code == 409 and early.json()["code"] == "set_in_play"
        for t in tickets:
            mine = seen(await b.get(f"/v1/games/{t['table_id']}", headers=bearer(t["token"])))
            assert mine.status_code == 200 and mine.json()["me"]["seat"] == t["seat"]
            for path in ("/events", "/record", "/views"):
                own = seen(
                    await a.get(f"/v1/games/{t['table_id']}{path}", headers=bearer(t["token"]))
                )
                assert own.status_code == 200, own.text
            other = next(u for u in tickets if u["table_id"] != t["table_id"])
            # a seat token of one table opens nothing at the other
            r = seen(await a.get(f"/v1/games/{other['table_id']}", headers=bearer(t["token"])))
            assert r.status_code == 401

        # every entrant leaves its table: the house plays its seat to the end, and it is rated
        for t in tickets:
            r = await a.post(
                f"/v1/games/{t['table_id']}/commands",
                json={"type": "leave"},
                headers=bearer(t["token"]),
            )
            assert seen(r).status_code == 200, r.text
        page: dict[str, Any] = {}
        for _ in range(600):
            r = seen(await b.get(f"/v1/arena/sets/{set_id}"))
            if r.status_code == 200:
                page = r.json()
                break
            assert r.json()["code"] == "set_in_play"
            await asyncio.sleep(0.1)
        assert page, "the set was never rated"
        ids = {e for e, _ in entrants}
        assert {e for t in page["tables"] for e in t["entrants"]} == ids
        assert len(page["rankings"]) == 2
        assert {c["entrant_id"] for c in page["changes"]} == ids

        # rated once, whichever instance noticed first
        log = await redis.lrange("{arena}:log", 0, -1)
        assert sum(b'"type":"set_rated"' in e for e in log) == 1
        assert sum(b'"type":"set_formed"' in e for e in log) == 1

        board = seen(await a.get("/v1/arena/leaderboard?kind=cheat")).json()
        assert {e["entrant_id"] for e in board["entries"]} == ids
        assert all(e["matches"] == 1 for e in board["entries"])
        assert [e["rank"] for e in board["entries"]] == [1, 2, 3, 4]
        for entrant_id, _ in entrants:
            mine = seen(await b.get(f"/v1/arena/entrants/{entrant_id}")).json()
            assert [m["set_id"] for m in mine["matches"]] == [set_id]
            assert mine["ratings"][0]["matches"] == 1
        for t, (_, token) in zip(tickets, entrants, strict=True):
            await ticket_until(a, token, "idle")  # idle again; the tables open to everyone now
            for path in ("", "/events", "/record", "/views"):
                r = seen(await b.get(f"/v1/games/{t['table_id']}{path}"))
                assert r.status_code == 200, r.text

        # the set's secret is on the tables' first records only, never in an answer
        secrets = set()
        for table in tables:
            first = json.loads((await redis.lrange(game_keys(table)["log"], 0, 0))[0])
            assert first["a"]["set"] == set_id
            secrets.add(first["a"]["secret"].encode())
        assert len(secrets) == 1
        # the same cards at both tables, the hand positions rotated by the table's index
        dealt = []
        for table in tables:
            log = [json.loads(e) for e in await redis.lrange(game_keys(table)["log"], 0, -1)]
            deal = next(e["e"] for e in log if e["e"]["type"] == "round_dealt")
            first = next(e["a"] for e in log if "a" in e)
            dealt.append((first["table"], deal))
        (_, zero), (_, one) = sorted(dealt, key=lambda d: d[0])
        assert zero["hands"] == one["hands"][1:] + one["hands"][:1]
        assert zero["commitment"] != one["commitment"]
        everything = b"\n".join(SEEN)
        for secret in secrets:
            assert secret not in everything
        # a seat token reaches only its own entrant's ticket
        for t in tickets:
            token = t["token"].encode()
            assert sum(body.count(token) for body in SEEN) == sum(
                body.count(token) for body in SEEN if b'"status":"seated"' in body
            )
