"""docs/rules.md, Thirty-One, "A turn": swap, swap_all, pass, show, and max_circuits."""

from __future__ import annotations

from kronikas_rules import thirty_one as t
from kronikas_rules.common import IllegalMove, NotYourTurn
from tests.unit.thirty_one.helpers import dealt, given, h, lobby, opens

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
RICH_TABLE = h("AL KL 8A")  # scores 21
POOR_TABLE = h("7A 8H KB")  # scores 0


def deal(table: list[str] = RICH_TABLE) -> t.ThirtyOneRoundDealt:
    """The round's deal: dealer 2, these hands and this table."""
    return dealt(HANDS, table, dealer=2, n=3)


def turns(
    table: list[str] = RICH_TABLE, options: t.ThirtyOneOptions | None = None
) -> list[t.Event]:
    """Three players, dealer 2 kept: seat 0 is on turn."""
    return [
        *lobby(3, options),
        deal(table),
        t.ThirtyOneHandKept(seat=2, turn=0),
    ]


def test_on_a_turn_a_player_may_swap_swap_all_pass_or_show() -> None:
    assert t.legal(given(*turns()).state, 0) == ["swap", "swap_all", "pass", "show", "leave"]


def test_swap_exchanges_one_hand_card_with_one_table_card() -> None:
    state = (
        given(*turns())
        .when(t.Swap(give="8B", take="KL"), 0)
        .then(
            [
                t.ThirtyOneCardSwapped(
                    seat=0, give="8B", take="KL", turn=1, openings=opens(deal(), ["8B"])
                )
            ]
        )
    )
    assert isinstance(state, t.Turns)
    assert state.deal.hands[0] == ("7H", "KL", "9L")
    assert state.deal.table == ("AL", "8B", "8A")
    assert state.turn == 1


def test_swap_needs_a_card_of_the_hand_and_a_card_of_the_table() -> None:
    given(*turns()).when(t.Swap(give="AH", take="KL"), 0).raises(
        IllegalMove, match="AH is not in your hand"
    )
    given(*turns()).when(t.Swap(give="8B", take="KH"), 0).raises(
        IllegalMove, match="KH is not on the table"
    )
    given(*turns()).when(t.Swap(give="AL", take="7H"), 0).raises(IllegalMove)


def test_swap_all_exchanges_hand_and_table_when_the_table_scores_21_or_more() -> None:
    state = (
        given(*turns())
        .when(t.SwapAll(), 0)
        .then(
            [
                t.ThirtyOneHandsSwapped(
                    seat=0, table=h("7H 8B 9L"), turn=1, openings=opens(deal(), HANDS[0])
                )
            ]
        )
    )
    assert isinstance(state, t.Turns)
    assert state.deal.hands[0] == tuple(RICH_TABLE)
    assert state.deal.table == ("7H", "8B", "9L")


def test_swap_all_is_refused_with_a_table_under_21() -> None:
    given(*turns(POOR_TABLE)).when(t.SwapAll(), 0).raises(IllegalMove, match="at least 21")
    assert "swap_all" not in t.legal(given(*turns(POOR_TABLE)).state, 0)


def test_a_second_pass_in_a_row_is_refused() -> None:
    history = [
        *turns(),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
    ]
    given(*history).when(t.Pass(), 0).raises(IllegalMove, match="passed on your previous turn")
    assert t.legal(given(*history).state, 0) == ["swap", "swap_all", "show", "leave"]


def test_pass_swap_pass_is_fine() -> None:
    history = [
        *turns(),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
        t.ThirtyOneCardSwapped(seat=0, give="8B", take="KL", turn=1),
        t.ThirtyOneCardSwapped(seat=1, give="7L", take="8B", turn=2),
        t.ThirtyOneCardSwapped(seat=2, give="9B", take="AL", turn=0),
    ]
    given(*history).when(t.Pass(), 0).then([t.ThirtyOnePassed(seat=0, turn=1)])


def test_a_swap_all_also_clears_a_previous_pass() -> None:
    history = [
        *turns(),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
        t.ThirtyOneHandsSwapped(seat=0, table=h("7H 8B 9L"), turn=1),
        t.ThirtyOneCardSwapped(seat=1, give="7L", take="8B", turn=2),
        t.ThirtyOneCardSwapped(seat=2, give="9B", take="7H", turn=0),
    ]
    given(*history).when(t.Pass(), 0).then([t.ThirtyOnePassed(seat=0, turn=1)])


