"""docs/rules.md, Thirty-One, "The dealer's choice", and three Aces around the deal."""

from __future__ import annotations

from kronikas_rules import thirty_one as t
from kronikas_rules.common import IllegalMove, NotYourTurn, Start
from tests.unit.thirty_one.helpers import Stacked, arrange, dealt, given, h, lobby, opens

HANDS = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}
TABLE = h("AL KL 8A")
DEAL = dealt(HANDS, TABLE, dealer=2, n=3)
HISTORY = [*lobby(3), DEAL]


def test_the_dealer_is_on_turn_first_to_keep_or_exchange() -> None:
    state = given(*HISTORY).state
    assert isinstance(state, t.DealerChoice)
    assert t.legal(state, 2) == ["keep", "exchange", "leave"]
    assert t.legal(state, 0) == ["leave"]
    assert t.view(state, 2, "g", 4).turn == 2


def test_the_dealer_keeps_and_the_seat_after_the_dealer_starts() -> None:
    state = given(*HISTORY).when(t.Keep(), 2).then([t.ThirtyOneHandKept(seat=2, turn=0)])
    assert isinstance(state, t.Turns)
    assert state.turn == 0
    assert state.deal.hands[2] == ("10B", "UB", "9B")


def test_the_dealer_exchanges_the_whole_hand_with_the_table() -> None:
    state = (
        given(*HISTORY)
        .when(t.Exchange(), 2)
        .then(
            [
                t.ThirtyOneHandExchanged(
                    seat=2, table=h("10B UB 9B"), turn=0, openings=opens(DEAL, HANDS[2])
                )
            ]
        )
    )
    assert isinstance(state, t.Turns)
    assert state.deal.hands[2] == tuple(TABLE)
    assert state.deal.table == ("10B", "UB", "9B")


def test_only_the_dealer_chooses() -> None:
    given(*HISTORY).when(t.Keep(), 0).raises(NotYourTurn, match="dealer")
    given(*HISTORY).when(t.Swap(give="7H", take="AL"), 0).raises(NotYourTurn)


def test_the_dealer_must_keep_or_exchange_before_any_other_move() -> None:
    for command in (t.Swap(give="10B", take="AL"), t.SwapAll(), t.Pass(), t.Show()):
        given(*HISTORY).when(command, 2).raises(IllegalMove, match="keep or exchange")


def test_keep_and_exchange_only_before_the_first_turn() -> None:
    after_keep = [*HISTORY, t.ThirtyOneHandKept(seat=2, turn=0)]
    given(*after_keep).when(t.Keep(), 0).raises(IllegalMove, match="dealer's choice")
    given(*after_keep).when(t.Exchange(), 0).raises(IllegalMove, match="dealer's choice")


def test_the_dealers_keep_is_not_a_pass() -> None:
    history = [
        *HISTORY,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
    ]
    assert "pass" in t.legal(given(*history).state, 2)
    given(*history).when(t.Pass(), 2).then([t.ThirtyOnePassed(seat=2, turn=0)])


def test_three_aces_from_the_deal_win_before_the_dealers_choice() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("AH AB AL"), 2: h("10B UB 9B")}
    table = h("KL OL 8A")
    next_hands = {0: h("7H 8H 9H"), 1: h("7B 8B 9B"), 2: h("7L 8L 9L")}
    next_table = h("KA OA UA")
    rng = Stacked(
        {
            1: arrange(hands, table, dealer=2, n=3),
            2: arrange(next_hands, next_table, dealer=0, n=3),
        },
        dealer=2,
    )
    first = dealt(hands, table, dealer=2, n=3)
    state = (
        given(*lobby(3))
        .when(Start(), None, rng)
        .then(
            [
                first,
                t.ThirtyOneRoundEnded(
                    round=1,
                    hands=[None, h("AH AB AL"), None],
                    scores=[None, 33.0, None],
                    lost_life=[0, 2],
                    out=[],
                    three_aces=1,
                    lives=[2, 3, 2],
                    openings=opens(first, h("AH AB AL")),
                ),
                dealt(next_hands, next_table, dealer=0, n=3, round=2),
            ]
        )
    )
    assert isinstance(state, t.DealerChoice)
    assert state.match.lives == (2, 3, 2)
    assert state.match.dealer == 0


def test_three_aces_from_the_deal_win_for_the_dealer_too() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("10B UB 9B"), 2: h("AH AB AL")}
    rng = Stacked(
        {1: arrange(hands, h("KL OL 8A"), dealer=2, n=3), 2: arrange(HANDS, TABLE, dealer=0, n=3)},
        dealer=2,
    )
    events = given(*lobby(3)).when(Start(), None, rng).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.three_aces == 2
    assert ended.lost_life == [0, 1]


def test_three_aces_on_the_table_count_for_nobody_until_taken() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("AA KH 7L"), 2: h("10B UB 9B")}
    table = h("AH AB AL")
    rng = Stacked({1: arrange(hands, table, dealer=2, n=3)}, dealer=2)
    state = given(*lobby(3)).when(Start(), None, rng).then([dealt(hands, table, dealer=2, n=3)])
    assert isinstance(state, t.DealerChoice)
    state = (
        given(*lobby(3), dealt(hands, table, dealer=2, n=3))
        .when(t.Keep(), 2)
        .then([t.ThirtyOneHandKept(seat=2, turn=0)])
    )
    assert isinstance(state, t.Turns)
    assert "swap_all" in t.legal(state, 0)


def test_three_aces_taken_by_the_dealers_exchange_win_at_once() -> None:
    table = h("AH AB AA")
    hands = {0: h("7H 8B 9L"), 1: h("AL KH 7L"), 2: h("10B UB 9B")}
    deal = dealt(hands, table, dealer=2, n=3)
    events = given(*lobby(3), deal).when(t.Exchange(), 2).events()
    assert events[0] == t.ThirtyOneHandExchanged(
        seat=2, table=h("10B UB 9B"), turn=None, openings=opens(deal, h("10B UB 9B"))
    )
    assert events[1] == t.ThirtyOneRoundEnded(
        round=1,
        hands=[None, None, h("AH AB AA")],
        scores=[None, None, 33.0],
        lost_life=[0, 1],
        out=[],
        three_aces=2,
        lives=[2, 2, 3],
        openings=opens(deal, h("AH AB AA")),
    )
    assert isinstance(events[2], t.ThirtyOneRoundDealt)
    assert events[2].round == 2
    assert events[2].dealer == 0
