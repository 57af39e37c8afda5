"""A sentence-by-sentence review of docs/rules.md's Thirty-One: rules no other test pins down.

Each test is named by the rule it checks. Most build a table in a chosen state from events (evolve
only assigns, so a round in which a seat went out can be written down directly).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from kronikas_rules import thirty_one as t
from kronikas_rules.cards import Card
from kronikas_rules.common import DeckRevealed, IllegalMove, NotYourTurn, Start
from tests.unit.thirty_one.helpers import (
    Stacked,
    arrange,
    dealt,
    fold,
    given,
    h,
    lobby,
    opens,
    order_of,
    revealed,
    run,
)

FOUR = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B"), 3: h("KA 7A 8A")}
LOSER, MIDDLE, BEST = h("7H 8B 9L"), h("AA KA 7A"), h("AB KB OB")


def seat_out(
    n: int,
    out: Sequence[int],
    lives: Sequence[int],
    hands: Mapping[int, Sequence[Card]],
    table: Sequence[Card],
    dealer: int,
    options: t.ThirtyOneOptions | None = None,
) -> list[t.Event]:
    """A table whose round 1 (dealt before deals were committed card by card) put `out` out,
    now at round 2's deal (dealer `dealer`)."""
    assert n <= 4
    first = dealt(
        {s: FOUR[s] for s in range(n)}, h("OH OB OL"), dealer=(dealer - 1) % n, n=n, old=True
    )
    return [
        *lobby(n, options),
        first,
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[None] * n,
            scores=[None] * n,
            lost_life=list(out),
            out=list(out),
            three_aces=None,
            lives=list(lives),
        ),
        revealed(first),
        dealt(hands, table, dealer=dealer, n=n, round=2, out=out),
    ]


# Players who are out are skipped in everything: the deal, the turns, the dealer's seat.

OUT_HANDS = {0: h("7H 8B 9L"), 2: h("10B UB 9B"), 3: h("KA 7A 8A")}
OUT_TABLE = h("AB KL 8H")


def test_out_players_are_skipped_in_the_last_circuit_which_ends_before_the_shower() -> None:
    # seat 1 is out; dealer 3: the order is 0, 2, 3
    history = [
        *seat_out(4, [1], [1, 0, 2, 1], OUT_HANDS, OUT_TABLE, dealer=3),
        t.ThirtyOneHandKept(seat=3, turn=0),
        t.ThirtyOnePassed(seat=0, turn=2),
    ]
    deal = dealt(OUT_HANDS, OUT_TABLE, dealer=3, n=4, round=2, out=[1])
    shown = opens(deal, h("10B UB 9B"))
    state = (
        given(*history)
        .when(t.Show(), 2)
        .then([t.ThirtyOneHandShown(seat=2, hand=h("10B UB 9B"), turn=3, openings=shown)])
    )
    assert shown[0].round == 2
    assert isinstance(state, t.LastCircuit)
    given(*history, t.ThirtyOneHandShown(seat=2, hand=h("10B UB 9B"), turn=3)).when(
        t.Pass(), 1
    ).raises(NotYourTurn, match="out of the match")
    history += [
        t.ThirtyOneHandShown(seat=2, hand=h("10B UB 9B"), turn=3),
        t.ThirtyOnePassed(seat=3, turn=0),
    ]
    # seat 0 is the player before the shower among those still in: the circuit ends with it
    events = given(*history).when(t.Pass(), 0).events()
    assert events[0] == t.ThirtyOnePassed(seat=0, turn=None)
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.hands == [h("7H 8B 9L"), None, h("10B UB 9B"), h("KA 7A 8A")]
    assert ended.scores == [0.0, None, 29.0, 25.0]
    assert ended.lost_life == [0]
    assert ended.lives == [0, 0, 2, 1]
    nxt = events[2]
    assert isinstance(nxt, t.ThirtyOneRoundDealt)
    assert nxt.dealer == 0  # after seat 3 comes seat 0
    assert nxt.seats == [2, 3, 0]  # seat 1 is dealt nothing
    assert nxt.hands[1] is None


