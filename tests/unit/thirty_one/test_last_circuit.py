"""docs/rules.md, Thirty-One, "The last circuit", and three Aces within it."""

from __future__ import annotations

from kronikas_rules import thirty_one as t
from kronikas_rules.common import IllegalMove, NotYourTurn
from tests.unit.thirty_one.helpers import dealt, given, h, lobby, opens

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B"), 3: h("AA 7A 8A")}
TABLE = h("AB KL 8H")
DEAL = dealt(HANDS, TABLE, dealer=3, n=4)


def shown(deal: t.ThirtyOneRoundDealt) -> list[t.Event]:
    """Four players, dealer 3: seat 0 passes, seat 1 shows; the last circuit is 2, 3, 0."""
    return [
        *lobby(4),
        deal,
        t.ThirtyOneHandKept(seat=3, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOneHandShown(seat=1, hand=h("AH KH 7L"), turn=2),
    ]


SHOWN = shown(DEAL)


def test_after_a_show_the_next_player_has_a_last_turn() -> None:
    state = given(*SHOWN).state
    assert isinstance(state, t.LastCircuit)
    assert state.turn == 2
    assert t.legal(state, 2) == ["swap", "pass", "leave"]


def test_the_showers_hand_is_frozen() -> None:
    given(*SHOWN).when(t.Swap(give="7L", take="AB"), 1).raises(NotYourTurn, match="shown")
    given(*SHOWN).when(t.Pass(), 1).raises(NotYourTurn)
    assert t.legal(given(*SHOWN).state, 1) == ["leave"]


def test_each_other_player_has_exactly_one_turn_ending_with_the_one_before_the_shower() -> None:
    history = [*SHOWN, t.ThirtyOnePassed(seat=2, turn=3)]
    given(*history).when(t.Pass(), 2).raises(NotYourTurn, match="seat 3's last turn")
    given(*history).when(t.Pass(), 0).raises(NotYourTurn)
    given(*history).when(t.Pass(), 3).then([t.ThirtyOnePassed(seat=3, turn=0)])
    history.append(t.ThirtyOnePassed(seat=3, turn=0))
    events = given(*history).when(t.Pass(), 0).events()
    assert events[0] == t.ThirtyOnePassed(seat=0, turn=None)
    assert events[1] == t.ThirtyOneRoundEnded(
        round=1,
        hands=[h("7H 8B 9L"), h("AH KH 7L"), h("10B UB 9B"), h("AA 7A 8A")],
        scores=[0.0, 21.0, 29.0, 26.0],
        lost_life=[0],
        out=[],
        three_aces=None,
        lives=[2, 3, 3, 3],
        openings=opens(DEAL, h("7H 8B 9L AH KH 7L 10B UB 9B AA 7A 8A")),
    )
    assert isinstance(events[2], t.ThirtyOneRoundDealt)


def test_show_is_not_a_move_of_the_last_circuit() -> None:
    given(*SHOWN).when(t.Show(), 2).raises(IllegalMove, match="not a move of the last circuit")
    assert "show" not in t.legal(given(*SHOWN).state, 2)


def test_keep_and_exchange_are_not_moves_of_the_last_circuit() -> None:
    given(*SHOWN).when(t.Keep(), 2).raises(IllegalMove)
    given(*SHOWN).when(t.Exchange(), 2).raises(IllegalMove)


def test_pass_is_always_legal_in_the_last_circuit_even_after_a_pass() -> None:
    history = [*SHOWN, t.ThirtyOnePassed(seat=2, turn=3), t.ThirtyOnePassed(seat=3, turn=0)]
    state = given(*history).state
    assert t.legal(state, 0) == ["pass", "leave"]  # seat 0 passed just before the show
    assert given(*history).when(t.Pass(), 0).events()[0] == t.ThirtyOnePassed(seat=0, turn=None)


def test_a_last_circuit_swap_to_under_21_is_refused() -> None:
    given(*SHOWN).when(t.Swap(give="10B", take="8H"), 2).raises(
        IllegalMove, match="21 or more; this one would score 0"
    )


def test_a_last_circuit_swap_to_21_or_more_shows_at_once() -> None:
    state = (
        given(*SHOWN)
        .when(t.Swap(give="9B", take="AB"), 2)
        .then(
            [
                t.ThirtyOneCardSwapped(
                    seat=2, give="9B", take="AB", turn=2, openings=opens(DEAL, ["9B"])
                ),
                t.ThirtyOneHandShown(
                    seat=2, hand=h("10B UB AB"), turn=3, openings=opens(DEAL, h("10B UB AB"))
                ),
            ]
        )
    )
    assert isinstance(state, t.LastCircuit)
    assert state.shower == 1
    assert state.shown == (None, ("AH", "KH", "7L"), ("10B", "UB", "AB"), None)
    assert t.legal(state, 3) == ["pass", "leave"]  # no swap brings AA 7A 8A to 21


def test_a_last_circuit_swap_all_needs_21_and_shows_at_once() -> None:
    given(*SHOWN).when(t.SwapAll(), 2).raises(IllegalMove, match="at least 21")
    rich = dealt(HANDS, h("AB KB 8H"), dealer=3, n=4)
    given(*shown(rich)).when(t.SwapAll(), 2).then(
        [
            t.ThirtyOneHandsSwapped(
                seat=2, table=h("10B UB 9B"), turn=2, openings=opens(rich, h("10B UB 9B"))
            ),
            t.ThirtyOneHandShown(
                seat=2, hand=h("AB KB 8H"), turn=3, openings=opens(rich, h("AB KB 8H"))
            ),
        ]
    )


def test_a_last_circuit_swap_by_the_player_before_the_shower_ends_the_round() -> None:
    history = [*SHOWN, t.ThirtyOnePassed(seat=2, turn=3), t.ThirtyOnePassed(seat=3, turn=0)]
    # seat 0 (7H 8B 9L) cannot reach 21 with AB KL 8H: only pass
    assert t.legal(given(*history).state, 0) == ["pass", "leave"]
    rich = dealt({**HANDS, 0: h("7H KB 9L")}, TABLE, dealer=3, n=4)
    history = [*shown(rich), t.ThirtyOnePassed(seat=2, turn=3), t.ThirtyOnePassed(seat=3, turn=0)]
    events = given(*history).when(t.Swap(give="7H", take="AB"), 0).events()
    assert events[:2] == [
        t.ThirtyOneCardSwapped(seat=0, give="7H", take="AB", turn=0, openings=opens(rich, ["7H"])),
        t.ThirtyOneHandShown(
            seat=0, hand=h("AB KB 9L"), turn=None, openings=opens(rich, h("AB KB 9L"))
        ),
    ]
    ended = events[2]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.scores == [21.0, 21.0, 29.0, 26.0]
    assert ended.lost_life == [0, 1]


def test_three_aces_in_the_last_circuit_win_and_cost_the_shower_a_life() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("10H KH 7L"), 2: h("AB AL 9B"), 3: h("KA 7A 8A")}
    deal = dealt(hands, h("AA KL 8H"), dealer=3, n=4)
    history = [
        *lobby(4),
        deal,
        t.ThirtyOneHandKept(seat=3, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOneHandShown(seat=1, hand=h("10H KH 7L"), turn=2),
    ]
    events = given(*history).when(t.Swap(give="9B", take="AA"), 2).events()
    assert events[:3] == [
        t.ThirtyOneCardSwapped(seat=2, give="9B", take="AA", turn=2, openings=opens(deal, ["9B"])),
        t.ThirtyOneHandShown(
            seat=2, hand=h("AB AL AA"), turn=None, openings=opens(deal, h("AB AL AA"))
        ),
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[None, None, h("AB AL AA"), None],
            scores=[None, None, 33.0, None],
            lost_life=[0, 1, 3],
            out=[],
            three_aces=2,
            lives=[2, 2, 3, 2],
            openings=opens(deal, h("AB AL AA")),
        ),
    ]
    assert isinstance(events[3], t.ThirtyOneRoundDealt)
    assert events[3].dealer == 0


