"""Attacks on a set's tables while they are made and played: nobody but a table's own seats
learns anything of it before the whole set finished (docs/arena.md)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kronikas.application.errors import SetInPlay
from kronikas.application.games import Games
from tests.arena.conftest import Client, arena_app, bearer, queue, register, two_arenas


async def seated(client: Client, token: str, rounds: int = 200) -> Any:
    for _ in range(rounds):
        r = await client.get("/v1/arena/queue?wait=0.2", headers=bearer(token))
        assert r.status_code == 200, r.text
        if r.json()["status"] == "seated":
            return r.json()
    raise AssertionError("never seated")


async def test_a_table_being_made_is_never_in_the_lobby_nor_joinable(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(`outside` never ticks: the set is made by `a`, and a spy at `outside` never waits for
    itself.) Between a set's table being made and being started, a client reading the lobby for open
    tables must not find it, nor take a seat of it (it would see the set's cards)."""
    found: list[str] = []
    joined: list[int] = []
    spied: list[str] = []
    create = Games.create
    async with arena_app(redis_url) as a, arena_app(redis_url, arena_tick_s=3600) as outside:

        async def spying_create(self: Games, *args: Any, **kwargs: Any) -> bytes:
            made = await create(self, *args, **kwargs)
            if kwargs.get("arena") is not None or (len(args) > 3 and args[3] is not None):
                # The lobby holds the open tables of every test on this Redis, newest first:
                # the set's table, just made, would head its first page.
                table = json.loads(made)["game"]["id"]
                r = await outside.get("/v1/games?status=open&limit=100")
                assert r.status_code == 200, r.text
                for game in r.json()["games"]:
                    if game["id"] == table:
                        found.append(table)
                        r = await outside.post(f"/v1/games/{table}/players", json={"name": "Spy"})
                        joined.append(r.status_code)
                spied.append(table)
            return made

        monkeypatch.setattr(Games, "create", spying_create)
        _, token = await register(a, "Lone")
        await queue(a, token)
        for _ in range(100):
            if found:
                break
            r = await a.get("/v1/arena/queue?wait=0.2", headers=bearer(token))
            if r.json()["status"] == "seated":
                break
        assert spied, "no set's table was made"
        assert found == [] and joined == []
        assert (await seated(a, token))["seat"] in (0, 1)