def test_show_is_allowed_on_the_first_turn_and_starts_the_last_circuit() -> None:
    state = (
        given(*turns())
        .when(t.Show(), 0)
        .then(
            [
                t.ThirtyOneHandShown(
                    seat=0, hand=h("7H 8B 9L"), turn=1, openings=opens(deal(), HANDS[0])
                )
            ]
        )
    )
    assert isinstance(state, t.LastCircuit)
    assert state.shower == 0
    view = t.view(state, None, "g", 6)
    assert view.thirty_one is not None
    assert view.thirty_one.phase == "last_circuit"
    assert view.thirty_one.shown_by == 0
    assert view.thirty_one.shown == [h("7H 8B 9L"), None, None]


def test_show_is_allowed_whatever_the_hand_scores() -> None:
    assert t.score(HANDS[0]) == 0
    given(*turns()).when(t.Show(), 0).then(
        [t.ThirtyOneHandShown(seat=0, hand=HANDS[0], turn=1, openings=opens(deal(), HANDS[0]))]
    )


def test_only_the_player_on_turn_may_act() -> None:
    for seat in (1, 2):
        given(*turns()).when(t.Pass(), seat).raises(NotYourTurn, match="seat 0's turn")
        assert t.legal(given(*turns()).state, seat) == ["leave"]
    given(*turns()).when(t.Pass(), None).raises(NotYourTurn)
    given(*turns()).when(t.Pass(), 3).raises(NotYourTurn)


def test_thirty_one_does_not_end_the_turns() -> None:
    history = [*turns(h("10H 9A 8A")), t.ThirtyOnePassed(seat=0, turn=1)]
    state = (
        given(*history)
        .when(t.Swap(give="7L", take="10H"), 1)
        .then(
            [
                t.ThirtyOneCardSwapped(
                    seat=1,
                    give="7L",
                    take="10H",
                    turn=2,
                    openings=opens(deal(h("10H 9A 8A")), ["7L"]),
                )
            ]
        )
    )
    assert isinstance(state, t.Turns)
    assert t.score(state.deal.hands[1]) == 62
    assert state.turn == 2
    assert t.legal(state, 2) == ["swap", "pass", "show", "leave"]


def test_max_circuits_forces_a_show_after_that_many_full_circuits() -> None:
    options = t.ThirtyOneOptions(max_circuits=1)
    history = [
        *turns(options=options),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOneCardSwapped(seat=1, give="7L", take="8A", turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),
    ]
    state = given(*history).state
    assert t.legal(state, 0) == ["show", "leave"]
    for command in (t.Swap(give="7H", take="AL"), t.SwapAll(), t.Pass()):
        given(*history).when(command, 0).raises(IllegalMove, match="only show")
    given(*history).when(t.Show(), 0).then(
        [t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1, openings=opens(deal(), HANDS[0]))]
    )


def test_circuits_count_from_the_first_turn_after_the_dealers_choice() -> None:
    options = t.ThirtyOneOptions(max_circuits=2)
    history = [
        *turns(options=options),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
        t.ThirtyOnePassed(seat=2, turn=0),  # one circuit: the dealer's keep is not a turn
        t.ThirtyOneCardSwapped(seat=0, give="8B", take="KL", turn=1),
        t.ThirtyOneCardSwapped(seat=1, give="7L", take="8B", turn=2),
    ]
    state = given(*history).state
    assert t.legal(state, 2) == ["swap", "show", "leave"]  # seat 2 passed last time
    view = t.view(state, 2, "g", 9)
    assert view.thirty_one is not None
    assert view.thirty_one.circuit == 2
    state = given(*history, t.ThirtyOneCardSwapped(seat=2, give="9B", take="7L", turn=0)).state
    assert t.legal(state, 0) == ["show", "leave"]
    assert t.legal(state, 1) == ["leave"]


def test_the_view_lists_who_passed_last_turn() -> None:
    state = given(*turns(), t.ThirtyOnePassed(seat=0, turn=1)).state
    view = t.view(state, 1, "g", 6)
    assert view.thirty_one is not None
    assert view.thirty_one.passed == [0]
    assert view.thirty_one.phase == "turns"