def test_a_circuit_counts_only_the_players_still_in_the_round() -> None:
    options = t.ThirtyOneOptions(max_circuits=1)
    history = [
        *seat_out(4, [1], [1, 0, 2, 1], OUT_HANDS, OUT_TABLE, dealer=3, options=options),
        t.ThirtyOneHandKept(seat=3, turn=0),
        t.ThirtyOnePassed(seat=0, turn=2),
        t.ThirtyOnePassed(seat=2, turn=3),
    ]
    assert "pass" in t.legal(given(*history).state, 3)
    history.append(t.ThirtyOnePassed(seat=3, turn=0))
    # three turns by the three players in the round make a full circuit
    state = given(*history).state
    assert t.legal(state, 0) == ["show", "leave"]
    given(*history).when(t.Swap(give="7H", take="AB"), 0).raises(IllegalMove, match="only show")


def test_the_deal_passes_to_the_next_seat_still_in_when_the_dealer_goes_out() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: LOSER, 1: MIDDLE, 2: BEST}
    later = {1: MIDDLE, 2: BEST}
    rng = Stacked(
        {
            1: arrange(hands, h("AL KL 8A"), dealer=0, n=3),
            2: arrange(later, h("AL KL 8A"), dealer=1, n=3, out=[0]),
        },
        dealer=0,
    )
    history = [*lobby(3, options), *t.decide(fold(lobby(3, options)), Start(), None, rng)]
    moves: list[tuple[int, t.Command]] = [
        (0, t.Keep()),
        (1, t.Show()),
        (2, t.Pass()),
        (0, t.Pass()),
    ]
    state, events = run(history, moves, rng)
    ended = next(e for e in events if isinstance(e, t.ThirtyOneRoundEnded))
    assert ended.out == [0]  # the dealer of round 1 drowned
    assert events[-1] == dealt(later, h("AL KL 8A"), dealer=1, n=3, round=2, out=[0])
    assert isinstance(state, t.DealerChoice)
    assert t.legal(state, 1) == ["keep", "exchange", "leave"]
    assert t.legal(state, 0) == ["leave"]
    # the player after the dealer starts: seat 2, then seat 1; seat 0 is skipped
    state, events = run([*history, *events], [(1, t.Keep())], rng)
    assert events == [t.ThirtyOneHandKept(seat=1, turn=2)]


def test_the_deal_skips_an_out_seat_when_the_dealer_goes_out_too() -> None:
    # seat 1 is out; seat 0 deals, loses at 0 lives and drowns: the deal passes to seat 2
    hands = {0: LOSER, 2: MIDDLE, 3: BEST}
    history = [
        *seat_out(4, [1], [0, 0, 1, 1], hands, h("AL KL 8A"), dealer=0),
        t.ThirtyOneHandKept(seat=0, turn=2),
        t.ThirtyOneHandShown(seat=2, hand=MIDDLE, turn=3),
        t.ThirtyOnePassed(seat=3, turn=0),
    ]
    events = given(*history).when(t.Pass(), 0).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.out == [0]
    nxt = events[2]
    assert isinstance(nxt, t.ThirtyOneRoundDealt)
    assert nxt.dealer == 2
    assert nxt.seats == [3, 2]
    assert nxt.hands[0] is None
    assert nxt.hands[1] is None


# The dealer's choice. Before the first turn of each round, the dealer either keeps their hand or
# exchanges it whole with the table (their old hand goes face up to the table).

DEAL3 = {0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}


def test_the_dealer_may_exchange_whatever_the_table_scores() -> None:
    poor = h("7A 8H KB")
    assert t.score(poor) == 0
    deal = dealt(DEAL3, poor, dealer=2, n=3)
    state = (
        given(*lobby(3), deal)
        .when(t.Exchange(), 2)
        .then(
            [
                t.ThirtyOneHandExchanged(
                    seat=2, table=h("10B UB 9B"), turn=0, openings=opens(deal, h("10B UB 9B"))
                )
            ]
        )
    )
    view = t.view(state, 0, "g", 6)
    assert view.thirty_one is not None
    assert view.thirty_one.table == h("10B UB 9B")  # the old hand lies face up
    assert view.thirty_one.phase == "turns"
    assert view.turn == 0


