"""docs/rules.md, Thirty-One, "The score of a hand": every example, and every 3-card hand."""

from __future__ import annotations

from itertools import combinations, permutations

import pytest

from kronikas_rules.cards import COLOURED, STANDARD
from kronikas_rules.thirty_one import score, wire_score


def doubled(value: float) -> int:
    return round(value * 2)


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        # the examples of docs/rules.md
        ("AH UH 7L", 21),
        ("AH KL 7A", 0),
        ("10H UB KL", 0),
        ("7H 8H 9H", 24),
        ("KH KL KB", 30.5),
        ("AH XC 7L", 22),
        ("AH KH XC", 32),
        ("7H 8B XC", 0),
        ("AH AL XC", 33),
        # the seeds' lines
        ("AB 10B 7H", 21),
        ("AL KL OL", 31),
        ("AA AH AB", 33),
        ("7H 7L 7B", 30.5),
    ],
)
def test_score_of_the_rules_examples(hand: str, expected: float) -> None:
    assert score(hand.split()) == doubled(expected)
    assert wire_score(score(hand.split())) == expected


def test_score_does_not_depend_on_the_order_of_the_cards() -> None:
    for hand in (["AH", "KH", "XC"], ["7H", "7L", "7B"], ["AH", "UH", "7L"]):
        assert {score(p) for p in permutations(hand)} == {score(hand)}


def test_ace_with_a_ten_valued_card_of_its_suit_is_the_lowest_nonzero_score() -> None:
    for ten in ("10", "U", "O", "K"):
        assert score([f"{ten}L", "AL", "7H"]) == 42
    assert min(s for s in map(score, combinations(STANDARD, 3)) if s) == 42


def test_sums_count_within_one_suit_only() -> None:
    assert score(["AH", "AL", "KB"]) == 0
    assert score(["AH", "KH", "AL"]) == 42


def test_three_cards_of_one_rank_score_thirty_and_a_half_unless_aces() -> None:
    for rank in ("7", "8", "9", "10", "U", "O", "K"):
        for a, b, c in combinations([rank + suit for suit in "HBLA"], 3):
            assert score([a, b, c]) == 61
    assert score(["AH", "AB", "AL"]) == 66


def test_possible_scores_without_the_chronicler() -> None:
    seen = {score(hand) for hand in combinations(STANDARD, 3)}
    assert seen == {0, 42, *range(48, 63, 2), 61, 66}
    assert {wire_score(s) for s in seen} == {0, 21, 24, 25, 26, 27, 28, 29, 30, 30.5, 31, 33}


def test_possible_scores_with_the_chronicler() -> None:
    seen = {score([*pair, COLOURED]) for pair in combinations(STANDARD, 2)}
    assert max(seen) == 66
    assert 64 in seen  # 32: A + A + a ten-valued card of one suit
    assert all(s == 0 or s >= 42 for s in seen)


def _one_rank(cards: tuple[str, ...]) -> bool:
    return len({card[:-1] for card in cards if card != COLOURED}) == 1


def test_thirty_and_a_half_only_for_cards_of_one_rank() -> None:
    deck = (*STANDARD, COLOURED)
    for hand in combinations(deck, 3):
        if score(hand) == 61:
            assert _one_rank(hand)
            assert "A" not in {card[:-1] for card in hand}


def test_thirty_three_only_for_three_aces_or_two_aces_with_the_chronicler() -> None:
    deck = (*STANDARD, COLOURED)
    for hand in combinations(deck, 3):
        aces = sum(card[:-1] == "A" for card in hand)
        expected = aces == 3 or (aces == 2 and COLOURED in hand)
        assert (score(hand) == 66) == expected, hand


def test_thirty_two_only_with_the_chronicler() -> None:
    for hand in combinations((*STANDARD, COLOURED), 3):
        if score(hand) == 64:
            assert COLOURED in hand


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("XC 7H 7L", 30.5),  # a third seven
        ("XC KH 10H", 31),  # the Ace of Hearts
        ("XC AH 9H", 31),  # a ten-valued Heart
        ("XC 7H 8H", 26),  # AH beats any third seven or eight
        ("XC AH 7B", 22),  # a copy of AH
        ("XC 9H 9L", 30.5),
        ("XC AB AA", 33),
    ],
)
def test_the_chronicler_stands_for_the_best_card(hand: str, expected: float) -> None:
    assert score(hand.split()) == doubled(expected)


def test_a_hand_has_three_cards() -> None:
    with pytest.raises(ValueError):
        score(["AH", "KH"])
