"""Clocks, leaving and the house through the use cases (issue 16; docs/rules.md, "Clocks, leaving
and the house").

On the memory store with a fake clock: a test moves the clock on and calls `clocks.tick()` itself,
as a process's clock loop would; nothing sleeps through a clock. Each `Games` stands for one
service process, and `World.process()` makes another on the same store (one Redis).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import time
from collections.abc import Sequence
from typing import Any

import pytest

from kronikas.application.clocks import BATCH, LEASE_MS
from kronikas.application.errors import Forbidden, Unauthorized
from kronikas.application.house import HOUSE_MOVES
from kronikas_rules.cards import Card, make_deck
from kronikas_rules.cheat import Call, Play
from kronikas_rules.common import GameFull, GameNotOpen, GameOver, IllegalMove, Shuffle
from kronikas_rules.seating import Back, Leave
from tests.unit.application.clock_helpers import (
    Seated,
    World,
    appends,
    at_ms,
    events,
    mover,
    movers,
    person_move,
    started,
    stored,
    table,
    tag,
    ticked,
    view,
    wire_movers,
    world,
)
from tests.unit.house.tables import unhashed

KINDS = ["cheat", "thirty_one"]
RFC3339_MS = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"
MINUTE = 60
"""The clock of most tests: long enough that nothing falls due by itself while a test runs."""

PLAIN = "thirty_one"
"""The game of the tests of how deadlines are kept, found and acted on, the same in both games."""


def precondition(holds: bool, what: str) -> None:
    """Fail (rather than assert) when what an expected failure needs does not hold: a test marked
    xfail must fail for its bug alone."""
    if not holds:
        pytest.fail(f"precondition: {what}")


async def latest_at(w: World, seated: Seated) -> int:
    """When the table's latest event was appended (epoch ms): its clocks run from it."""
    return at_ms((await events(w.games, seated))[-1]["at"])


async def deadline_ms(w: World, seated: Seated) -> int | None:
    """The spectator view's deadline (epoch ms), checked to be RFC 3339 UTC; None when none."""
    deadline = (await view(w.games, seated))["deadline"]
    if deadline is None:
        return None
    assert isinstance(deadline, str)
    assert re.fullmatch(RFC3339_MS, deadline), deadline
    return at_ms(deadline)


async def plain(w: World) -> Seated:
    """Two persons at a Thirty-One table with a one-minute clock and lives enough for many
    rounds: for the tests of how deadlines are kept, found and acted on."""
    return await started(w.games, PLAIN, "pp", turn_seconds=MINUTE, lives=10)


async def send(w: World, seated: Seated, seat: int, command: Any) -> dict[str, Any]:
    """A command of `seat` by the first process; its answer as the mover sees it."""
    answer = await w.games.command(seated.game_id, seated.token(seat), command, b"")
    result: dict[str, Any] = json.loads(answer.body)
    return result


async def move(w: World, seated: Seated, seat: int) -> dict[str, Any]:
    """`seat`, which the table waits for, makes a plain move of its own."""
    return await send(w, seated, seat, await person_move(w.games, seated, seat))


async def armed(w: World) -> list[str]:
    """The tables with a deadline at all, however far off (taking them all: the test is over
    with them)."""
    return (await w.store.deadlines.due(w.clock() + 10**12, LEASE_MS, BATCH))[1]


async def until_house_is_next(w: World, seated: Seated, house: int, limit: int = 12) -> None:
    """Persons move (the house moving when it may) until the table waits for the `house` seat."""
    for _ in range(limit):
        turn = (await view(w.games, seated))["turn"]
        if turn == house:
            return
        await move(w, seated, turn)
    raise AssertionError(f"the table never waited for seat {house}")


