"""Matchmaking over HTTP: standing entrants fill after the wait, owners are kept apart, no
entrant is seated twice when two instances race, the queue's limits and idle drops."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis

from kronikas.adapters.scripts import game_keys
from kronikas.application.arena.log import SetFormed, decode_event
from tests.arena.conftest import Client, arena_app, bearer, queue, register
from tests.arena.test_entrants import assert_problem


async def seated(client: Client, token: str, rounds: int = 200) -> dict[str, Any]:
    for _ in range(rounds):
        r = await client.get("/v1/arena/queue?wait=0.2", headers=bearer(token))
        assert r.status_code == 200, r.text
        if r.json()["status"] == "seated":
            ticket: dict[str, Any] = r.json()
            return ticket
    raise AssertionError("never seated")


async def test_a_lone_entrant_is_filled_with_house_and_random_and_rated(redis_url: str) -> None:
    async with arena_app(redis_url) as client:
        entrant, token = await register(client, "Alone")
        await queue(client, token)
        ticket = await seated(client, token)
        view = (
            await client.get(f"/v1/games/{ticket['table_id']}", headers=bearer(ticket["token"]))
        ).json()
        names = {p["name"] for p in view["players"]}
        assert "Alone" in names and names & {"House", "Random"}
        leave = await client.post(
            f"/v1/games/{ticket['table_id']}/commands",
            json={"type": "leave"},
            headers=bearer(ticket["token"]),
        )
        assert leave.status_code == 200, leave.text
        for _ in range(600):
            r = await client.get(f"/v1/arena/sets/{ticket['set_id']}")
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        page = r.json()
        everyone = {e for t in page["tables"] for e in t["entrants"]}
        assert everyone == {entrant, "house-cheat", "random-cheat"}
        for table in page["tables"]:  # a standing entrant never twice at a table
            assert len(set(table["entrants"])) == len(table["entrants"])
        for ranking in page["rankings"]:  # nor twice in a position's ranking
            flat = [e for group in ranking for e in group]
            assert len(flat) == len(set(flat))
        board = (await client.get("/v1/arena/leaderboard?kind=cheat")).json()
        assert {e["entrant_id"] for e in board["entries"]} == everyone
        assert {e["standing"] for e in board["entries"] if e["entrant_id"] != entrant} == {True}
        revoked = await client.delete(f"/v1/arena/entrants/{entrant}", headers=bearer(token))
        assert revoked.status_code == 204
        board = (await client.get("/v1/arena/leaderboard?kind=cheat")).json()
        assert {e["entrant_id"] for e in board["entries"]} == everyone - {entrant}
        assert [e["rank"] for e in board["entries"]] == [1, 2]


async def test_two_entrants_of_one_owner_never_share_a_set(redis_url: str) -> None:
    async with arena_app(redis_url, arena_fill_s=0) as client:
        mine = [await register(client, f"Mine {i}", peer="192.0.2.50") for i in range(2)]
        others = [await register(client, f"Other {i}", peer=f"192.0.2.{60 + i}") for i in range(2)]
        for _, token in [*mine, *others]:
            await queue(client, token)
        tickets = [await seated(client, token) for _, token in mine]
        assert tickets[0]["set_id"] != tickets[1]["set_id"]


async def test_two_instances_racing_seat_every_entrant_once(redis_url: str, redis: Redis) -> None:
    async with arena_app(redis_url) as a, arena_app(redis_url) as b:
        apps = [a, b] * 5
        entrants = [
            await register(apps[i], f"Racer {i}", peer=f"192.0.2.{100 + i}") for i in range(10)
        ]
        answers = await asyncio.gather(
            *(
                app.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
                for app, (_, token) in zip(apps, entrants, strict=True)
            )
        )
        assert all(r.status_code == 202 for r in answers)
        tickets = await asyncio.gather(
            *(seated(app, token) for app, (_, token) in zip(apps, entrants, strict=True))
        )
        seats = [(t["table_id"], t["seat"]) for t in tickets]
        assert len(set(seats)) == len(seats)
        # the log claims each real entrant for one set only
        claimed: list[str] = []
        for raw in await redis.lrange("{arena}:log", 0, -1):
            event = decode_event(raw)
            if isinstance(event, SetFormed):
                claimed += [e for row in event.seats for e in row if e.startswith("en_")]
        assert sorted(claimed) == sorted(e for e, _ in entrants)


async def test_queue_requests_are_limited_per_entrant(redis_url: str) -> None:
    async with arena_app(redis_url, arena_queue_per_min=3, arena_fill_s=600) as client:
        _, token = await register(client, "Flooder")
        codes = [
            (await client.get("/v1/arena/queue", headers=bearer(token))).status_code
            for _ in range(3)
        ]
        assert codes == [200, 200, 200]
        r = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        assert_problem(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        _, other = await register(client, "Patient")
        assert (await client.get("/v1/arena/queue", headers=bearer(other))).status_code == 200


async def test_a_waiting_entrant_that_stops_polling_is_dropped(redis_url: str) -> None:
    async with arena_app(redis_url, arena_idle_s=1, arena_fill_s=600) as client:
        entrant, token = await register(client, "Sleeper")
        r = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        assert r.json()["status"] == "waiting"
        arena = client.app.state.arena
        for _ in range(100):  # the process's own tick drops it
            await asyncio.sleep(0.1)
            if entrant not in arena.state.waiting:
                break
        assert (await client.get("/v1/arena/queue", headers=bearer(token))).json() == {
            "status": "idle"
        }


async def test_an_entrant_waits_in_one_pool_at_a_time(redis_url: str) -> None:
    async with arena_app(redis_url, arena_fill_s=600) as client:
        _, token = await register(client, "Both", games=["cheat", "thirty_one"])
        first = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        assert first.status_code == 202
        same = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        assert same.status_code == 202 and same.json()["since"] == first.json()["since"]
        other = await client.post(
            "/v1/arena/queue", json={"kind": "thirty_one"}, headers=bearer(token)
        )
        assert_problem(other, 409, "arena_busy")
        unplayed = await client.post(
            "/v1/arena/queue", json={"kind": "cheat", "players": 9}, headers=bearer(token)
        )
        assert_problem(unplayed, 422, "invalid_request")
        assert (await client.delete("/v1/arena/queue", headers=bearer(token))).status_code == 204
        assert (await client.get("/v1/arena/queue", headers=bearer(token))).json() == {
            "status": "idle"
        }
        moved = await client.post(
            "/v1/arena/queue", json={"kind": "thirty_one"}, headers=bearer(token)
        )
        assert moved.status_code == 202 and moved.json()["kind"] == "thirty_one"


async def test_an_entrant_that_never_moves_is_played_by_the_house_and_rated(
    redis_url: str,
) -> None:
    async with arena_app(redis_url, arena_turn_s=5) as client:
        entrant, token = await register(client, "Idle")
        await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        ticket = await seated(client, token)
        seat = bearer(ticket["token"])
        for _ in range(600):  # its clock runs out, then the house plays its seat
            view = (await client.get(f"/v1/games/{ticket['table_id']}", headers=seat)).json()
            if view["status"] == "finished":
                break
            await asyncio.sleep(0.1)
        # its table over, it may queue again at once
        again = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        assert again.status_code == 202, again.text
        assert (await client.delete("/v1/arena/queue", headers=bearer(token))).status_code == 204
        for _ in range(600):
            r = await client.get(f"/v1/arena/sets/{ticket['set_id']}")
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200, r.text
        page = (await client.get(f"/v1/arena/entrants/{entrant}")).json()
        assert page["ratings"][0]["matches"] == 1
        assert [m["set_id"] for m in page["matches"]] == [ticket["set_id"]]


async def test_queue_requests_are_limited_per_address_across_entrants(redis_url: str) -> None:
    async with arena_app(redis_url, read_per_s=1, read_burst=3, arena_fill_s=600) as client:
        tokens = [(await register(client, f"Many {i}", peer="192.0.2.77"))[1] for i in range(4)]
        codes = [
            (
                await client.get(
                    "/v1/arena/queue", headers=bearer(token) | {"x-test-peer": "192.0.2.77"}
                )
            ).status_code
            for token in tokens
        ]
        assert codes[:3] == [200, 200, 200] and codes[3] == 429
        elsewhere = await client.get(
            "/v1/arena/queue", headers=bearer(tokens[3]) | {"x-test-peer": "192.0.2.78"}
        )
        assert elsewhere.status_code == 200


async def test_a_set_whose_table_is_gone_frees_its_entrants(redis_url: str, redis: Redis) -> None:
    async with arena_app(redis_url, arena_turn_s=600) as client:
        _, token = await register(client, "Stranded")
        await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        ticket = await seated(client, token)
        await redis.delete(*game_keys(ticket["table_id"]).values())
        for _ in range(300):
            r = await client.get("/v1/arena/queue", headers=bearer(token))
            if r.json()["status"] == "idle":
                break
            await asyncio.sleep(0.1)
        assert r.json() == {"status": "idle"}
        assert_problem(await client.get(f"/v1/arena/sets/{ticket['set_id']}"), 404, "not_found")
