"""A token is a player, never a seat index, over the wire (docs/api.md, "Who sees what").

Against a real service process: a stream and a long-poll open while a player leaves before the
start, and while the seats after it move down.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.tables import Table, Tables, auth, stream_events
from tests.conftest import ServiceProcess

WAIT_S = 10.0
"""Bound on each wait: a stream ends or a long-poll answers well within it."""


@pytest.fixture
async def http(service: ServiceProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        yield client


@pytest.fixture
def tables(http: httpx.AsyncClient) -> Tables:
    return Tables(http)


async def open_table(tables: Tables, players: int) -> tuple[Table, list[str]]:
    table = await tables.create("cheat", seed=11)
    ids = [(await tables.join(table))["player_id"] for _ in range(players)]
    return table, ids


async def leave(tables: Tables, table: Table, seat: int) -> None:
    r = await tables.send(table, seat, {"type": "leave"})
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("leaver", [0, 1, 2])
async def test_the_stream_of_a_player_who_leaves_before_the_start_ends_and_cannot_reopen(
    tables: Tables, http: httpx.AsyncClient, leaver: int
) -> None:
    table, _ = await open_table(tables, 3)
    token = table.players[leaver]
    url = f"/v1/games/{table.id}/stream"
    got: list[dict[str, Any]] = []
    async with http.stream("GET", url, headers=auth(token)) as r:
        assert r.status_code == 200
        reading = asyncio.create_task(stream_events(r, got))
        await asyncio.sleep(0.2)
        await leave(tables, table, leaver)
        await asyncio.wait_for(reading, WAIT_S)  # the server ended the response
    await tables.start(table)
    assert not [e for e in got if e["type"] == "cheat.round_dealt"]
    for attempt in (
        http.get(url, headers=auth(token)),
        http.get(url, params={"token": token}),
        http.get(f"/v1/games/{table.id}/events", headers=auth(token)),
        http.get(f"/v1/games/{table.id}", headers=auth(token)),
    ):
        refused = await attempt
        assert refused.status_code == 401 and refused.json()["code"] == "unauthorized"


async def test_a_long_poll_open_across_its_players_leave_answers_401(
    tables: Tables, http: httpx.AsyncClient
) -> None:
    table, _ = await open_table(tables, 3)
    version = (await tables.view(table))["version"]
    poll = asyncio.create_task(
        http.get(
            f"/v1/games/{table.id}/events",
            params={"after": version, "wait": WAIT_S},
            headers=auth(table.players[1]),
        )
    )
    await asyncio.sleep(0.2)
    await leave(tables, table, 1)
    r = await asyncio.wait_for(poll, WAIT_S)
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"


async def test_streams_open_while_a_seat_before_them_empties_show_their_own_hands_only(
    tables: Tables, http: httpx.AsyncClient
) -> None:
    table, ids = await open_table(tables, 4)
    url = f"/v1/games/{table.id}/stream"
    got: dict[int, list[dict[str, Any]]] = {seat: [] for seat in (1, 2, 3)}
    async with (
        http.stream("GET", url, headers=auth(table.players[1])) as r1,
        http.stream("GET", url, headers=auth(table.players[2])) as r2,
        http.stream("GET", url, params={"token": table.players[3]}) as r3,
    ):
        readers = [
            asyncio.create_task(stream_events(r, got[seat]))
            for seat, r in zip((1, 2, 3), (r1, r2, r3), strict=True)
        ]
        await asyncio.sleep(0.2)
        await leave(tables, table, 0)
        version = (await tables.start(table))["version"]

        async def caught_up() -> None:
            while not all(events and events[-1]["version"] >= version for events in got.values()):
                await asyncio.sleep(0.02)

        await asyncio.wait_for(caught_up(), WAIT_S)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    for seat, events in got.items():
        me = (await tables.view(table, table.players[seat]))["me"]
        assert (me["id"], me["seat"]) == (ids[seat], seat - 1)
        [deal] = [e["data"] for e in events if e["type"] == "cheat.round_dealt"]
        assert [i for i, hand in enumerate(deal["hands"]) if hand is not None] == [me["seat"]]
        assert sorted(deal["hands"][me["seat"]]) == sorted(me["hand"])