# -- the clock runs out --------------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_when_a_clock_runs_out_the_seat_is_away_and_the_house_moves_for_it_in_one_append(
    kind: str,
) -> None:
    w = world()
    s = await started(w.games, kind, "pp", turn_seconds=MINUTE)
    before = await view(w.games, s)
    seat = before["turn"]
    assert await ticked(w, MINUTE) == [1]
    last = (await appends(w.store, s.game_id))[-1]
    assert last[0]["v"] == before["version"] + 1, "one append, right after the table's last"
    assert tag(last[0]) == "seat_away" and last[0]["e"]["seat"] == seat
    assert movers(kind, last) == [seat], "the house made the seat's move in the same append"
    after = await view(w.games, s)
    assert (after["players"][seat]["away"], after["players"][seat]["left"]) == (True, False)
    assert after["players"][seat]["house"] is False, "away is for a while, not for good"
    assert after["turn"] == 1 - seat
    for token in (None, s.host, s.token(0), s.token(1)):  # an event every viewer sees
        page = json.loads(await w.games.events(s.game_id, token, before["version"], 0))
        assert page["events"][0]["type"] == f"{kind}.seat_away"
        assert page["events"][0]["data"]["seat"] == seat


@pytest.mark.parametrize("kind", KINDS)
async def test_an_away_seat_is_played_at_once_on_its_later_turns_without_waiting_for_a_clock(
    kind: str,
) -> None:
    w = world()
    s = await started(w.games, kind, "pp", turn_seconds=MINUTE)
    away = (await view(w.games, s))["turn"]
    person = 1 - away
    await ticked(w, MINUTE)
    played_for_away = 0
    for _ in range(8):
        if (await view(w.games, s))["status"] == "finished":
            break
        answer = await move(w, s, person)
        played_for_away += wire_movers(kind, answer["events"]).count(away)
        now = await view(w.games, s)
        assert now["status"] == "finished" or now["turn"] == person, "never waits for `away`"
        if now["status"] != "finished":
            assert await deadline_ms(w, s) == await latest_at(w, s) + MINUTE * 1000
    assert played_for_away >= 1
    assert (await view(w.games, s))["players"][away]["away"] is True


@pytest.mark.parametrize("kind", KINDS)
async def test_an_away_seat_may_send_back_at_any_time_and_then_plays_for_itself_again(
    kind: str,
) -> None:
    w = world()
    s = await started(w.games, kind, "pp", turn_seconds=MINUTE)
    away = (await view(w.games, s))["turn"]
    person = 1 - away
    assert "back" not in (await view(w.games, s, away))["legal"]
    with pytest.raises(IllegalMove):
        await send(w, s, away, Back())  # not away: nothing to come back from
    await ticked(w, MINUTE)
    assert (await view(w.games, s, away))["legal"][-2:] == ["leave", "back"]
    assert (await view(w.games, s))["turn"] == person, "back comes off its turn too"
    answer = await send(w, s, away, Back())
    assert [e["type"] for e in answer["events"]] == [f"{kind}.seat_back"]
    assert answer["events"][0]["data"]["seat"] == away
    assert (await view(w.games, s))["players"][away]["away"] is False
    assert "back" not in (await view(w.games, s, away))["legal"]
    with pytest.raises(IllegalMove):
        await send(w, s, away, Back())
    # The seat plays for itself again: the house no longer moves for it.
    answer = await move(w, s, person)
    assert away not in wire_movers(kind, answer["events"])
    assert (await view(w.games, s))["turn"] == away
    assert await deadline_ms(w, s) == await latest_at(w, s) + MINUTE * 1000


@pytest.mark.parametrize("how", ["away", "left"])
async def test_the_house_plays_a_seat_that_is_away_or_left_by_its_strategy(
    how: str, caplog: pytest.LogCaptureFixture
) -> None:
    w = world()
    s = await started(w.games, "cheat", "pp", turn_seconds=MINUTE)
    seat = (await view(w.games, s))["turn"]
    with caplog.at_level(logging.ERROR, logger="kronikas"):
        if how == "away":
            await ticked(w, MINUTE)
        else:
            await send(w, s, seat, Leave())
        for _ in range(3):
            await move(w, s, 1 - seat)
    precondition((await view(w.games, s))["players"][seat][how] is True, f"the seat is {how}")
    failed = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert failed == []


