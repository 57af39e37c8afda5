"""A third game the tests register (issue 26): High Card (`tests/third_game/`), handed to the app
factory, plays through the whole service with no product file naming it — create, join, start,
moves, redacted views and events, long-polls, house seats, clocks, the lobby, `/v1/kinds` and the
OpenAPI document; and an app of the default registry beside it knows nothing of it."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.adapters.randomness import for_table
from kronikas.api.app import create_app
from kronikas.api.lane import Kronikas
from kronikas.api.openapi import export
from kronikas.application.games import Games
from tests.api.tables import Table, Tables, auth
from tests.apps import ENGINES, settings
from tests.third_game import GAMES, KIND
from tests.unit.application.clock_helpers import FakeClock

Client = AsyncTestClient[Litestar]


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Client]:
    """An app that runs the service's games and High Card."""
    async with AsyncTestClient(create_app(settings(redis_url), games=GAMES)) as c:
        yield c


@pytest.fixture
def tables(client: Client) -> Tables:
    return Tables(client)


async def events(client: Client, table: Table, token: str | None, after: int = 0) -> list[Any]:
    r = await client.get(
        f"/v1/games/{table.id}/events", params={"after": after}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    found: list[Any] = r.json()["events"]
    return found


async def test_a_match_of_the_third_game_plays_through_the_service(
    client: Client, tables: Tables
) -> None:
    table = await tables.ready(KIND, 2, {"rounds": 2}, seed=7)
    spectator = await tables.view(table)
    assert spectator["kind"] == KIND and spectator["status"] == "playing"
    assert spectator["round"] == 1 and spectator["turn"] == 0 and spectator["me"] is None
    assert set(spectator) >= {"high_card", "players", "deadline"}
    assert not {"cheat", "thirty_one"} & set(spectator), "no other game's slot"
    seats = [await tables.view(table, table.players[s]) for s in (0, 1)]
    assert seats[0]["legal"] == ["reveal", "fold", "leave"] and seats[1]["legal"] == ["leave"]
    cards = [v["me"]["hand"][0] for v in seats]
    assert cards[0] != cards[1]
    # a seat sees its own card alone until the round ends
    for seat in (0, 1):
        dealt = [
            e
            for e in await events(client, table, table.players[seat])
            if e["type"] == f"{KIND}.round_dealt"
        ]
        assert dealt[0]["data"]["cards"] == [
            cards[0] if seat == 0 else None,
            cards[1] if seat == 1 else None,
        ]
        assert dealt[0]["data"]["deck"] is None and dealt[0]["data"]["salts"] is None
    watched = [e for e in await events(client, table, None) if e["type"] == f"{KIND}.round_dealt"]
    assert watched[0]["data"]["cards"] == [None, None]

    # a long-poll from now is answered by the next move
    version = spectator["version"]
    poll = asyncio.create_task(
        client.get(f"/v1/games/{table.id}/events", params={"after": version, "wait": 9})
    )
    r = await tables.send(table, 1, {"type": "reveal"})
    assert r.status_code == 409 and r.json()["code"] == "not_your_turn"
    r = await tables.send(table, 0, {"type": "reveal"})
    assert r.status_code == 200, r.text
    assert [e["type"] for e in r.json()["events"]] == [f"{KIND}.revealed"]
    polled = await asyncio.wait_for(poll, 10)
    assert [e["type"] for e in polled.json()["events"]] == [f"{KIND}.revealed"]
    r = await tables.send(table, 0, {"type": "play", "cards": ["7H"], "rank": "7"})
    assert r.status_code == 422, "another game's command is not this game's"

    r = await tables.send(table, 1, {"type": "fold"})
    assert r.status_code == 200, r.text
    types = [e["type"] for e in r.json()["events"]]
    assert types == [f"{KIND}.{t}" for t in ("folded", "round_ended", "round_dealt")]
    ended = r.json()["events"][1]["data"]
    assert ended["cards"] == cards and ended["winner"] == 0 and ended["points"] == [1, 0]
    # round two: seat 1 chooses first
    assert r.json()["game"]["turn"] == 1
    assert (await tables.send(table, 1, {"type": "fold"})).status_code == 200
    r = await tables.send(table, 0, {"type": "fold"})
    assert r.status_code == 200, r.text
    last = r.json()["events"][-1]
    assert last["type"] == f"{KIND}.match_ended" and last["data"]["winners"] == [0]
    final = r.json()["game"]
    assert final["status"] == "finished" and final["winners"] == [0] and final["legal"] == []
    r = await tables.send(table, 0, {"type": "reveal"})
    assert r.status_code == 409 and r.json()["code"] == "game_over"

    every = await events(client, table, None)
    assert [e["version"] for e in every] == list(range(1, len(every) + 1))
    lobby = (await client.get("/v1/games", params={"kind": KIND, "status": "finished"})).json()
    entry = next(g for g in lobby["games"] if g["id"] == table.id)
    assert entry["kind"] == KIND and entry["players"] == 2 and entry["max_players"] == 2


async def test_the_kinds_and_the_document_list_the_third_game(client: Client) -> None:
    kinds = {k["kind"]: k for k in (await client.get("/v1/kinds")).json()["kinds"]}
    assert list(kinds) == ["cheat", "thirty_one", KIND]
    assert kinds[KIND]["commands"] == ["back", "fold", "leave", "reveal"]
    assert kinds[KIND]["max_players"] == 2
    assert [o["name"] for o in kinds[KIND]["options"]] == ["rounds", "turn_seconds"]
    document = json.loads(export(client.app))
    schemas = document["components"]["schemas"]
    assert {"CreateHighCardGame", "HighCardGameView", "Reveal", "HighCardRoundDealtEvent"} <= set(
        schemas
    )
    assert schemas["CreateHighCardGame"]["additionalProperties"] is False
    assert KIND in schemas["LobbyEntry"]["properties"]["kind"]["enum"]
    served = (await client.get("/schema/openapi.json")).json()
    assert served["components"]["schemas"]["HighCardGameView"] == schemas["HighCardGameView"]


async def test_two_apps_with_different_registries_live_in_one_process(
    client: Client, redis_url: str
) -> None:
    async with AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as default:
        r = await default.post("/v1/games", json={"kind": KIND})
        assert r.status_code == 422, "the default registry has no third game"
        kinds = [k["kind"] for k in (await default.get("/v1/kinds")).json()["kinds"]]
        assert kinds == ["cheat", "thirty_one"]
        assert "HighCardGameView" not in json.loads(export(default.app))["components"]["schemas"]
        r = await client.post("/v1/games", json={"kind": KIND})
        assert r.status_code == 201, r.text
        made = r.json()["game"]["id"]
        # the default app reads the log but knows no such game: its kind is unreadable there
        assert (await default.get(f"/v1/games/{made}")).status_code == 503
        # Its lobby leaves out the tables of games it does not run (one Redis may hold them,
        # while a new game rolls out across the instances), and the other app lists them.
        r = await default.get("/v1/games", params={"limit": 100})
        assert r.status_code == 200, r.text
        assert {g["kind"] for g in r.json()["games"]} <= {"cheat", "thirty_one"}
        r = await client.get("/v1/games", params={"limit": 100})
        assert made in [g["id"] for g in r.json()["games"]]
        r = await default.post("/v1/games", json={"kind": "cheat"})
        assert r.status_code == 201, r.text
        assert (await client.get(f"/v1/games/{r.json()['game']['id']}")).status_code == 200


async def test_house_seats_play_the_third_game(client: Client, tables: Tables) -> None:
    table = await tables.create(KIND, {"rounds": 3}, seed=11)
    await tables.join(table)
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "Ház"}, headers=auth(table.host)
    )
    assert r.status_code == 201, r.text
    await tables.start(table)
    for _ in range(10):
        view = await tables.view(table, table.players[0])
        if view["status"] == "finished":
            break
        assert view["turn"] == 0, "the house answered at once"
        r = await tables.send(table, 0, {"type": "reveal"})
        assert r.status_code == 200, r.text
    assert view["status"] == "finished" and view["round"] == 3
    played = [e for e in await events(client, table, None) if e["data"].get("seat") == 1]
    assert {e["type"] for e in played} & {f"{KIND}.revealed", f"{KIND}.folded"}