def test_the_dealer_chooses_only_once_a_round() -> None:
    history = [*lobby(3), dealt(DEAL3, h("AL KL 8A"), dealer=2, n=3)]
    history.append(t.ThirtyOneHandKept(seat=2, turn=0))
    given(*history).when(t.Exchange(), 2).raises(NotYourTurn)  # seat 0 is on turn
    history += [t.ThirtyOnePassed(seat=0, turn=1), t.ThirtyOnePassed(seat=1, turn=2)]
    given(*history).when(t.Exchange(), 2).raises(IllegalMove, match="dealer's choice")
    given(*history).when(t.Keep(), 2).raises(IllegalMove, match="dealer's choice")


def test_the_dealers_choice_comes_before_the_first_turn_of_every_round() -> None:
    hands = {0: LOSER, 1: MIDDLE}
    rng = Stacked(
        {1: arrange(hands, h("AL KL 8A"), 1, 2), 2: arrange(hands, h("AL KL 8A"), 0, 2)},
        dealer=1,
    )
    history = [*lobby(2), *t.decide(fold(lobby(2)), Start(), None, rng)]
    state, events = run(history, [(1, t.Keep()), (0, t.Show()), (1, t.Pass())], rng)
    assert isinstance(state, t.DealerChoice)
    assert state.match.round == 2
    assert t.legal(state, 0) == ["keep", "exchange", "leave"]
    assert t.legal(state, 1) == ["leave"]
    given(*history, *events).when(t.Pass(), 1).raises(NotYourTurn, match="dealer")
    given(*history, *events).when(t.Show(), 0).raises(IllegalMove, match="keep or exchange")


# swap_all: legal only when the three table cards would score at least 21 as a hand (XC at best).


def test_swap_all_counts_the_chronicler_on_the_table_at_its_best() -> None:
    options = t.ThirtyOneOptions(chronicler=True)
    for table, allowed in ((h("AH 7L XC"), True), (h("7A 8H XC"), False)):
        deal = dealt(DEAL3 | {1: h("AL KL 7B")}, table, dealer=2, n=3, chronicler=True)
        history = [*lobby(3, options), deal, t.ThirtyOneHandKept(seat=2, turn=0)]
        assert ("swap_all" in t.legal(given(*history).state, 0)) is allowed
        if allowed:
            laid = opens(deal, h("7H 8B 9L"))
            given(*history).when(t.SwapAll(), 0).then(
                [t.ThirtyOneHandsSwapped(seat=0, table=h("7H 8B 9L"), turn=1, openings=laid)]
            )
        else:
            given(*history).when(t.SwapAll(), 0).raises(IllegalMove, match="scores 0")


# pass: illegal for a player whose previous turn *in this round* was a pass.


def test_a_pass_in_one_round_does_not_forbid_a_pass_in_the_next() -> None:
    hands = {0: LOSER, 1: MIDDLE}
    rng = Stacked(
        {1: arrange(hands, h("AL KL 8A"), 1, 2), 2: arrange(hands, h("AL KL 8A"), 0, 2)},
        dealer=1,
    )
    history = [*lobby(2), *t.decide(fold(lobby(2)), Start(), None, rng)]
    # round 1: seat 0 passes, seat 1 shows, seat 0 passes its last turn
    moves: list[tuple[int, t.Command]] = [(1, t.Keep()), (0, t.Pass()), (1, t.Show())]
    moves += [(0, t.Pass()), (0, t.Keep()), (1, t.Pass())]
    state, events = run(history, moves, rng)
    assert isinstance(state, t.Turns)
    assert state.match.round == 2
    assert "pass" in t.legal(state, 0)
    given(*history, *events).when(t.Pass(), 0).then([t.ThirtyOnePassed(seat=0, turn=1)])