async def test_a_deadline_not_due_yet_does_nothing() -> None:
    w = world()
    s = await plain(w)
    version = (await view(w.games, s))["version"]
    due = await latest_at(w, s) + MINUTE * 1000
    assert await ticked(w, MINUTE - 10) == [0], "the store hands out no table before its time"
    w.clock.advance(MINUTE - 10)  # nor does acting on it early do anything
    try:
        assert (await w.games.commands.on_deadline(s.game_id)).following == due
    finally:
        w.clock.catch_up()
    assert (await view(w.games, s))["version"] == version
    assert await ticked(w, MINUTE) == [1]
    assert (await view(w.games, s))["version"] > version


async def test_a_deadline_that_fell_due_while_no_process_ran_is_acted_on_when_one_starts() -> None:
    w = world()
    s = await plain(w)
    seat = (await view(w.games, s))["turn"]
    later = w.process()  # started an hour later, it has never heard of the table
    assert await ticked(w, 3600, later) == [1]
    last = (await appends(w.store, s.game_id))[-1]
    assert tag(last[0]) == "seat_away" and movers(PLAIN, last) == [seat]


async def test_two_processes_ticking_together_make_exactly_one_house_move_per_timed_out_turn() -> (
    None
):
    w = world()
    other = w.process()
    s = await plain(w)
    for _ in range(5):
        seat = (await view(w.games, s))["turn"]
        before = len(await appends(w.store, s.game_id))
        assert sorted(await ticked(w, MINUTE, w.games, other)) == [0, 1], "one process took it"
        new = (await appends(w.store, s.game_id))[before:]
        assert len(new) == 1, "one append"
        assert [tag(r) for r in new[0]].count("seat_away") == 1
        assert tag(new[0][0]) == "seat_away" and new[0][0]["e"]["seat"] == seat
        assert movers(PLAIN, new[0])[0] == seat
        await other.command(s.game_id, s.token(seat), Back(), b"")  # and the next turn is timed


async def test_two_processes_acting_on_one_deadline_at_once_append_it_once() -> None:
    w = world()
    other = w.process()
    s = await plain(w)
    seat = (await view(w.games, s))["turn"]
    before = len(await appends(w.store, s.game_id))
    last = await latest_at(w, s)
    while time.time_ns() // 1_000_000 <= last:  # the next events are stamped later than it (≤1 ms)
        await asyncio.sleep(0.001)
    w.clock.freeze(last + MINUTE * 1000)  # the very moment the clock runs out
    try:  # past the store's lease: only the append at the expected version keeps them apart
        await asyncio.gather(
            w.games.commands.on_deadline(s.game_id), other.commands.on_deadline(s.game_id)
        )
    finally:
        w.clock.catch_up()
    new = (await appends(w.store, s.game_id))[before:]
    assert len(new) == 1
    assert [(tag(r), r["e"].get("seat")) for r in new[0]].count(("seat_away", seat)) == 1
    assert movers(PLAIN, new[0])[:1] == [seat]


async def test_a_process_that_took_a_due_table_and_died_leaves_it_to_another_after_the_lease() -> (
    None
):
    w = world()
    other = w.process()
    s = await plain(w)
    seat = (await view(w.games, s))["turn"]
    version = (await view(w.games, s))["version"]
    w.clock.advance(MINUTE)
    try:
        _, taken = await w.store.deadlines.due(
            w.clock(), LEASE_MS, BATCH
        )  # taken, then the process died
        assert taken == [s.game_id]
        assert await other.clocks.tick() == 0, "leased to the first process"
        w.clock.advance(LEASE_MS / 1000)
        assert await other.clocks.tick() == 1
    finally:
        w.clock.catch_up()
    new = [r for r in await stored(w.store, s.game_id) if r["v"] > version]
    assert tag(new[0]) == "seat_away" and new[0]["e"]["seat"] == seat
    assert movers(PLAIN, new) == [seat]


async def test_the_next_clock_runs_from_the_time_the_service_is_given() -> None:
    w = world()
    s = await plain(w)
    first = (await view(w.games, s))["turn"]
    w.clock.advance(MINUTE)
    precondition(await w.games.clocks.tick() == 1, "the first seat's clock ran out")
    precondition((await view(w.games, s))["turn"] == 1 - first, "the next seat's turn")
    await w.games.clocks.tick()  # no time passed: the second seat has its whole minute
    assert (await view(w.games, s))["players"][1 - first]["away"] is False