async def test_a_third_game_clock_runs_out_and_the_house_plays_the_seat(
    client: Client, tables: Tables
) -> None:
    app, state, clock = client.app, client.app.state, FakeClock()

    async def with_the_clock() -> None:
        await state.games.stop_clocks()
        games = Games(state.stores, state.notifier, for_table, state.settings, GAMES, clock)
        state.games = games
        if isinstance(app, Kronikas):
            app.games = games
        games.run_clocks()

    client.blocking_portal.call(with_the_clock)
    started = time.monotonic()
    table = await tables.ready(KIND, 2, {"turn_seconds": 5}, seed=3)
    view = await tables.view(table)
    assert view["deadline"] is not None and view["turn"] == 0

    async def five_seconds_later() -> None:
        await asyncio.sleep(0.3)
        clock.advance(5)

    client.blocking_portal.start_task_soon(five_seconds_later)
    r = await asyncio.wait_for(
        client.get(f"/v1/games/{table.id}/events", params={"after": view["version"], "wait": 9}),
        12,
    )
    got = r.json()["events"]
    assert got[0]["type"] == f"{KIND}.seat_away" and got[0]["data"]["seat"] == 0
    assert got[1]["type"] in {f"{KIND}.revealed", f"{KIND}.folded"}, "the house played seat 0"
    mine = await tables.view(table, table.players[0])
    assert mine["players"][0]["away"] is True and mine["legal"] == ["leave", "back"]
    assert time.monotonic() - started < 5, "the clock was not waited out"


async def test_a_seats_stream_of_the_third_game_is_redacted_for_it(
    client: Client, tables: Tables
) -> None:
    table = await tables.ready(KIND, 2, seed=5)
    games = client.app.state.games

    async def first_events(token: str | None) -> list[Any]:
        following = await games.stream(table.id, token, 0)
        got: list[Any] = []
        async with following:
            async for delivered in following():
                if delivered is not None:
                    got.append(json.loads(delivered.json))
                if got and got[-1]["type"] == f"{KIND}.round_dealt":
                    break
        return got

    for seat in (0, 1):
        got = client.blocking_portal.call(first_events, table.players[seat])
        assert [e["version"] for e in got] == list(range(1, len(got) + 1))
        cards = got[-1]["data"]["cards"]
        assert cards[seat] is not None and cards[1 - seat] is None
    watched = client.blocking_portal.call(first_events, None)
    assert watched[-1]["data"]["cards"] == [None, None]
