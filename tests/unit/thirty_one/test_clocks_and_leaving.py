"""Thirty-One: clocks, leaving and the house (docs/rules.md, "Clocks, leaving and the house").

The seating every game shares (join, leave, away, back, house seats) is tested once, in
`tests/unit/test_seating.py`; here, what Thirty-One adds: its cards, its turns, its results."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from kronikas_rules import thirty_one as t
from kronikas_rules.common import IllegalMove, InvalidOptions
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import (
    Back,
    Leave,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TimeOut,
)
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.unit.thirty_one.helpers import dealt, fold, given, h, lobby, opens, run

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
TABLE = h("AL KL 8A")
CHOICE = [*lobby(3), dealt(HANDS, TABLE, dealer=2, n=3)]
"""The dealer, seat 2, keeps or exchanges."""
TURNS = [*CHOICE, t.ThirtyOneHandKept(seat=2, turn=0)]
"""Seat 0 is on turn."""
LAST = [*TURNS, t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1)]
"""Seat 0 showed: seat 1 has its last turn."""

DUEL = [
    *lobby(2, t.ThirtyOneOptions(lives=0)),
    dealt({0: h("AH KH 10H"), 1: h("7B 8L 9A")}, h("7H 8H 9L"), dealer=1, n=2),
]
"""Two players, no lives to spare: the dealer, seat 1, chooses; whoever scores less is out."""
OVER = [*DUEL, *run(DUEL, [(1, t.Keep()), (0, t.Show()), (1, t.Pass())])[1]]
"""Seat 0 won the match."""


def with_event(history: list[Any], *events: Any) -> list[Any]:
    return [*history, *events]


def left(history: list[Any], seat: int) -> list[Any]:
    return [*history, PlayerLeft(seat=seat, player_id=f"p{seat}", started=True)]


# --- leaving ------------------------------------------------------------------------------------


def test_leaving_after_the_start_keeps_the_seat_for_the_house() -> None:
    state = given(*CHOICE).when(Leave(), 1).then([PlayerLeft(seat=1, player_id="p1", started=True)])
    assert isinstance(state, t.DealerChoice)
    assert state.match.seats[1].left and state.deal.hands[1] == tuple(HANDS[1])
    assert t.house_seats(state) == {1}
    player = t.view(state, None, "g", 5).players[1]
    assert (player.house, player.away, player.left, player.hand_size) == (True, False, True, 3)


def test_the_house_makes_the_dealers_choice_for_a_dealer_who_left() -> None:
    history = left(CHOICE, 2)
    state = fold(history)
    assert t.waiting_for(state) == 2
    assert t.legal(state, 2) == []
    assert t.legal(state, 2, by_house=True) == ["keep", "exchange"]
    given(*history).when(t.Keep(), 2, by_house=True).then([t.ThirtyOneHandKept(seat=2, turn=0)])


def test_a_seat_that_left_counts_its_results_as_usual() -> None:
    state, _ = run(left(DUEL, 0), [(1, t.Keep())])
    rng = SeededRandomness(0)
    for event in t.decide(state, t.Show(), 0, rng, by_house=True):  # the house shows for seat 0
        state = t.evolve(state, event)
    events = t.decide(state, t.Pass(), 1, rng)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert (ended.scores, ended.lost_life, ended.out) == ([31.0, 0.0], [1], [1])
    assert events[-1] == t.ThirtyOneMatchEnded(winners=[0])


def test_any_command_from_a_seat_that_left_is_an_illegal_move() -> None:
    history = left(TURNS, 0)  # seat 0 is on turn
    for command in (t.Swap(give="7H", take="AL"), t.Pass(), t.Show(), t.Keep(), Leave(), Back()):
        given(*history).when(command, 0).raises(IllegalMove)
    history = left(TURNS, 1)  # not on turn: still illegal, not out of turn
    given(*history).when(t.Pass(), 1).raises(IllegalMove, match="left")
    assert t.legal(fold(history), 1) == t.legal_moves(fold(history), 1) == []


def test_a_seat_that_left_still_reads_its_hand_with_nothing_legal() -> None:
    seen = t.view(fold(left(TURNS, 1)), 1, "g", 6)
    assert seen.me is not None and seen.me.hand == HANDS[1]
    assert seen.legal == []
    assert seen.players[1].left and seen.players[1].house
    # the seat as the house plays it: what it may choose there
    assert t.view(fold(left(TURNS, 0)), 0, "g", 6, by_house=True).legal == [
        "swap",
        "swap_all",
        "pass",
        "show",
    ]
    assert t.view(fold(TURNS), 0, "g", 5, by_house=True).legal == []


def test_a_player_who_is_out_may_still_leave() -> None:
    history = [
        *lobby(3),
        dealt({0: HANDS[0], 2: HANDS[2]}, TABLE, dealer=2, n=3, out=[1]),
    ]
    state = fold(history)
    state = t.evolve(state, t.ThirtyOneHandKept(seat=2, turn=0))
    assert t.legal(state, 1) == ["leave"]


# --- the clock runs out -------------------------------------------------------------------------


def test_time_out_makes_the_seat_away_and_the_house_plays_it() -> None:
    state = given(*TURNS).when(TimeOut(seat=0), None).then([SeatAway(seat=0)])
    assert t.house_seats(state) == {0}
    player = t.view(state, None, "g", 6).players[0]
    assert (player.house, player.away, player.left) == (False, True, False)
    given(*TURNS, SeatAway(seat=0)).when(t.Show(), 0, by_house=True).then(
        [t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1, openings=opens(CHOICE[-1], HANDS[0]))]
    )


def test_an_away_player_may_also_just_play_on() -> None:
    given(*TURNS, SeatAway(seat=0)).when(t.Pass(), 0).then([t.ThirtyOnePassed(seat=0, turn=1)])


# --- the clock's seat ---------------------------------------------------------------------------


def test_waiting_for_is_the_dealer_then_the_player_on_turn_and_nobody_outside_a_round() -> None:
    assert t.waiting_for(fold(lobby(3))) is None
    assert t.waiting_for(fold(CHOICE)) == 2
    assert t.waiting_for(fold(TURNS)) == 0
    assert t.waiting_for(fold(LAST)) == 1
    assert t.waiting_for(fold(OVER)) is None
    cut = next(i for i, e in enumerate(OVER) if isinstance(e, t.ThirtyOneRoundEnded)) + 1
    between = fold(OVER[:cut])
    assert isinstance(between, t.RoundOver)
    assert t.waiting_for(between) is None


# --- the view's deadline, the options and old logs ----------------------------------------------


def test_the_view_places_the_deadline_it_is_given() -> None:
    at = "2026-11-29T17:09:36.123Z"
    for history in (lobby(2), TURNS, OVER):
        assert t.view(fold(history), 0, "g", 5).deadline is None
        assert t.view(fold(history), None, "g", 5, deadline=at).deadline == at


@pytest.mark.parametrize("seconds", [None, 5, 60, 86_400])
def test_turn_seconds_from_five_to_a_day_or_none_are_accepted(seconds: int | None) -> None:
    THIRTY_ONE.validate_options(t.ThirtyOneOptions(turn_seconds=seconds))
    assert msgspec.convert({"turn_seconds": seconds}, t.ThirtyOneOptions).turn_seconds == seconds


@pytest.mark.parametrize("seconds", [4, 0, -5, 86_401])
def test_turn_seconds_outside_five_to_a_day_are_refused(seconds: int) -> None:
    with pytest.raises(InvalidOptions, match="turn_seconds"):
        THIRTY_ONE.validate_options(t.ThirtyOneOptions(turn_seconds=seconds))
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"turn_seconds": seconds}, t.ThirtyOneOptions)


def test_turn_seconds_default_to_no_clock_and_show_in_the_view() -> None:
    assert t.ThirtyOneOptions().turn_seconds is None
    assert t.ThirtyOneTableOptions.of(t.ThirtyOneOptions(turn_seconds=30)).turn_seconds == 30
    with pytest.raises(msgspec.ValidationError):  # a Thirty-One table has no house pause
        msgspec.convert({"house_pause_seconds": 3}, t.ThirtyOneOptions)


def test_a_log_written_before_the_clocks_still_loads() -> None:
    old = [
        b'{"type": "game_created", "options": {"lives": 3, "max_circuits": null,'
        b' "chronicler": false}, "seeded": false}',
        b'{"type": "player_joined", "player_id": "p0", "name": "Anna", "seat": 0}',
        b'{"type": "player_joined", "player_id": "p1", "name": "Bence", "seat": 1}',
    ]
    decoder = msgspec.json.Decoder(t.Event)
    events = [decoder.decode(line) for line in old]
    assert events[1] == PlayerJoined(player_id="p0", name="Anna", seat=0, house=False)
    state = fold(events)
    assert isinstance(state, t.Lobby)
    assert state.match.options == t.ThirtyOneOptions(max_circuits=None)  # as stored: no limit
    assert t.house_seats(state) == frozenset()
    assert [p.house for p in t.view(state, None, "g", 3).players] == [False, False]


def test_the_new_events_and_commands_round_trip_and_hide_nothing() -> None:
    decoder = msgspec.json.Decoder(t.Event)
    for event in (
        PlayerLeft(seat=1, player_id="p1", started=False),
        SeatAway(seat=0),
        SeatBack(seat=0),
        PlayerJoined(player_id="h", name="House", seat=2, house=True),
    ):
        assert decoder.decode(msgspec.json.encode(event)) == event
        for viewer in (None, 0, 1):
            assert t.redact(event, viewer) is event


def test_an_event_of_the_wrong_seat_or_phase_is_refused_as_a_corrupt_log() -> None:
    with pytest.raises(t.EventOutOfPlace):
        fold([*lobby(2), PlayerLeft(seat=1, player_id="p0", started=False)])
    with pytest.raises(t.EventOutOfPlace):
        fold([*lobby(2), PlayerLeft(seat=1, player_id="p1", started=True)])
    with pytest.raises(t.EventOutOfPlace):
        fold([*lobby(2), SeatAway(seat=0)])
    with pytest.raises(t.EventOutOfPlace):
        fold([*TURNS, SeatAway(seat=5)])