# -- the deadline in the view --------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
async def test_the_deadline_is_the_latest_event_plus_turn_seconds_while_a_person_is_waited_for(
    kind: str,
) -> None:
    w = world()
    s = await started(w.games, kind, "pp", turn_seconds=MINUTE)
    for _ in range(3):
        assert await deadline_ms(w, s) == await latest_at(w, s) + MINUTE * 1000
        seat = (await view(w.games, s))["turn"]
        mine = await view(w.games, s, seat)
        assert mine["deadline"] == (await view(w.games, s))["deadline"], "the same for all"
        await move(w, s, seat)


async def test_no_clock_runs_without_turn_seconds_before_the_start_or_after_the_end() -> None:
    w = world()
    unclocked = await started(w.games, "cheat", "pp")
    assert await deadline_ms(w, unclocked) is None
    await move(w, unclocked, (await view(w.games, unclocked))["turn"])
    assert await deadline_ms(w, unclocked) is None
    lobby = await table(w.games, "cheat", "pp", turn_seconds=MINUTE)
    assert await deadline_ms(w, lobby) is None
    assert await armed(w) == [], "no deadline is kept for either table"
    s = await started(w.games, "cheat", "pp", turn_seconds=MINUTE)
    for _ in range(200):
        if (await view(w.games, s))["status"] == "finished":
            break
        await move(w, s, (await view(w.games, s))["turn"])
    assert (await view(w.games, s))["status"] == "finished"
    assert await deadline_ms(w, s) is None
    version = (await view(w.games, s))["version"]
    await ticked(w, 10 * MINUTE)  # whatever deadline was armed comes to nothing…
    await ticked(w, 11 * MINUTE)  # …and is forgotten at the second look (the first may be stale)
    assert (await view(w.games, s))["version"] == version
    assert await armed(w) == []


async def window(w: World) -> tuple[Seated, int, int]:
    """Cheat, three persons with a clock: the first play is made, its window open. Answers the
    table, the seat that played and the next seat."""
    s = await started(w.games, "cheat", "ppp", turn_seconds=MINUTE)
    player = (await view(w.games, s))["turn"]
    await move(w, s, player)
    return s, player, (player + 1) % 3


async def test_during_cheats_challenge_window_the_clock_is_the_next_players() -> None:
    w = world()
    s, player, following = await window(w)
    now = await view(w.games, s)
    assert now["cheat"]["window_open"] is True and now["turn"] == following
    assert await deadline_ms(w, s) == await latest_at(w, s) + MINUTE * 1000
    third = 3 - player - following
    assert "call" in (await view(w.games, s, third))["legal"], "calling is on no clock"


async def test_when_the_clock_runs_out_in_the_window_the_next_player_is_away() -> None:
    w = world()
    s, _, following = await window(w)
    await ticked(w, MINUTE)
    last = (await appends(w.store, s.game_id))[-1]
    assert tag(last[0]) == "seat_away" and last[0]["e"]["seat"] == following
    players = (await view(w.games, s))["players"]
    assert [p["away"] for p in players] == [seat == following for seat in range(3)]


async def test_the_house_plays_for_the_next_player_whose_clock_ran_out_in_the_window() -> None:
    # Another person may still call: the house plays after its pause (3 s by default).
    w = world()
    s, _, following = await window(w)
    version = (await view(w.games, s))["version"]
    await ticked(w, MINUTE)
    await ticked(w, 3)
    new = [r for r in await stored(w.store, s.game_id) if r["v"] > version]
    precondition([tag(r) for r in new][:1] == ["seat_away"], "the seat went away")
    assert movers("cheat", new)[:1] == [following]


