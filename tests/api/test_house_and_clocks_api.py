"""House players, leaving and turn clocks over HTTP (issue 16; docs/api.md, docs/rules.md
"Clocks, leaving and the house").

An app on the session's real Redis; its clock loop runs as in a process. One test has clocks of
five seconds (the least a table may have) run out, two tables at once, on a clock it moves on
itself (`clock`: time is the application's port); the others use clocks that cannot run out while
they run.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.adapters.randomness import for_table
from kronikas.api.app import create_app
from kronikas.api.lane import Kronikas
from kronikas.application.games import Games
from tests.api.tables import Table, Tables, auth
from tests.api.test_tables import assert_problem
from tests.apps import ENGINES, settings
from tests.unit.application.clock_helpers import FakeClock

Client = AsyncTestClient[Litestar]
RFC3339_MS = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z")
NOT_A_TOKEN = "host_not.a.token"
"""A token no table has: `.` is not in the alphabet of the tokens the service makes."""
KINDS = ["cheat", "thirty_one"]
MOVES = {
    "cheat": {"cards_played", "play_accepted", "cheat_called"},
    "thirty_one": {
        "hand_kept",
        "hand_exchanged",
        "card_swapped",
        "hands_swapped",
        "passed",
        "hand_shown",
    },
}


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Client]:
    """An app of the test's own: `clock` changes the app's use cases, which the session's
    shared app must keep."""
    async with AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as c:
        yield c


@pytest.fixture
def clock(client: Client) -> FakeClock:
    """The app's time, which the test moves on: its use cases made again on the same store and
    notifier with a clock the test holds, their clock loop running in place of the first one."""
    app, state, moved = client.app, client.app.state, FakeClock()

    async def with_the_clock() -> None:
        await state.games.stop_clocks()
        games = Games(state.stores, state.notifier, for_table, state.settings, ENGINES, now=moved)
        state.games = games
        if isinstance(app, Kronikas):
            app.games = games
        games.run_clocks()  # the app's shutdown stops the clocks of `state.games`: these

    client.blocking_portal.call(with_the_clock)  # on the app's loop, where its tasks run
    return moved


def ms(text: str) -> int:
    """Epoch milliseconds of an RFC 3339 UTC time with milliseconds."""
    assert RFC3339_MS.fullmatch(text), text
    moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return round(moment.timestamp() * 1000)


def movers(events: list[dict[str, Any]]) -> list[int]:
    """The seats that made the moves among these events, in order."""
    found = []
    for event in events:
        kind, _, name = event["type"].partition(".")
        if name in MOVES[kind]:
            data = event["data"]
            found.append(data["caller"] if name == "cheat_called" else data["seat"])
    return found


async def house_player(client: Client, table: Table, name: str = "House") -> dict[str, Any]:
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": name}, headers=auth(table.host)
    )
    assert r.status_code == 201, r.text
    seated: dict[str, Any] = r.json()
    table.players.append("")  # no token: `players` stays by seat
    return seated


async def all_events(
    client: Client, table: Table, token: str | None = None, after: int = 0
) -> list[dict[str, Any]]:
    r = await client.get(
        f"/v1/games/{table.id}/events", params={"after": after}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


async def first_move(tables: Tables, table: Table, seat: int) -> dict[str, Any]:
    """A plain move of `seat` from its own view: its first card, or accept; in Thirty-One keep,
    pass or show."""
    mine = await tables.view(table, table.players[seat])
    legal = mine["legal"]
    if mine["kind"] == "cheat":
        if "play" in legal:
            return {"type": "play", "cards": mine["me"]["hand"][:1]}
        return {"type": "accept"}
    return {"type": next(k for k in ("keep", "pass", "show") if k in legal)}


# -- house players -------------------------------------------------------------------------------


async def test_the_host_seats_a_house_player_201_with_its_id_and_seat_and_no_token(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat")
    await tables.join(table)
    seated = await house_player(client, table, "The House")
    assert set(seated) == {"player_id", "seat", "game"}
    assert seated["seat"] == 1 and re.fullmatch(r"[0-9a-f]{12}", seated["player_id"])
    player = seated["game"]["players"][1]
    assert (player["id"], player["name"]) == (seated["player_id"], "The House")
    assert (player["house"], player["away"], player["left"]) == (True, False, False)
    assert seated["game"]["me"] is None and seated["game"]["version"] == 3
    events = await all_events(client, table)
    assert events[-1]["type"] == "cheat.player_joined" and events[-1]["data"]["house"] is True
    joined = await tables.join(table)
    assert joined["seat"] == 2, "the next join takes the next seat"


@pytest.mark.parametrize(
    ("headers", "status", "code"),
    [
        ({}, 401, "unauthorized"),
        ({"Authorization": "Basic abc"}, 401, "unauthorized"),
        ({"Authorization": f"Bearer {NOT_A_TOKEN}"}, 401, "unauthorized"),
    ],
)
async def test_seating_a_house_player_without_the_tables_token_is_401(
    tables: Tables, client: Client, headers: dict[str, str], status: int, code: str
) -> None:
    table = await tables.create("thirty_one")
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "House"}, headers=headers
    )
    assert_problem(r, status, code)
    assert (await tables.view(table))["players"] == []


async def test_seating_a_house_player_with_a_seat_token_is_403(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat")
    await tables.join(table)
    r = await client.post(
        f"/v1/games/{table.id}/house-players",
        json={"name": "House"},
        headers=auth(table.players[0]),
    )
    assert_problem(r, 403, "forbidden")
    assert len((await tables.view(table))["players"]) == 1


async def test_seating_a_house_player_on_a_started_table_is_409_game_not_open(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("cheat", 2)
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "House"}, headers=auth(table.host)
    )
    assert_problem(r, 409, "game_not_open")


async def test_seating_a_house_player_on_a_full_table_is_409_game_full(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat")  # one deck: four seats
    for _ in range(3):
        await tables.join(table)
    await house_player(client, table)
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json={"name": "More"}, headers=auth(table.host)
    )
    assert_problem(r, 409, "game_full")


@pytest.mark.parametrize(
    "body",
    [
        {"name": ""},
        {"name": "   "},
        {"name": "a\nb"},
        {"name": "x" * 33},
        {},
        {"name": 7},
        {"name": "House", "house": True},
    ],
)
async def test_seating_a_house_player_with_a_bad_name_is_422(
    tables: Tables, client: Client, body: dict[str, Any]
) -> None:
    table = await tables.create("cheat")
    r = await client.post(
        f"/v1/games/{table.id}/house-players", json=body, headers=auth(table.host)
    )
    assert_problem(r, 422, "invalid_request")


# -- kinds and options ---------------------------------------------------------------------------


async def test_kinds_list_turn_seconds_for_both_games_and_the_house_pause_for_cheat(
    client: Client,
) -> None:
    r = await client.get("/v1/kinds")
    assert r.status_code == 200
    kinds = {k["kind"]: {o["name"]: o for o in k["options"]} for k in r.json()["kinds"]}
    for kind in KINDS:
        turn = kinds[kind]["turn_seconds"]
        assert turn["type"] == "integer" and turn["nullable"] is True
        assert (turn["default"], turn["minimum"], turn["maximum"]) == (None, 5, 86_400)
    pause = kinds["cheat"]["house_pause_seconds"]
    assert pause["type"] == "integer" and not pause.get("nullable", False)
    assert (pause["default"], pause["minimum"], pause["maximum"]) == (3, 0, 30)
    assert "house_pause_seconds" not in kinds["thirty_one"]


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("cheat", {"turn_seconds": 4}),
        ("cheat", {"turn_seconds": 86_401}),
        ("cheat", {"turn_seconds": 0}),
        ("thirty_one", {"turn_seconds": 4}),
        ("thirty_one", {"turn_seconds": 86_401}),
        ("thirty_one", {"turn_seconds": "60"}),
        ("cheat", {"house_pause_seconds": -1}),
        ("cheat", {"house_pause_seconds": 31}),
        ("cheat", {"house_pause_seconds": None}),
        ("thirty_one", {"house_pause_seconds": 3}),
    ],
)
async def test_clock_options_outside_their_limits_are_422(
    client: Client, kind: str, options: dict[str, Any]
) -> None:
    r = await client.post("/v1/games", json={"kind": kind, "options": options})
    assert_problem(r, 422, "invalid_request")


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("cheat", {"turn_seconds": 5, "house_pause_seconds": 0}),
        ("cheat", {"turn_seconds": 86_400, "house_pause_seconds": 30}),
        ("thirty_one", {"turn_seconds": 5}),
        ("thirty_one", {"turn_seconds": None}),
    ],
)
async def test_clock_options_at_their_limits_make_a_table_that_shows_them(
    tables: Tables, kind: str, options: dict[str, Any]
) -> None:
    table = await tables.create(kind, options)
    shown = (await tables.view(table))["options"]
    assert shown.items() >= options.items()


# -- the deadline --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_with_a_clock_every_view_shows_the_deadline_in_rfc3339_utc(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await tables.create(kind, {"turn_seconds": 600})
    for _ in range(2):
        await tables.join(table)
    assert (await tables.view(table))["deadline"] is None, "no clock before the start"
    started = await tables.start(table)
    latest = (await all_events(client, table))[-1]
    assert ms(started["deadline"]) == ms(latest["at"]) + 600_000
    for token in (None, table.host, *table.players):
        assert (await tables.view(table, token))["deadline"] == started["deadline"]
    turn = started["turn"]
    r = await tables.send(table, turn, await first_move(tables, table, turn))
    assert r.status_code == 200, r.text
    moved = r.json()
    assert ms(moved["game"]["deadline"]) == ms(moved["events"][-1]["at"]) + 600_000
    assert abs(ms(moved["game"]["deadline"]) - (time.time() * 1000 + 600_000)) < 30_000


async def test_without_a_clock_the_deadline_is_null(tables: Tables) -> None:
    table = await tables.ready("cheat", 2)
    view = await tables.view(table)
    assert view["options"]["turn_seconds"] is None and view["deadline"] is None


# -- the house at once ---------------------------------------------------------------------------


async def test_a_start_with_a_house_player_first_to_play_answers_with_its_moves_made(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat", seed=7)  # the seed deals seat 1 the first play
    await tables.join(table)
    await house_player(client, table)
    started = await tables.start(table)
    events = await all_events(client, table)
    dealt = next(e for e in events if e["type"] == "cheat.round_dealt")
    assert dealt["data"]["turn"] == 1
    later = [e for e in events if e["version"] > dealt["version"]]
    assert movers(later) == [1]
    assert later[0]["data"]["cards"] is None, "a spectator sees no card of the house's"
    assert started["version"] == events[-1]["version"]
    assert started["turn"] == 0 and started["players"][1]["hand_size"] < 16


async def test_a_persons_answer_holds_the_house_moves_that_followed_as_the_person_sees_them(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat", seed=7)
    await tables.join(table)
    await house_player(client, table)
    await tables.start(table)
    mine = await tables.view(table, table.players[0])
    assert mine["turn"] == 0
    version, hand = mine["version"], mine["me"]["hand"]
    for _ in range(6):
        if mine["status"] == "finished":
            break
        card = mine["me"]["hand"][:1] if "play" in mine["legal"] else None
        command = {"type": "play", "cards": card} if card else {"type": "accept"}
        r = await tables.send(table, 0, command)
        assert r.status_code == 200, r.text
        answer = r.json()
        assert 1 in movers(answer["events"]), "the house's move is in the answer"
        assert answer["events"] == await all_events(client, table, table.players[0], version)
        for event in answer["events"]:
            data = event["data"]
            if event["type"] == "cheat.cards_played" and data["seat"] == 1:
                assert data["cards"] is None, "never a card of the house's hand"
            if event["type"] == "cheat.pile_taken" and data["seat"] == 1:
                assert data.get("cards") is None
        mine = answer["game"]
        assert mine["turn"] == 0 or mine["status"] == "finished"
        version = answer["version"]
    assert set(mine["me"]["hand"]) != set(hand)


# -- leaving -------------------------------------------------------------------------------------


async def test_leave_before_the_start_moves_the_later_seats_down_and_voids_the_token(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("thirty_one")
    for _ in range(3):
        await tables.join(table)
    r = await tables.send(table, 0, {"type": "leave"})
    assert r.status_code == 200, r.text
    [left] = r.json()["events"]
    assert left["type"] == "thirty_one.player_left"
    assert (left["data"]["seat"], left["data"]["started"]) == (0, False)
    assert [p["seat"] for p in (await tables.view(table))["players"]] == [0, 1]
    assert (await tables.view(table, table.players[2]))["me"]["seat"] == 1
    for request in (
        client.get(f"/v1/games/{table.id}", headers=auth(table.players[0])),
        tables.send(table, 0, {"type": "leave"}),
    ):
        assert_problem(await request, 401, "unauthorized")


async def test_after_the_start_a_player_who_left_reads_the_table_and_every_command_is_409(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("cheat", 2, {"turn_seconds": 600}, seed=5)
    leaver = (await tables.view(table))["turn"]
    r = await tables.send(table, leaver, {"type": "leave"})
    assert r.status_code == 200, r.text
    events = r.json()["events"]
    assert events[0]["type"] == "cheat.player_left" and events[0]["data"]["started"] is True
    assert leaver in movers(events), "the house moved for the seat at once"
    mine = await tables.view(table, table.players[leaver])
    assert mine["legal"] == [] and mine["me"]["seat"] == leaver
    player = mine["players"][leaver]
    assert (player["left"], player["house"], player["away"]) == (True, True, False)
    for command in ({"type": "leave"}, {"type": "back"}, {"type": "call"}):
        assert_problem(await tables.send(table, leaver, command), 409, "illegal_move")
    other = 1 - leaver
    for _ in range(300):
        view = await tables.view(table, table.players[other])
        if view["status"] == "finished":
            break
        r = await tables.send(table, other, await first_move(tables, table, other))
        assert r.status_code == 200, r.text
    assert (await tables.view(table))["status"] == "finished"
    for seat in (leaver, other):
        for command in ({"type": "leave"}, {"type": "back"}):
            assert_problem(await tables.send(table, seat, command), 409, "game_over")


async def test_back_from_a_seat_that_is_not_away_is_409_illegal_move(tables: Tables) -> None:
    table = await tables.ready("thirty_one", 2)
    assert_problem(await tables.send(table, 0, {"type": "back"}), 409, "illegal_move")
    assert "back" not in (await tables.view(table, table.players[0]))["legal"]
    assert (await tables.view(table, table.players[0]))["legal"][-1] == "leave"


async def test_the_house_next_to_play_plays_once_its_pause_is_over(
    tables: Tables, client: Client
) -> None:
    table = await tables.create("cheat", {"house_pause_seconds": 0}, seed=7)
    await tables.join(table)
    await house_player(client, table)  # seat 1, which the seed deals the first play
    await tables.join(table)
    await tables.start(table)
    for seat in (2, 0):  # then seat 0's play is open: seat 2 may call it, the house is next
        r = await tables.send(table, seat, await first_move(tables, table, seat))
        if r.status_code != 200:
            pytest.fail(f"precondition: seat {seat} moves: {r.text}")
    waiting = await tables.view(table, table.players[2])
    if waiting["turn"] != 1 or "call" not in waiting["legal"]:
        pytest.fail("precondition: the house is next while seat 2 may call")
    limit = time.monotonic() + 2  # the clocks look every 0.25 s
    while (await tables.view(table))["turn"] == 1 and time.monotonic() < limit:
        await asyncio.sleep(0.1)
    assert (await tables.view(table))["turn"] != 1, "the house played seat 1"


# -- clocks that run out -------------------------------------------------------------------------


async def test_a_clock_that_runs_out_makes_the_seat_away_and_back_ends_it_on_the_wire(
    tables: Tables, client: Client, clock: FakeClock
) -> None:
    started = time.monotonic()
    games = [await tables.ready(kind, 2, {"turn_seconds": 5}, seed=5) for kind in KINDS]
    views = [await tables.view(table) for table in games]

    async def five_seconds_later() -> None:
        await asyncio.sleep(0.3)  # the first poll waits, and the clock loop finds nothing due
        clock.advance(5)

    # The test client's requests block its loop: the clock moves on from the app's loop.
    client.blocking_portal.start_task_soon(five_seconds_later)
    # Long-polls from before the deadline: the house's move reaches them within about a second.
    polls = [
        asyncio.create_task(
            client.get(f"/v1/games/{table.id}/events", params={"after": view["version"], "wait": 9})
        )
        for table, view in zip(games, views, strict=True)
    ]
    answers = await asyncio.wait_for(asyncio.gather(*polls), 12)
    for kind, table, view, r in zip(KINDS, games, views, answers, strict=True):
        seat = view["turn"]
        deadline = ms(view["deadline"])
        assert r.status_code == 200, r.text
        got = r.json()["events"]
        assert got[0]["type"] == f"{kind}.seat_away" and got[0]["data"]["seat"] == seat
        assert ms(got[0]["at"]) >= deadline, "not before the clock ran out"
        assert ms(got[0]["at"]) - deadline < 2_000, "about a second after it"
        assert movers(await all_events(client, table, None, view["version"]))[0] == seat
        now = await tables.view(table, table.players[seat])
        assert now["players"][seat]["away"] is True and now["legal"][-2:] == ["leave", "back"]
        r = await tables.send(table, seat, {"type": "back"})
        assert r.status_code == 200, r.text
        assert [e["type"] for e in r.json()["events"]] == [f"{kind}.seat_back"]
        assert r.json()["game"]["players"][seat]["away"] is False
        assert "back" not in r.json()["game"]["legal"]
    assert time.monotonic() - started < 5, "the test does not wait out the clocks"
