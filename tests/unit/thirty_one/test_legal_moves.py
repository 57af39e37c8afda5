"""`legal_moves`: every concrete command a seat may send now, phase by phase (OpenSpiel's
`legal_actions`); test_properties checks on random matches that `decide` accepts exactly these."""

from __future__ import annotations

import pytest

from kronikas_rules import thirty_one as t
from kronikas_rules.seating import Leave, PlayerJoined
from tests.unit.thirty_one.helpers import dealt, given, h, lobby

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
RICH_TABLE = h("AL KL 8A")  # scores 21
POOR_TABLE = h("7A 8H KB")  # scores 0


def turns(
    table: list[str] = RICH_TABLE, options: t.ThirtyOneOptions | None = None
) -> list[t.Event]:
    """Three players, dealer 2 kept: seat 0 is on turn."""
    return [
        *lobby(3, options),
        dealt(HANDS, table, dealer=2, n=3),
        t.ThirtyOneHandKept(seat=2, turn=0),
    ]


def test_in_the_lobby_a_player_may_only_leave() -> None:
    state = given(*lobby(3)).state
    assert [t.legal_moves(state, seat) for seat in range(4)] == [[Leave()]] * 3 + [[]]


def test_the_dealer_keeps_or_exchanges_and_nobody_else_moves() -> None:
    state = given(*lobby(3), dealt(HANDS, RICH_TABLE, dealer=2, n=3)).state
    assert t.legal_moves(state, 2) == [t.Keep(), t.Exchange(), Leave()]
    assert t.legal_moves(state, 0) == t.legal_moves(state, 1) == [Leave()]


def test_on_a_turn_every_swap_of_a_hand_card_for_a_table_card_then_swap_all_pass_show() -> None:
    state = given(*turns()).state
    swaps = [t.Swap(give=give, take=take) for give in HANDS[0] for take in RICH_TABLE]
    assert t.legal_moves(state, 0) == [*swaps, t.SwapAll(), t.Pass(), t.Show(), Leave()]
    assert t.legal_moves(state, 1) == [Leave()]


def test_no_swap_all_with_a_poor_table_and_no_pass_after_a_pass() -> None:
    history = [*turns(POOR_TABLE), t.ThirtyOnePassed(seat=0, turn=1)]
    history += [t.ThirtyOnePassed(seat=1, turn=2), t.ThirtyOnePassed(seat=2, turn=0)]
    moves = t.legal_moves(given(*history).state, 0)
    assert [type(move) for move in moves] == [t.Swap] * 9 + [t.Show, Leave]


def test_after_max_circuits_the_only_move_is_show() -> None:
    history = [
        *turns(options=t.ThirtyOneOptions(max_circuits=1)),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
    ]
    assert t.legal_moves(given(*history).state, 0) == [t.Show(), Leave()]


def test_in_the_last_circuit_only_swaps_to_21_or_more_then_pass() -> None:
    # seat 0 passed, seat 1 showed; seat 2 holds 10B UB 9B and the table is AB KL 8H: only
    # taking AB keeps the hand at 21 or more
    history = [
        *turns(h("AB KL 8H")),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOneHandShown(seat=1, hand=HANDS[1], turn=2),
    ]
    state = given(*history).state
    assert t.legal_moves(state, 2) == [
        t.Swap(give="10B", take="AB"),
        t.Swap(give="UB", take="AB"),
        t.Swap(give="9B", take="AB"),
        t.Pass(),
        Leave(),
    ]
    assert t.legal_moves(state, 1) == [Leave()]  # the shower


def test_an_event_that_cannot_follow_the_state_is_refused_as_a_corrupt_log() -> None:
    started = given(*turns()).state
    with pytest.raises(t.EventOutOfPlace, match="PlayerJoined cannot follow Turns"):
        t.evolve(started, PlayerJoined(player_id="late", name="Late", seat=3))
    with pytest.raises(t.EventOutOfPlace, match="ThirtyOneHandKept cannot follow Lobby"):
        t.evolve(given(*lobby(2)).state, t.ThirtyOneHandKept(seat=0, turn=1))