async def php(w: World, pause: int = 3) -> Seated:
    """Cheat: a person, the house, a person, no clock; played until the house is next after the
    first person's play, which the other person may still call."""
    s = await started(w.games, "cheat", "php", seed=7, house_pause_seconds=pause)
    await until_house_is_next(w, s, 1)
    window = await view(w.games, s)
    assert window["cheat"]["last_play"]["seat"] == 0 and window["cheat"]["window_open"]
    assert "call" in (await view(w.games, s, 2))["legal"]
    return s


async def test_while_the_house_is_next_and_a_person_may_call_the_deadline_is_the_houses_pause() -> (
    None
):
    w = world()
    s = await php(w, pause=3)
    assert await deadline_ms(w, s) == await latest_at(w, s) + 3000, "no clock, but the pause"
    version = (await view(w.games, s))["version"]
    assert await ticked(w, 2) == [0]
    assert (await view(w.games, s))["version"] == version, "the house waits out its pause"


@pytest.mark.parametrize("pause", [3, 0])
async def test_the_house_plays_once_its_pause_is_over(pause: int) -> None:
    w = world()
    s = await php(w, pause=pause)
    version = (await view(w.games, s))["version"]
    await ticked(w, pause)
    await ticked(w, pause)  # a second look changes nothing either
    new = [r for r in await stored(w.store, s.game_id) if r["v"] > version]
    assert movers("cheat", new)[:1] == [1], "the house made seat 1's move"
    assert (await view(w.games, s))["turn"] != 1


async def test_a_persons_call_during_the_houses_pause_is_handled_as_usual() -> None:
    w = world()
    s = await php(w, pause=3)
    answer = await send(w, s, 2, Call())
    called = [e for e in answer["events"] if e["type"] == "cheat.cheat_called"]
    assert len(called) == 1
    assert (called[0]["data"]["caller"], called[0]["data"]["seat"]) == (2, 0)
    assert "cheat.pile_taken" in [e["type"] for e in answer["events"]]
    assert answer["game"]["cheat"]["last_call"]["caller"] == 2


async def sure_lie(seats: str, seed: int, house: int) -> tuple[World, Seated, dict[str, Any]]:
    """Seat 0 on turn puts down four cards as the rank, of which the house holds one: a play
    the house's seat knows to be a lie. Answers the play's answer."""
    w = world()
    s = await started(w.games, "cheat", seats, seed=seed, house_pause_seconds=30)
    spectator = await view(w.games, s)
    assert spectator["turn"] == 0
    dealt = next(r for r in await stored(w.store, s.game_id) if tag(r) == "round_dealt")
    rank = spectator["cheat"]["rank"]
    assert any(card[:-1] == rank for card in dealt["e"]["hands"][house])
    hand = (await view(w.games, s, 0))["me"]["hand"]
    return w, s, await send(w, s, 0, Play(cards=hand[:4]))


async def test_the_houses_own_call_is_decided_at_once_without_a_pause() -> None:
    _, _, answer = await sure_lie("pph", seed=2, house=2)
    called = [e["data"] for e in answer["events"] if e["type"] == "cheat.cheat_called"]
    assert [(c["caller"], c["seat"], c["honest"]) for c in called] == [(2, 0, False)]


async def test_the_house_next_to_play_also_decides_to_call_at_once() -> None:
    # Seat 0 claims four cards of a rank the house holds one of: a sure lie, called at once.
    _, _, answer = await sure_lie("php", seed=3, house=1)
    called = [e["data"] for e in answer["events"] if e["type"] == "cheat.cheat_called"]
    assert [(c["caller"], c["seat"]) for c in called] == [(1, 0)]


# -- the house at once, and the house alone ------------------------------------------------------


async def test_a_start_with_the_house_first_to_play_already_holds_the_houses_move() -> None:
    w = world()
    s = await table(w.games, "cheat", "ph", seed=7, turn_seconds=MINUTE)
    answer = await w.games.start(s.game_id, s.host)
    started_view = json.loads(answer.body)
    page = await events(w.games, s)
    dealt = next(e for e in page if e["type"] == "cheat.round_dealt")
    assert dealt["data"]["turn"] == 1, "the seed deals the house the first play"
    after = [e for e in page if e["version"] > dealt["version"]]
    assert wire_movers("cheat", after) == [1]
    assert started_view["version"] == answer.version == page[-1]["version"]
    assert started_view["turn"] == 0
    assert started_view["deadline"] is not None and at_ms(started_view["deadline"]) == (
        at_ms(page[-1]["at"]) + MINUTE * 1000
    )


