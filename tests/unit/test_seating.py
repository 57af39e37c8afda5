"""Seating: join, leave before and after the start, away, back and house seats (docs/rules.md,
"Clocks, leaving and the house"), once for every game.

The first part drives the seating decider itself (`kronikas_rules.seating`); the second plays the
same story through each game's contract — Cheat, Thirty-One and the tests' High Card — to show that
every game composes it and none re-implements it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from kronikas_rules import seating
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import (
    CapReached,
    DomainError,
    EventOutOfPlace,
    GameFull,
    GameNotOpen,
    GameOver,
    IllegalMove,
    NameTaken,
    NotYourTurn,
    Start,
)
from kronikas_rules.engine import Engine
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import (
    Back,
    Join,
    Leave,
    Player,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    Seating,
    Stage,
    TimeOut,
)
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.third_game.engine import ENGINE as HIGH_CARD

# --- the seating decider ------------------------------------------------------------------------


def seated(*ids: str, **flags: bool) -> Seating:
    """Seats for these player ids, named after them, each with `flags`."""
    return tuple(Player(id=i, name=i.upper(), **flags) for i in ids)


def decide(
    seats: Seating, command: Any, seat: int | None, stage: Stage = "playing", *, house: bool = False
) -> list[seating.SeatingEvent]:
    return seating.decide(seats, command, seat, stage, 4, house)


def fold(seats: Seating, events: Sequence[seating.SeatingEvent], stage: Stage) -> Seating:
    for event in events:
        seats = seating.evolve(seats, event, stage, "the table")
    return seats


def test_a_join_takes_the_next_seat_until_the_table_is_full() -> None:
    events = decide(seated("a"), Join(player_id="b", name="Béla", house=True), None, "lobby")
    assert events == [PlayerJoined(player_id="b", name="Béla", seat=1, house=True)]
    assert fold(seated("a"), events, "lobby")[1] == Player(id="b", name="Béla", house=True)
    with pytest.raises(GameFull, match="All 4 seats"):
        decide(seated("a", "b", "c", "d"), Join(player_id="e", name="E"), None, "lobby")


def test_a_join_is_refused_after_the_start_and_under_a_name_taken_ignoring_case() -> None:
    with pytest.raises(GameNotOpen):
        decide(seated("a"), Join(player_id="b", name="B"), None, "playing")
    with pytest.raises(NameTaken):
        decide(seated("a"), Join(player_id="b", name="a"), None, "lobby")


def test_leaving_the_lobby_frees_the_seat_and_the_seats_after_it_move_down() -> None:
    seats = seated("a", "b", "c")
    events = decide(seats, Leave(), 0, "lobby")
    assert events == [PlayerLeft(seat=0, player_id="a", started=False)]
    after = fold(seats, events, "lobby")
    assert [s.id for s in after] == ["b", "c"]
    assert (seating.seat_of(after, "c"), seating.seat_of(after, "a")) == (1, None)


def test_leaving_after_the_start_keeps_the_seat_for_the_house_for_good() -> None:
    seats = seated("a", "b", away=True)
    events = decide(seats, Leave(), 1)
    assert events == [PlayerLeft(seat=1, player_id="b", started=True)]
    after = fold(seats, events, "playing")
    assert (after[1].left, after[1].away) == (True, False)
    assert seating.house_seats(after) == {0, 1}
    for command in (Leave(), Back()):
        with pytest.raises(IllegalMove, match="left"):
            decide(after, command, 1)


def test_a_time_out_makes_a_persons_seat_away_until_its_player_is_back() -> None:
    seats = seated("a", "b")
    away = fold(seats, decide(seats, TimeOut(seat=1), None), "playing")
    assert seating.house_seats(away) == {1}
    back = decide(away, Back(), 1)
    assert back == [SeatBack(seat=1)]
    assert seating.house_seats(fold(away, back, "playing")) == frozenset()


@pytest.mark.parametrize(
    ("seats", "seat", "stage", "why"),
    [
        (seated("a", "b"), 0, "lobby", "No clock"),
        (seated("a", "b"), 0, "over", "No clock"),
        (seated("a", "b"), 2, "playing", "no seat 2"),
        (seated("a", "b", house=True), 0, "playing", "house player"),
        (seated("a", "b", left=True), 0, "playing", "has left"),
        (seated("a", "b", away=True), 0, "playing", "already away"),
    ],
)
def test_a_time_out_is_refused_unless_a_persons_seat_plays_on(
    seats: Seating, seat: int, stage: Stage, why: str
) -> None:
    with pytest.raises(IllegalMove, match=why):
        decide(seats, TimeOut(seat=seat), None, stage)


@pytest.mark.parametrize(
    ("seats", "command", "seat", "stage", "by_house", "error"),
    [
        (seated("a"), Back(), 0, "playing", False, IllegalMove),  # not away
        (seated("a"), Back(), 0, "lobby", False, IllegalMove),
        (seated("a"), Leave(), None, "playing", False, NotYourTurn),  # a spectator
        (seated("a"), Leave(), 1, "lobby", False, NotYourTurn),  # no such seat
        (seated("a"), Leave(), 0, "over", False, GameOver),
        (seated("a", away=True), Back(), 0, "over", False, GameOver),
        (seated("a", away=True), Leave(), 0, "playing", True, IllegalMove),  # the house's
        (seated("a", away=True), Back(), 0, "playing", True, IllegalMove),
    ],
)
def test_leave_and_back_are_refused_where_the_rules_say(
    seats: Seating,
    command: Leave | Back,
    seat: int | None,
    stage: Stage,
    by_house: bool,
    error: type[DomainError],
) -> None:
    with pytest.raises(error):
        decide(seats, command, seat, stage, house=by_house)


def test_a_seat_may_send_leave_until_it_left_and_back_while_away_and_the_house_neither() -> None:
    plain, away, gone = Player("a", "A"), Player("a", "A", away=True), Player("a", "A", left=True)
    assert [seating.kinds(s, False) for s in (plain, away, gone)] == [
        ["leave"],
        ["leave", "back"],
        [],
    ]
    assert seating.moves(away, False) == [Leave(), Back()]
    assert seating.kinds(away, True) == [] and seating.moves(away, True) == []
    assert [seating.may_act(s, False) for s in (plain, away, gone)] == [True, True, False]
    assert [seating.may_act(s, True) for s in (plain, away, gone)] == [False, True, True]


def test_a_game_command_from_a_seat_that_left_is_refused_unless_the_house_chose_it() -> None:
    with pytest.raises(IllegalMove, match="You have left"):
        seating.check_sender(Player("a", "A", left=True), 0, False)
    seating.check_sender(Player("a", "A", left=True), 0, True)
    with pytest.raises(IllegalMove, match="does not play seat 0"):
        seating.check_sender(Player("a", "A"), 0, True)


@pytest.mark.parametrize(
    ("event", "stage", "why"),
    [
        (PlayerJoined(player_id="c", name="C", seat=2), "playing", "cannot follow"),
        (PlayerLeft(seat=0, player_id="b", started=True), "playing", "not b's"),
        (PlayerLeft(seat=5, player_id="a", started=False), "lobby", "not a's"),
        (PlayerLeft(seat=0, player_id="a", started=False), "playing", "cannot follow"),
        (PlayerLeft(seat=0, player_id="a", started=True), "lobby", "cannot follow"),
        (SeatAway(seat=0), "over", "cannot follow"),
        (SeatBack(seat=2), "playing", "no seat 2"),
    ],
)
def test_a_seating_event_out_of_place_is_refused_as_a_corrupt_log(
    event: seating.SeatingEvent, stage: Stage, why: str
) -> None:
    with pytest.raises(EventOutOfPlace, match=why):
        seating.evolve(seated("a", "b"), event, stage, "the table")


# --- composed into every game ---------------------------------------------------------------------

AnyEngine = Engine[Any, Any, Any, Any, Any]
GAMES: list[AnyEngine] = [CHEAT, THIRTY_ONE, HIGH_CARD]


class Table:
    """A table of one game, driven through its contract as the application drives it."""

    def __init__(self, engine: AnyEngine) -> None:
        self.engine, self.rng = engine, SeededRandomness(7)
        options = engine.options()
        self.state = engine.initial_state(options, True)
        for event in engine.created(options, True):
            self.state = engine.evolve(self.state, event)

    def send(self, command: Any, seat: int | None = None, by_house: bool = False) -> list[Any]:
        events = self.engine.decide(self.state, command, seat, self.rng, by_house)
        for event in events:
            self.state = self.engine.evolve(self.state, event)
        return events

    def refused(self, command: Any, seat: int | None, error: type[DomainError]) -> None:
        with pytest.raises(error):
            self.engine.decide(self.state, command, seat, self.rng, False)

    def flags(self) -> list[tuple[bool, bool, bool]]:
        view = self.engine.view(self.state, None, "g", 1, None, False)
        return [(p.house, p.away, p.left) for p in view.players]


def joined(engine: AnyEngine, players: int) -> Table:
    table = Table(engine)
    for s in range(players):
        table.send(Join(player_id=f"p{s}", name=f"P{s}"))
    return table


@pytest.mark.parametrize("engine", GAMES, ids=lambda e: e.kind)
def test_every_game_seats_and_frees_seats_in_the_lobby_by_player_id(engine: AnyEngine) -> None:
    most = engine.max_players(engine.options())
    table = joined(engine, most)
    table.refused(Join(player_id="x", name="X"), None, GameFull)
    assert table.send(Leave(), 0) == [PlayerLeft(seat=0, player_id="p0", started=False)]
    assert [engine.seat_of(table.state, f"p{s}") for s in range(most)] == [None, *range(most - 1)]
    assert engine.legal(table.state, 0, False) == ["leave"]
    joined_event = table.send(Join(player_id="h", name="House", house=True))
    assert joined_event == [PlayerJoined(player_id="h", name="House", seat=most - 1, house=True)]
    assert engine.house_seats(table.state) == {most - 1}
    assert table.flags()[-1] == (True, False, False)
    table.refused(Join(player_id="x", name="X"), None, GameFull)


@pytest.mark.parametrize("engine", GAMES, ids=lambda e: e.kind)
def test_every_game_hands_away_and_left_seats_to_the_house(engine: AnyEngine) -> None:
    table = joined(engine, engine.seats.least)
    table.send(Start())
    table.refused(Join(player_id="x", name="X"), None, GameNotOpen)
    waiting = engine.waiting_for(table.state)
    assert waiting is not None
    assert table.send(TimeOut(seat=waiting)) == [SeatAway(seat=waiting)]
    assert engine.house_seats(table.state) == {waiting}
    assert engine.legal(table.state, waiting, False)[-2:] == ["leave", "back"]
    assert "leave" not in engine.legal(table.state, waiting, True)
    assert table.send(Back(), waiting) == [SeatBack(seat=waiting)]
    assert engine.house_seats(table.state) == frozenset()
    other = (waiting + 1) % engine.seats.least
    assert table.send(Leave(), other) == [
        PlayerLeft(seat=other, player_id=f"p{other}", started=True)
    ]
    assert table.flags()[other] == (True, False, True)
    assert engine.seat_of(table.state, f"p{other}") == other  # the seat stays its player's
    assert engine.legal(table.state, other, False) == []
    table.refused(Leave(), other, IllegalMove)
    table.send(CapReached())
    assert engine.is_terminal(table.state)
    table.refused(Leave(), waiting, GameOver)
    table.refused(TimeOut(seat=waiting), None, IllegalMove)
