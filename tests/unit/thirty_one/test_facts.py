"""docs/api.md, "The view": a seat's `me` says what its cards are worth — the hand's score as the
rules count it, every swap it may make now with the score each gives, and `swap_all`'s score —
so that no bot or agent scores a hand itself. Nobody else's view carries them."""

from __future__ import annotations

import re

import msgspec
import pytest

from kronikas_rules import thirty_one as t
from kronikas_rules.cards import Card
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.thirty_one.engine import ENGINE
from tests.unit.thirty_one.helpers import dealt, fold, given, h, lobby

CHRONICLER = t.ThirtyOneOptions(chronicler=True)
RULES_TEXT = ENGINE.rules_text or ""
CASES = re.findall(r"^\| `([^`]+)` \| ([\d.]+) \|", RULES_TEXT, re.MULTILINE)
"""The scoring table of the game's rules text: (hand, score)."""
HELD = [(hand, score) for hand, score in CASES if score != "33"]
"""The cases a seat can hold in a view: three Aces end the round in the decision that makes
them (they are listed as a swap's score, below)."""


def test_the_rules_text_gives_every_scoring_case() -> None:
    scores = {score for _, score in CASES}
    assert len(CASES) == 10 and {"0", "21", "30.5", "31", "32", "33"} <= scores, CASES
    assert any("XC" in hand for hand, _ in CASES)


def rest(*taken: Card) -> list[Card]:
    """The deck with a chronicler, less the given cards, in deck order (no three of a rank)."""
    return [card for card in t.deck_of(CHRONICLER) if card not in taken]


def dealer_choice(hand: list[Card], table: list[Card] | None = None) -> t.State:
    """Three seats, dealer 2; seat 1 holds `hand`, the others cards nobody looks at."""
    others = rest(*hand, *(table or ()))
    hands = {0: others[0:3], 1: hand, 2: others[3:6]}
    deal = dealt(hands, table or others[6:9], dealer=2, n=3, chronicler=True)
    return fold([*lobby(3, CHRONICLER), deal])


def me(state: t.State, seat: int) -> t.ThirtyOneMyHand:
    view = t.view(state, seat, "g", 9)
    assert view.me is not None
    return view.me


@pytest.mark.parametrize(("hand", "score"), HELD)
def test_a_seat_is_told_its_hands_score_as_the_rules_text_counts_it(hand: str, score: str) -> None:
    assert me(dealer_choice(h(hand)), 1).score == float(score)


@pytest.mark.parametrize(("hand", "score"), CASES)
def test_each_swap_is_listed_with_the_score_the_rules_text_gives_its_hand(
    hand: str, score: str
) -> None:
    # Seat 0 is on turn with two of the case's cards and a seven of Bells; the table holds the
    # third: the swap of the seven for it makes the case's hand, where the seven was.
    keep, wanted = h(hand)[:2], h(hand)[2]
    filler = next(card for card in ("7B", "8B", "9B") if card not in h(hand))
    table = [wanted, *[c for c in rest(*h(hand), filler) if c[-1] == "A" and c[0] != "A"][:2]]
    others = rest(*keep, filler, *table)
    deal = dealt({0: [*keep, filler], 1: others[0:3], 2: others[3:6]}, table, 2, 3, chronicler=True)
    state = fold([*lobby(3, CHRONICLER), deal, t.ThirtyOneHandKept(seat=2, turn=0)])
    listed = {(s.give, s.take): s.score for s in me(state, 0).swaps}
    assert listed[(filler, wanted)] == float(score)


def test_the_swaps_listed_are_exactly_the_legal_ones_in_the_turns() -> None:
    state = fold(
        [
            *lobby(3),
            dealt({0: h("AH KH 7L"), 1: h("7H 8B 9L"), 2: h("10B UB 9B")}, h("AL KL 8A"), 2, 3),
            t.ThirtyOneHandKept(seat=2, turn=0),
        ]
    )
    mine = me(state, 0)
    assert [(s.give, s.take) for s in mine.swaps] == [
        (m.give, m.take) for m in t.legal_moves(state, 0) if isinstance(m, t.Swap)
    ]
    assert len(mine.swaps) == 9
    assert mine.score == 21
    by_swap = {(s.give, s.take): s.score for s in mine.swaps}
    assert by_swap[("7L", "8A")] == 21  # AH KH 8A: Hearts still 21
    assert by_swap[("AH", "AL")] == 0  # AL KH 7L: no suit reaches 21
    assert by_swap[("AH", "KL")] == 0  # KL KH 7L: two Kings are not three
    assert by_swap[("7L", "AL")] == 21  # AH KH AL: 21 in Hearts beats the pair of Aces
    assert mine.swap_all == 21  # AL KL 8A: 21 in Leaves
    for seat in (1, 2):  # not on turn: nothing to swap, the hand's score all the same
        theirs = me(state, seat)
        assert (theirs.swaps, theirs.swap_all) == ([], None)
    assert me(state, 1).score == 0 and me(state, 2).score == 29


def test_swap_all_is_null_when_the_table_scores_under_21() -> None:
    state = fold(
        [
            *lobby(2),
            dealt({0: h("AH KH 7L"), 1: h("7H 8B 9L")}, h("10B UB 9A"), 1, 2),
            t.ThirtyOneHandKept(seat=1, turn=0),
        ]
    )
    assert "swap_all" not in t.legal(state, 0)
    assert me(state, 0).swap_all is None