@pytest.mark.parametrize(
    ("kind", "seats", "fields"),
    # Matches of a few hundred moves: more than a request makes, so the rest comes in a few
    # deadlines (the house's strategy costs most of the time here: no longer than needed).
    [("cheat", "hh", {"rounds": 4}), ("thirty_one", "hhh", {"lives": 10})],
)
async def test_a_table_of_house_seats_alone_plays_its_match_to_the_end_through_the_deadlines(
    kind: str, seats: str, fields: dict[str, Any]
) -> None:
    w = world()
    s = await started(w.games, kind, seats, seed=3, **fields)
    start = (await appends(w.store, s.game_id))[-1]
    assert tag(start[0]) == "round_dealt"
    # Nobody waits for the house's moves: the start does not pay for them, its deadline does.
    assert movers(kind, start) == [], "the start holds the deal alone"
    owed = await deadline_ms(w, s)
    assert owed == await latest_at(w, s), "the moves are owed at once"
    assert await ticked(w, 0) == [1]
    first = (await appends(w.store, s.game_id))[-1]
    # A move makes one to three events with a mover (a swap in the last circuit also shows).
    assert HOUSE_MOVES <= len(movers(kind, first)) <= 3 * HOUSE_MOVES, "at most 100 moves"
    assert (await view(w.games, s))["status"] == "playing", "the match takes more than a tick"
    ticks = 0
    while (await view(w.games, s))["status"] != "finished":
        assert ticks < 50, "the match did not end"
        assert await ticked(w, 0) == [1]
        ticks += 1
    made = [len(movers(kind, a)) for a in await appends(w.store, s.game_id)][-ticks:]
    assert ticks >= 1 and all(0 < m <= 3 * HOUSE_MOVES for m in made)
    assert await deadline_ms(w, s) is None
    assert await armed(w) == []


async def test_two_processes_acting_together_on_a_house_table_play_it_as_one_process_would() -> (
    None
):
    seats = "hhhh"  # a match of a few hundred moves: a few deadlines' worth, no more
    alone = world()
    s = await started(alone.games, PLAIN, seats, seed=3, lives=10)
    made = len(await appends(alone.store, s.game_id))  # the creation, the joins, the start
    while (await view(alone.games, s))["status"] != "finished":
        await ticked(alone, 0)
    assert len(await appends(alone.store, s.game_id)) > made + 1, "the match takes a few deadlines"
    w = world()
    other = w.process()
    t = await started(w.games, PLAIN, seats, seed=3, lives=10)
    together = 0
    while together < 100 and (await view(w.games, t))["status"] != "finished":
        await asyncio.gather(
            w.games.commands.on_deadline(t.game_id), other.commands.on_deadline(t.game_id)
        )
        together += 1
    assert together >= 2, "the two processes met on more than one deadline"
    assert normalised(await stored(alone.store, s.game_id), s.ids) == normalised(
        await stored(w.store, t.game_id), t.ids
    )


# -- leaving -------------------------------------------------------------------------------------


async def test_leaving_before_the_start_removes_the_player_and_the_seats_after_it_move_down() -> (
    None
):
    w = world()
    s = await table(w.games, "cheat", "pphp", turn_seconds=MINUTE)
    answer = await send(w, s, 1, Leave())
    [left] = answer["events"]
    assert left["type"] == "cheat.player_left"
    assert (left["data"]["seat"], left["data"]["started"]) == (1, False)
    players = (await view(w.games, s))["players"]
    assert [p["id"] for p in players] == [s.ids[0], s.ids[2], s.ids[3]]
    assert [p["seat"] for p in players] == [0, 1, 2]
    assert [p["house"] for p in players] == [False, True, False]
    assert (await view(w.games, s, 3))["me"]["seat"] == 2
    joined = json.loads(await w.games.join(s.game_id, "Late"))
    assert joined["seat"] == 3
    assert (await view(w.games, s, 3))["legal"] == ["leave"]