def test_three_aces_by_a_swap_in_the_turns_win_at_once() -> None:
    hands = {0: h("AB AL 9B"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    deal = dealt(hands, h("AA KL 8H"), dealer=2, n=3)
    history = [*lobby(3), deal, t.ThirtyOneHandKept(seat=2, turn=0)]
    events = given(*history).when(t.Swap(give="9B", take="AA"), 0).events()
    assert events[:2] == [
        t.ThirtyOneCardSwapped(
            seat=0, give="9B", take="AA", turn=None, openings=opens(deal, ["9B"])
        ),
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[h("AB AL AA"), None, None],
            scores=[33.0, None, None],
            lost_life=[1, 2],
            out=[],
            three_aces=0,
            lives=[3, 2, 2],
            openings=opens(deal, h("AB AL AA")),
        ),
    ]
    assert isinstance(events[2], t.ThirtyOneRoundDealt)


def test_three_aces_by_swap_all_taking_them_from_the_table() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    deal = dealt(hands, h("AA AB AL"), dealer=2, n=3)
    history = [*lobby(3), deal, t.ThirtyOneHandKept(seat=2, turn=0)]
    events = given(*history).when(t.SwapAll(), 0).events()
    assert events[:2] == [
        t.ThirtyOneHandsSwapped(
            seat=0, table=h("7H 8B 9L"), turn=None, openings=opens(deal, h("7H 8B 9L"))
        ),
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[h("AA AB AL"), None, None],
            scores=[33.0, None, None],
            lost_life=[1, 2],
            out=[],
            three_aces=0,
            lives=[3, 2, 2],
            openings=opens(deal, h("AA AB AL")),
        ),
    ]
    assert isinstance(events[2], t.ThirtyOneRoundDealt)


def test_three_aces_with_the_chronicler() -> None:
    hands = {0: h("AB XC 9B"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    deal = dealt(hands, h("AA KL 8H"), dealer=2, n=3, chronicler=True)
    options = t.ThirtyOneOptions(chronicler=True)
    history = [*lobby(3, options), deal, t.ThirtyOneHandKept(seat=2, turn=0)]
    events = given(*history).when(t.Swap(give="9B", take="AA"), 0).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.three_aces == 0
    assert ended.hands[0] == h("AB XC AA")