def test_in_the_last_circuit_only_the_swaps_that_reach_21_are_listed() -> None:
    history = [
        *lobby(3),
        dealt({0: h("7H 8B 9L"), 1: h("AH KH 7L"), 2: h("10B UB 9B")}, h("AL KL 8A"), 2, 3),
        t.ThirtyOneHandKept(seat=2, turn=0),
        t.ThirtyOneHandShown(seat=0, hand=h("7H 8B 9L"), turn=1),
    ]
    state = fold(history)
    assert isinstance(state, t.LastCircuit)
    mine = me(state, 1)
    assert [(s.give, s.take, s.score) for s in mine.swaps] == [
        ("7L", "AL", 21),
        ("7L", "KL", 21),
        ("7L", "8A", 21),
    ]
    assert [(s.give, s.take) for s in mine.swaps] == [
        (m.give, m.take) for m in t.legal_moves(state, 1) if isinstance(m, t.Swap)
    ]
    shower = me(state, 0)  # frozen: its score, nothing to swap
    assert (shower.score, shower.swaps, shower.swap_all) == (0, [], None)


def test_the_dealers_choice_and_a_forced_show_list_no_swaps() -> None:
    hands = {0: h("AH KH 7L"), 1: h("7H 8B 9L")}
    history = [*lobby(2, t.ThirtyOneOptions(max_circuits=1)), dealt(hands, h("AL KL 8A"), 1, 2)]
    choosing = me(fold(history), 1)
    assert (choosing.score, choosing.swaps, choosing.swap_all) == (0, [], None)
    history += [
        t.ThirtyOneHandKept(seat=1, turn=0),
        t.ThirtyOnePassed(seat=0, turn=1),
        t.ThirtyOnePassed(seat=1, turn=0),
    ]
    forced = fold(history)
    assert t.legal(forced, 0) == ["show", "leave"]
    assert (me(forced, 0).swaps, me(forced, 0).swap_all) == ([], None)


def test_a_seat_without_cards_has_no_score() -> None:
    lobby_state = fold(lobby(2))
    mine = me(lobby_state, 0)
    assert (mine.hand, mine.score, mine.swaps, mine.swap_all) == ([], None, [], None)
    hands = {0: h("AH KH 7L"), 2: h("10B UB 9B")}
    without_1 = fold([*lobby(3), dealt(hands, h("AL KL 8A"), 2, 3, out=[1])])  # seat 1 is out
    assert (me(without_1, 1).hand, me(without_1, 1).score) == ([], None)
    assert me(without_1, 0).score == 21


def test_a_listed_swap_gives_the_score_it_says() -> None:
    history = [
        *lobby(3),
        dealt({0: h("AH KH 7L"), 1: h("7H 8B 9L"), 2: h("10B UB 9B")}, h("AL KL 8A"), 2, 3),
        t.ThirtyOneHandKept(seat=2, turn=0),
    ]
    state = fold(history)
    for swap in me(state, 0).swaps:
        events = given(*history).when(t.Swap(give=swap.give, take=swap.take), 0).events()
        after = fold([*history, *events])
        assert me(after, 0).score == swap.score, swap
    events = given(*history).when(t.SwapAll(), 0).events()
    assert me(fold([*history, *events]), 0).score == me(state, 0).swap_all


def test_nobody_else_sees_a_seats_facts() -> None:
    state = fold(
        [
            *lobby(3),
            dealt({0: h("AH KH 7L"), 1: h("7H 8B 9L"), 2: h("10B UB 9B")}, h("AL KL 8A"), 2, 3),
            t.ThirtyOneHandKept(seat=2, turn=0),
        ]
    )
    assert t.view(state, None, "g", 9).me is None
    for seat in (1, 2):
        body = msgspec.json.encode(t.view(state, seat, "g", 9)).decode()
        assert '"AH"' not in body and '"KH"' not in body and '"7L"' not in body


def check_facts(state: t.State, seat: int, view: t.ThirtyOneGameView) -> None:
    """For the property tests: `me`'s swaps are exactly the seat's legal swaps, `swap_all` is
    there exactly when it is legal, and making a listed swap gives the score it says (in the
    seat's next view, or in the round's result when the swap ended the round)."""
    assert view.me is not None
    moves = t.legal_moves(state, seat)
    swaps = [m for m in moves if isinstance(m, t.Swap)]
    assert [(s.give, s.take) for s in view.me.swaps] == [(m.give, m.take) for m in swaps]
    assert (view.me.swap_all is not None) == (t.SwapAll() in moves)
    made = [(s.score, t.Swap(give=s.give, take=s.take)) for s in view.me.swaps]
    if view.me.swap_all is not None:
        made.append((view.me.swap_all, t.SwapAll()))
    for score, move in made:
        after = state
        events = t.decide(state, move, seat, SeededRandomness(0))
        for event in events:
            after = t.evolve(after, event)
            if isinstance(event, t.ThirtyOneRoundEnded):
                if event.scores[seat] is not None:
                    assert event.scores[seat] == score, (move, event)
                break
        else:
            deal = t.deal_of(after)
            assert deal is not None
            assert me(after, seat).score == score, move