async def test_the_token_of_a_player_who_left_before_the_start_is_refused() -> None:
    w = world()
    s = await table(w.games, "cheat", "ppp")
    await send(w, s, 0, Leave())
    gone = s.token(0)
    with pytest.raises(Unauthorized):
        await w.games.view(s.game_id, gone)
    with pytest.raises(Unauthorized):
        await w.games.events(s.game_id, gone, 0, 0)
    for command in (Leave(), Back(), Play(cards=["7H"])):
        with pytest.raises(Unauthorized):
            await w.games.command(s.game_id, gone, command, b"")
    with pytest.raises(Unauthorized):  # another process, which never saw the token, as well
        await w.process().view(s.game_id, gone)


@pytest.mark.parametrize(("kind", "fields"), [("cheat", {}), ("thirty_one", {"lives": 1})])
async def test_after_the_start_the_house_plays_the_seat_of_a_player_who_left_to_the_end(
    kind: str, fields: dict[str, Any]
) -> None:
    w = world()
    s = await started(w.games, kind, "pp", turn_seconds=MINUTE, **fields)
    leaver = (await view(w.games, s))["turn"]
    person = 1 - leaver
    answer = await send(w, s, leaver, Leave())
    assert answer["events"][0]["type"] == f"{kind}.player_left"
    assert answer["events"][0]["data"]["started"] is True
    assert leaver in wire_movers(kind, answer["events"]), "its move at once, in the answer"
    for _ in range(400):
        now = await view(w.games, s)
        if now["status"] == "finished":
            break
        assert now["turn"] == person
        await move(w, s, person)
    final = await view(w.games, s)
    assert final["status"] == "finished"
    seat = final["players"][leaver]
    assert (seat["left"], seat["house"], seat["away"]) == (True, True, False)
    log = await stored(w.store, s.game_id)
    assert tag(log[-1]) == "match_ended"
    assert movers(kind, log).count(leaver) >= 2


@pytest.mark.parametrize("kind", KINDS)
async def test_a_player_who_left_reads_the_table_and_any_command_of_theirs_is_an_illegal_move(
    kind: str,
) -> None:
    w = world()
    s = await started(w.games, kind, "ppp", turn_seconds=MINUTE)
    leaver = ((await view(w.games, s))["turn"] + 1) % 3  # off its turn
    hand = (await view(w.games, s, leaver))["me"]["hand"]
    await send(w, s, leaver, Leave())
    mine = await view(w.games, s, leaver)
    assert mine["me"]["seat"] == leaver and mine["me"]["hand"] == hand
    assert mine["legal"] == []
    assert json.loads(await w.games.events(s.game_id, s.token(leaver), 0, 0))["events"]
    for command in (Leave(), Back(), await person_move(w.games, s, mine["turn"])):
        with pytest.raises(IllegalMove):
            await send(w, s, leaver, command)


async def test_leave_and_back_after_the_match_is_over_are_game_over() -> None:
    w = world()
    s = await started(w.games, "thirty_one", "pp", turn_seconds=MINUTE, lives=1)
    await send(w, s, 0, Leave())
    for _ in range(400):
        now = await view(w.games, s)
        if now["status"] == "finished":
            break
        await move(w, s, now["turn"])
    assert (await view(w.games, s))["status"] == "finished"
    for seat in range(2):  # the seat that left as well
        for command in (Leave(), Back()):
            with pytest.raises(GameOver):
                await send(w, s, seat, command)


# -- house players -------------------------------------------------------------------------------