def test_a_player_who_passed_may_show_on_the_next_turn() -> None:
    deal = dealt({0: LOSER, 1: MIDDLE}, h("AL KL 8A"), dealer=1, n=2)
    history = [
        *lobby(2),
        deal,
        t.ThirtyOneHandKept(seat=1, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=0),
    ]
    given(*history).when(t.Show(), 0).then(
        [t.ThirtyOneHandShown(seat=0, hand=LOSER, turn=1, openings=opens(deal, LOSER))]
    )


# The last circuit: swap or swap_all only to a hand of 21 or more (XC at its best), shown at once.


def test_the_last_circuits_21_counts_the_chronicler_at_its_best() -> None:
    options = t.ThirtyOneOptions(chronicler=True)
    hands = {0: h("7H 8B 9L"), 1: h("10B UB 9B"), 2: h("AA 7L 8L")}
    deal = dealt(hands, h("XC 9A 8H"), dealer=2, n=3, chronicler=True)
    history = [
        *lobby(3, options),
        deal,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
    ]
    state = given(*history).state
    assert t.legal(state, 2) == ["swap", "pass", "leave"]
    given(*history).when(t.Swap(give="7L", take="9A"), 2).raises(IllegalMove, match="score 0")
    events = given(*history).when(t.Swap(give="8L", take="XC"), 2).events()
    assert events[:2] == [
        t.ThirtyOneCardSwapped(seat=2, give="8L", take="XC", turn=2, openings=opens(deal, ["8L"])),
        t.ThirtyOneHandShown(
            seat=2, hand=h("AA 7L XC"), turn=None, openings=opens(deal, h("AA 7L XC"))
        ),
    ]
    ended = events[2]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.scores == [0.0, 29.0, 22.0]  # AA 7L + XC as a copy of AA


def test_a_player_who_swapped_in_the_last_circuit_is_frozen_too() -> None:
    history = [
        *lobby(4),
        dealt(FOUR, h("AB KL 8H"), dealer=3, n=4),
        t.ThirtyOneHandKept(seat=3, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=FOUR[0], turn=1),
        t.ThirtyOneCardSwapped(seat=1, give="7L", take="KL", turn=1),
        t.ThirtyOneHandShown(seat=1, hand=h("AH KH KL"), turn=2),
    ]
    state = given(*history).state
    assert isinstance(state, t.LastCircuit)
    assert state.shower == 0
    assert t.legal(state, 1) == ["leave"]
    given(*history).when(t.Pass(), 1).raises(NotYourTurn)
    view = t.view(state, None, "g", 9)
    assert view.thirty_one is not None
    assert view.thirty_one.shown == [FOUR[0], h("AH KH KL"), None, None]


# Three Aces: a hand that scores 33 wins the round the moment it exists.


def test_three_aces_by_swap_all_in_the_last_circuit_win_at_once() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    deal = dealt(hands, h("AA AB AL"), dealer=2, n=3)
    history = [
        *lobby(3),
        deal,
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1),
    ]
    events = given(*history).when(t.SwapAll(), 1).events()
    assert events[:3] == [
        t.ThirtyOneHandsSwapped(
            seat=1, table=h("10H KH 7L"), turn=1, openings=opens(deal, h("10H KH 7L"))
        ),
        t.ThirtyOneHandShown(
            seat=1, hand=h("AA AB AL"), turn=None, openings=opens(deal, h("AA AB AL"))
        ),
        t.ThirtyOneRoundEnded(
            round=1,
            hands=[None, h("AA AB AL"), None],
            scores=[None, 33.0, None],
            lost_life=[0, 2],  # the shower included, and seat 2 never had its last turn
            out=[],
            three_aces=1,
            lives=[2, 3, 2],
            openings=opens(deal, h("AA AB AL")),
        ),
    ]
    assert isinstance(events[3], t.ThirtyOneRoundDealt)