async def test_no_arena_table_is_joinable_by_its_id(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even knowing an arena table's id while it is open (before its seats are taken), nobody
    but the arena takes a seat of it."""
    tried: list[Any] = []
    create = Games.create
    async with arena_app(redis_url) as a, arena_app(redis_url, arena_tick_s=3600) as outside:

        async def spying_create(self: Games, *args: Any, **kwargs: Any) -> bytes:
            made = await create(self, *args, **kwargs)
            game_id = json.loads(made)["game"]["id"]
            r = await outside.post(f"/v1/games/{game_id}/players", json={"name": "Spy"})
            tried.append((r.status_code, r.json()["code"]))
            return made

        monkeypatch.setattr(Games, "create", spying_create)
        _, token = await register(a, "Lone")
        await a.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        ticket = await seated(a, token)
        assert tried == [(409, "set_in_play")] * 2
        r = await a.post(f"/v1/games/{ticket['table_id']}/players", json={"name": "Spy"})
        assert r.status_code == 409 and r.json()["code"] == "set_in_play"


async def two_tables(a: Client, b: Client) -> list[Any]:
    """Four entrants seated in one 2-seat set (two tables), on two instances."""
    apps = [a, b, a, b]
    entrants = [await register(apps[i], f"E{i}", peer=f"198.51.100.{60 + i}") for i in range(4)]
    for app, (_, token) in zip(apps, entrants, strict=True):
        await queue(app, token)
    return list(
        await asyncio.gather(
            *(seated(app, tok) for app, (_, tok) in zip(apps, entrants, strict=True))
        )
    )


async def test_every_way_in_is_closed_to_others_while_the_set_plays(redis_url: str) -> None:
    async with two_arenas(redis_url, arena_fill_s=600) as (a, b):
        tickets = await two_tables(a, b)
        tables = sorted({t["table_id"] for t in tickets})
        assert len(tables) == 2
        mine = tickets[0]
        other = next(t for t in tickets if t["table_id"] != mine["table_id"])
        ids = [other["table_id"], other["table_id"].upper(), f" {other['table_id']}"]
        ids += [other["table_id"].replace("a", "%61"), other["table_id"] + "%00"]
        paths = ["", "/events", "/events?wait=0.3", "/record", "/views", "/stream"]
        for game_id in ids:
            for path in paths:
                for headers in ({}, bearer(mine["token"]), bearer("host_" + "0" * 40)):
                    r = await b.get(f"/v1/games/{game_id}{path}", headers=headers)
                    assert r.status_code in (401, 404, 409, 422), (game_id, path, r.text)
                    assert other["token"] not in r.text
                r = await b.get(f"/v1/games/{game_id}/record", headers={"Accept": "text/plain"})
                assert r.status_code in (401, 404, 409, 422), (game_id, r.text)
        # the lobby, every filter, every page
        for query in ("", "?status=playing", "?kind=cheat", "?status=open", "?offset=0"):
            r = await a.get(f"/v1/games{query}")
            assert r.status_code == 200
            assert not {g["id"] for g in r.json()["games"]} & set(tables)
        # an entrant's page and the leaderboard name no table in play
        for t in tickets:
            for app in (a, b):
                page = await app.get("/v1/arena/leaderboard?kind=cheat")
                assert t["table_id"] not in page.text and t["set_id"] not in page.text


async def test_reads_after_a_paid_call_are_closed_too(redis_url: str) -> None:
    """The reads that follow a paid call (`seen`, `caught_up`: what the MCP tools answer after a
    move, a start or a leave) show an arena table in play to no spectator nor host."""
    async with arena_app(redis_url) as a:
        _, token = await register(a, "Lone")
        await a.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        ticket = await seated(a, token)
        games: Games = a.app.state.games
        table = ticket["table_id"]

        async def in_app(read: Any, *args: Any) -> Any:  # the app runs on its portal's loop
            return await asyncio.wrap_future(a.blocking_portal.start_task_soon(read, *args))

        for read, args in (
            (games.seen, (table, None)),
            (games.caught_up, (table, None, 0)),
            (games.caught_up, (table, None, 0, 1)),
        ):
            with pytest.raises(SetInPlay):
                await in_app(read, *args)
        mine = await in_app(games.seen, table, ticket["token"])
        assert mine.body


async def test_an_entrant_revoked_while_polling_or_seated_learns_nothing_more(
    redis_url: str,
) -> None:
    async with arena_app(redis_url, arena_fill_s=600) as a:
        entrant_id, token = await register(a, "Waiting")
        r = await a.post(
            "/v1/arena/queue", json={"kind": "cheat", "players": 3}, headers=bearer(token)
        )
        assert r.status_code == 202, r.text
        arena = a.app.state.arena
        poll = asyncio.wrap_future(
            a.blocking_portal.start_task_soon(arena.ticket, token, 2.0, None)
        )
        await asyncio.sleep(0.3)
        r = await a.delete(f"/v1/arena/entrants/{entrant_id}", headers=bearer(token))
        assert r.status_code == 204, r.text
        ticket = await poll
        assert ticket.status == "idle" and ticket.token is None
        for method in ("GET", "DELETE"):
            r = await a.request(method, "/v1/arena/queue", headers=bearer(token))
            assert r.status_code == 401 and r.json()["code"] == "unauthorized"

    async with arena_app(redis_url) as a:
        entrant_id, token = await register(a, "Seated")
        await a.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
        seat = await seated(a, token)
        r = await a.delete(f"/v1/arena/entrants/{entrant_id}", headers=bearer(token))
        assert r.status_code == 204
        r = await a.get("/v1/arena/queue", headers=bearer(token))
        assert r.status_code == 401
        page = (await a.get(f"/v1/arena/entrants/{entrant_id}")).json()
        assert page["revoked"] and seat["table_id"] not in str(page)
        board = (await a.get("/v1/arena/leaderboard?kind=cheat")).text
        assert entrant_id not in board and seat["set_id"] not in board
        # its seat plays on (the house and the clock): the table stays closed to others
        r = await a.get(f"/v1/games/{seat['table_id']}")
        assert r.status_code in (200, 409)
        if r.status_code == 200:  # only once the whole set finished
            done = await a.get(f"/v1/arena/sets/{seat['set_id']}")
            assert done.status_code == 200