async def test_only_the_host_seats_a_house_player_on_an_open_table_with_a_free_seat() -> None:
    w = world()
    s = await table(w.games, "cheat", "p")
    answer = json.loads(await w.games.seat_house(s.game_id, s.host, "House"))
    assert set(answer) == {"player_id", "seat", "game"}, "no token for a house seat"
    assert answer["seat"] == 1 and answer["game"]["players"][1]["house"] is True
    with pytest.raises(Forbidden):
        await w.games.seat_house(s.game_id, s.token(0), "House")
    with pytest.raises(Unauthorized):
        await w.games.seat_house(s.game_id, "host_not-a-token-of-any-table", "House")
    for name in ("H2", "H3"):
        await w.games.seat_house(s.game_id, s.host, name)
    with pytest.raises(GameFull):  # one deck seats four
        await w.games.seat_house(s.game_id, s.host, "H4")
    t = await started(w.games, "cheat", "pp")
    with pytest.raises(GameNotOpen):
        await w.games.seat_house(t.game_id, t.host, "Late")


# -- reproducible and fair -----------------------------------------------------------------------


def normalised(records: Sequence[dict[str, Any]], ids: Sequence[str]) -> list[dict[str, Any]]:
    """Stored events without what differs between two runs: times, nonces, player ids."""
    seat_of = {player_id: f"seat {seat}" for seat, player_id in enumerate(ids)}
    found = []
    for record in records:
        event = dict(record["e"])
        if "player_id" in event:
            event["player_id"] = seat_of[event["player_id"]]
        found.append({"v": record["v"], "e": event})
    return found


async def seeded_match(kind: str, seed: int) -> list[dict[str, Any]]:
    """A person against a house player, to the end of the match: the person always makes the
    same plain move. Answers the log, normalised."""
    w = world()
    s = await started(w.games, kind, "ph", seed=seed, turn_seconds=MINUTE)
    for _ in range(400):
        if (await view(w.games, s))["status"] == "finished":
            break
        await move(w, s, 0)
    assert (await view(w.games, s))["status"] == "finished"
    return normalised(await stored(w.store, s.game_id), s.ids)


@pytest.mark.parametrize("kind", KINDS)
async def test_seeded_tables_with_house_players_replay_the_same_events(kind: str) -> None:
    first = await seeded_match(kind, seed=21)
    assert first == await seeded_match(kind, seed=21)
    assert first != await seeded_match(kind, seed=22)


class StackedDeck:
    """Deals a given deck and picks a given first dealer (a `Randomness` fake)."""

    def __init__(self, deck: Sequence[Card], dealer: int) -> None:
        self.deck = tuple(deck)
        self.dealer = dealer

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        assert sorted(cards) == sorted(self.deck)
        salt = "5a" * 32
        return Shuffle.committed(self.deck, [salt[:32]] * len(self.deck))

    def pick(self, n: int) -> int:
        return self.dealer


async def house_decisions(deck: Sequence[Card]) -> tuple[list[dict[str, Any]], list[str]]:
    """Cheat, two persons and the house (seat 2), which plays first: the house's opening play,
    then whether it calls seat 0's play of the deck's 8th card. Answers the house's moves as
    stored, and seat 0's hand."""
    stacked = StackedDeck(deck, dealer=1)  # seat 2 plays first; card i goes to seat (2 + i) % 3
    w = world(lambda seed, arena=None: stacked)
    s = await started(w.games, "cheat", "pph", seed=11)
    assert (await view(w.games, s))["turn"] == 0, "the house played at once"
    hand: list[str] = (await view(w.games, s, 0))["me"]["hand"]
    await send(w, s, 0, Play(cards=[deck[7]]))
    log = await stored(w.store, s.game_id)
    mine = [r["e"] for r in log if tag(r) in ("cards_played", "cheat_called") and mover(r) == 2]
    return mine, hand


async def test_the_houses_decisions_do_not_change_when_only_cards_its_seat_cannot_see_differ() -> (
    None
):
    deck = list(make_deck())
    random.Random(16).shuffle(deck)
    other = list(deck)
    other[1], other[2] = other[2], other[1]  # a card of seat 0's for one of seat 1's
    other[4], other[30] = other[30], other[4]  # and one for a card set aside
    house, hand = await house_decisions(deck)
    house_again, other_hand = await house_decisions(other)
    assert hand != other_hand, "the persons' hands differ"
    # Alike but for the audit paths of the call's openings, which hash the whole deck.
    assert house and unhashed(house) == unhashed(house_again)