def test_two_aces_and_the_chronicler_dealt_win_before_the_dealers_choice() -> None:
    options = t.ThirtyOneOptions(chronicler=True)
    hands = {0: h("AH AB XC"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    rng = Stacked(
        {
            1: arrange(hands, h("7H 8B 9L"), dealer=2, n=3, chronicler=True),
            2: arrange(DEAL3, h("KA 7A 8A"), dealer=0, n=3, chronicler=True),
        },
        dealer=2,
    )
    events = given(*lobby(3, options)).when(Start(), None, rng).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.three_aces == 0
    assert ended.hands == [h("AH AB XC"), None, None]
    assert ended.scores == [33.0, None, None]
    assert ended.lost_life == [1, 2]


def test_three_aces_in_a_later_deal_end_that_round_in_the_same_decision() -> None:
    hands = {0: LOSER, 1: MIDDLE, 2: BEST}
    aces = {0: h("7B 8L 9A"), 1: h("AH AL AA"), 2: h("10H UH OH")}
    plain = {0: h("7H 8H 9H"), 1: h("7B 8B 9B"), 2: h("7L 8L 9L")}
    rng = Stacked(
        {
            1: arrange(hands, h("AL KL 8A"), dealer=2, n=3),
            2: arrange(aces, h("KL OL 8A"), dealer=0, n=3),
            3: arrange(plain, h("KA OA UA"), dealer=1, n=3),
        },
        dealer=2,
    )
    history = [*lobby(3), *t.decide(fold(lobby(3)), Start(), None, rng)]
    moves: list[tuple[int, t.Command]] = [(2, t.Keep()), (0, t.Show()), (1, t.Pass())]
    state, _ = run(history, moves, rng)
    events = t.decide(state, t.Pass(), 2, rng)
    assert [type(e) for e in events] == [
        t.ThirtyOnePassed,
        t.ThirtyOneRoundEnded,
        t.ThirtyOneRoundDealt,
        t.ThirtyOneRoundEnded,
        t.ThirtyOneRoundDealt,
    ]
    second = events[3]
    assert isinstance(second, t.ThirtyOneRoundEnded)
    assert second.round == 2
    assert second.three_aces == 1
    assert second.lost_life == [0, 2]
    assert second.lives == [1, 3, 2]  # seat 0 lost round 1 as well
    assert second.openings == opens(dealt(aces, h("KL OL 8A"), dealer=0, n=3, round=2), aces[1])
    assert events[4] == dealt(plain, h("KA OA UA"), dealer=1, n=3, round=3)


def test_three_aces_dealt_can_end_the_match_at_once() -> None:
    options = t.ThirtyOneOptions(lives=0)
    hands = {0: h("AH AB AL"), 1: h("10H KH 7L")}
    rng = Stacked({1: arrange(hands, h("7H 8B 9L"), dealer=1, n=2)}, dealer=1)
    events = given(*lobby(2, options)).when(Start(), None, rng).events()
    assert [type(e) for e in events] == [
        t.ThirtyOneRoundDealt,
        t.ThirtyOneRoundEnded,
        t.ThirtyOneMatchEnded,
    ]
    assert events[1] == t.ThirtyOneRoundEnded(
        round=1,
        hands=[h("AH AB AL"), None],
        scores=[33.0, None],
        lost_life=[1],
        out=[1],
        three_aces=0,
        lives=[0, 0],
        openings=opens(dealt(hands, h("7H 8B 9L"), dealer=1, n=2), h("AH AB AL")),
    )
    assert events[2] == t.ThirtyOneMatchEnded(winners=[0])


def test_three_aces_cost_only_players_still_in_the_match_and_drown_a_swimmer() -> None:
    # seat 1 is out; seat 2 swims at 0; seat 0 makes three Aces
    hands = {0: h("AB AL 9B"), 2: h("10H KH 7L"), 3: h("KA 7A 8A")}
    history = [
        *seat_out(4, [1], [2, 0, 0, 1], hands, h("AA KL 8H"), dealer=3),
        t.ThirtyOneHandKept(seat=3, turn=0),
    ]
    events = given(*history).when(t.Swap(give="9B", take="AA"), 0).events()
    deal = dealt(hands, h("AA KL 8H"), dealer=3, n=4, round=2, out=[1])
    assert events[1] == t.ThirtyOneRoundEnded(
        round=2,
        hands=[h("AB AL AA"), None, None, None],
        scores=[33.0, None, None, None],
        lost_life=[2, 3],
        out=[2],
        three_aces=0,
        lives=[2, 0, 0, 0],
        openings=opens(deal, h("AB AL AA")),
    )
    nxt = events[2]
    assert isinstance(nxt, t.ThirtyOneRoundDealt)
    assert nxt.dealer == 0
    assert nxt.seats == [3, 0]


def test_three_aces_lying_on_the_table_when_the_round_ends_count_for_nobody() -> None:
    hands = {0: h("7H 8B 9L"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    history = [
        *lobby(3),
        dealt(hands, h("AA AB AL"), dealer=2, n=3),
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1),
        t.ThirtyOnePassed(seat=1, turn=2),
    ]
    events = given(*history).when(t.Pass(), 2).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.three_aces is None
    assert ended.scores == [0.0, 0.0, 25.0]
    assert ended.lost_life == [0, 1]


def test_only_the_three_aces_winners_hand_is_in_the_views_last_round() -> None:
    hands = {0: h("AB AL 9B"), 1: h("10H KH 7L"), 2: h("KA 7A 8A")}
    history = [*lobby(3), dealt(hands, h("AA KL 8H"), dealer=2, n=3)]
    history.append(t.ThirtyOneHandKept(seat=2, turn=0))
    history += given(*history).when(t.Swap(give="9B", take="AA"), 0).events()
    for viewer in (None, 0, 1, 2):
        view = t.view(fold(history), viewer, "g", len(history))
        assert view.last_round == t.ThirtyOneRoundResult(
            round=1,
            hands=[h("AB AL AA"), None, None],
            scores=[33.0, None, None],
            lost_life=[1, 2],
            out=[],
            three_aces=0,
        )
        assert [p.lives for p in view.players] == [3, 2, 2]


# Lives: if a round would put every remaining player out, nobody is put out that round.


def test_nobody_is_out_when_every_player_still_in_would_be_although_a_seat_is_already_out() -> None:
    hands = {0: LOSER, 2: h("7L 8H 9B")}
    history = [
        *seat_out(3, [1], [0, 0, 0], hands, h("AL KL 8A"), dealer=2),
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=LOSER, turn=2),
    ]
    events = given(*history).when(t.Pass(), 2).events()
    ended = events[1]
    assert isinstance(ended, t.ThirtyOneRoundEnded)
    assert ended.lost_life == [0, 2]
    assert ended.out == []
    assert ended.lives == [0, 0, 0]
    assert isinstance(events[2], t.ThirtyOneRoundDealt)
    assert events[2].seats == [2, 0]


# The view's fields, phase by phase, and what it hides.


def test_the_view_follows_a_round_phase_by_phase() -> None:
    deal = dealt(DEAL3, h("AL KL 8A"), dealer=2, n=3)
    history: list[t.Event] = [*lobby(3), deal]

    def table_of(viewer: int | None) -> t.ThirtyOneTableView:
        view = t.view(fold(history), viewer, "g", len(history))
        assert view.thirty_one is not None
        return view.thirty_one

    assert (table_of(None).phase, table_of(None).shown_by) == ("dealer_choice", None)
    assert t.view(fold(history), None, "g", 5).turn == 2
    history.append(t.ThirtyOneHandKept(seat=2, turn=0))
    assert (table_of(1).phase, table_of(1).shown_by) == ("turns", None)
    history.append(t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1))
    assert (table_of(1).phase, table_of(1).shown_by) == ("last_circuit", 0)
    history.append(t.ThirtyOnePassed(seat=1, turn=2))
    history += given(*history).when(t.Pass(), 2).events()
    view = t.view(fold(history), 1, "g", len(history))
    assert view.round == 2
    assert view.thirty_one is not None
    assert view.thirty_one.phase == "dealer_choice"
    assert view.last_round == t.ThirtyOneRoundResult(
        round=1,
        hands=[h("7H 8B 9L"), h("AH KH 7L"), h("10B UB 9B")],
        scores=[0.0, 21.0, 29.0],
        lost_life=[0],
        out=[],
        three_aces=None,
    )
    assert [(p.lives, p.out) for p in view.players] == [(2, False), (3, False), (3, False)]


def test_the_undealt_rest_is_in_no_view_or_event_even_after_the_round() -> None:
    deal = dealt(DEAL3, h("AL KL 8A"), dealer=2, n=3)
    assert deal.deck is not None
    rest = set(deal.deck[12:])
    history: list[t.Event] = [*lobby(3), deal]
    moves: list[tuple[int, t.Command]] = [(2, t.Keep()), (0, t.Swap(give="7H", take="8A"))]
    moves += [(1, t.SwapAll()), (2, t.Pass()), (0, t.Show()), (1, t.Pass())]
    for seat, command in moves:
        _, events = run(history, [(seat, command)])
        history += events
        for viewer in (None, 0, 1, 2):
            view = msgspec.json.encode(t.view(fold(history), viewer, "g", len(history))).decode()
            assert not any(f'"{card}"' in view for card in rest), (viewer, command)
    _, events = run(history, [(2, t.Pass())])
    assert isinstance(events[1], t.ThirtyOneRoundEnded)
    assert isinstance(events[2], t.ThirtyOneRoundDealt)  # the next round: another deck
    assert not any(isinstance(event, DeckRevealed) for event in events)
    for viewer in (None, 0, 1, 2):
        for event in [*history, *events[:2]]:
            seen = msgspec.json.encode(t.redact(event, viewer)).decode()
            assert not any(f'"{card}"' in seen for card in rest), (viewer, event)


def test_an_old_deals_undealt_rest_is_in_no_view_or_event_until_its_deck_is_revealed() -> None:
    deal = dealt(DEAL3, h("AL KL 8A"), dealer=2, n=3, old=True)
    assert deal.deck is not None
    rest = set(deal.deck[12:])
    history: list[t.Event] = [*lobby(3), deal]
    moves: list[tuple[int, t.Command]] = [(2, t.Keep()), (0, t.Swap(give="7H", take="8A"))]
    moves += [(1, t.SwapAll()), (2, t.Pass()), (0, t.Show()), (1, t.Pass())]
    for seat, command in moves:
        _, events = run(history, [(seat, command)])
        history += events
        for viewer in (None, 0, 1, 2):
            view = msgspec.json.encode(t.view(fold(history), viewer, "g", len(history))).decode()
            assert not any(f'"{card}"' in view for card in rest), (viewer, command)
            for event in history:
                seen = msgspec.json.encode(t.redact(event, viewer)).decode()
                assert not any(f'"{card}"' in seen for card in rest), (viewer, event)
    _, events = run(history, [(2, t.Pass())])
    assert isinstance(events[1], t.ThirtyOneRoundEnded)
    assert events[2] == revealed(deal)
    for viewer in (None, 0, 1, 2):
        assert t.redact(events[2], viewer) == events[2]


def test_order_of_play_starts_after_the_dealer_for_every_dealer() -> None:
    for dealer in range(4):
        history = [*lobby(4), dealt(FOUR, h("AB KL 8H"), dealer=dealer, n=4)]
        first = order_of(4, dealer)[0]
        assert first == (dealer + 1) % 4
        given(*history).when(t.Keep(), dealer).then([t.ThirtyOneHandKept(seat=dealer, turn=first)])
