"""Thirty-One's `max_circuits` (docs/rules.md): a new table allows 20 full circuits without a show,
then the player on turn may only show; a table that asks for none (null) plays on."""

from __future__ import annotations

import pytest

from kronikas_rules import thirty_one as t
from kronikas_rules.common import IllegalMove, NotYourTurn
from kronikas_rules.randomness import SeededRandomness

from .helpers import dealt, given, h, lobby

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
TABLE = h("AL KL 8A")


def _table(options: t.ThirtyOneOptions) -> list[t.Event]:
    """Three players, the dealer (seat 2) kept: seat 0 is on turn."""
    return [
        *lobby(3, options),
        dealt(HANDS, TABLE, dealer=2, n=3),
        t.ThirtyOneHandKept(seat=2, turn=0),
    ]


def _stubborn(state: t.Turns, seat: int, passed: set[int]) -> t.Command:
    """A seat that never shows: it passes, or swaps when its last turn was a pass."""
    if seat in passed:
        hand, table = state.deal.hands[seat], state.deal.table
        assert hand is not None
        return t.Swap(give=hand[0], take=table[0])
    return t.Pass()


def _circuits(history: list[t.Event], circuits: int) -> tuple[t.State, list[t.Event]]:
    """The stubborn seats' turns, move by move, for this many full circuits."""
    rng = SeededRandomness(0)
    state = given(*history).state
    passed: set[int] = set()
    for _ in range(3 * circuits):
        assert isinstance(state, t.Turns)
        seat = state.turn
        assert {"swap", "pass", "show"} <= set(t.legal(state, seat)) or seat in passed
        assert [t.legal(state, other) for other in range(3) if other != seat] == [["leave"]] * 2
        command = _stubborn(state, seat, passed)
        (passed.discard if seat in passed else passed.add)(seat)
        for event in t.decide(state, command, seat, rng):
            history = [*history, event]
            state = t.evolve(state, event)
    return state, history


def test_a_new_table_allows_twenty_circuits() -> None:
    assert t.ThirtyOneOptions().max_circuits == 20


def test_seats_that_only_pass_or_swap_must_show_after_twenty_circuits() -> None:
    state, history = _circuits(_table(t.ThirtyOneOptions()), 20)
    assert isinstance(state, t.Turns) and state.turn == 0 and state.turns == 60
    assert [t.legal(state, seat) for seat in range(3)] == [["show", "leave"], ["leave"], ["leave"]]
    hand = state.deal.hands[0]
    assert hand is not None
    for command in (t.Pass(), t.Swap(give=hand[0], take=state.deal.table[0]), t.SwapAll()):
        given(*history).when(command, 0).raises(IllegalMove, match="After 20 full circuits")
    given(*history).when(t.Show(), 1).raises(NotYourTurn)
    given(*history).when(t.Pass(), 2).raises(NotYourTurn)
    shown = given(*history).when(t.Show(), 0).events()
    assert len(shown) == 1 and isinstance(shown[0], t.ThirtyOneHandShown)
    assert (shown[0].seat, shown[0].hand, shown[0].turn) == (0, list(hand), 1)
    # The last circuit follows as after any show: seats 1 and 2 have one more turn each.
    after = given(*history, *shown).state
    assert isinstance(after, t.LastCircuit) and t.legal(after, 1)[-2:] == ["pass", "leave"]


@pytest.mark.parametrize("circuits", [3, 100])
def test_the_limit_is_the_tables(circuits: int) -> None:
    state, _ = _circuits(_table(t.ThirtyOneOptions(max_circuits=circuits)), circuits)
    assert isinstance(state, t.Turns) and t.legal(state, 0) == ["show", "leave"]


def test_a_table_that_asks_for_no_limit_plays_on() -> None:
    state, _ = _circuits(_table(t.ThirtyOneOptions(max_circuits=None)), 101)
    assert isinstance(state, t.Turns) and state.turns == 303
    assert state.turn is not None and {"swap", "show"} <= set(t.legal(state, state.turn))
