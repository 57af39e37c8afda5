"""What a hand scores, doubled so that 30.5 stays a whole number, and how a swap changes it."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from kronikas_rules.cards import COLOURED, STANDARD, Card
from kronikas_rules.thirty_one.options import HAND_SIZE

MIN_SCORE: Final = 42
"""21, doubled: the lowest score a hand can have that is not 0."""
THREE_ACES: Final = 66
"""33, doubled: three Aces, an immediate win."""

VALUES: Final[dict[str, int]] = {
    "7": 7, "8": 8, "9": 9, "10": 10, "U": 10, "O": 10, "K": 10, "A": 11,
}  # fmt: skip
"""What a card of each rank counts in Thirty-One."""

_RANK: Final = {card: card[:-1] for card in STANDARD}
_SUIT: Final = {card: card[-1] for card in STANDARD}
_VALUE: Final = {card: VALUES[card[:-1]] for card in STANDARD}


def _plain_score(a: Card, b: Card, c: Card) -> int:
    """Twice the score of three ordinary cards (a card may repeat: XC can copy one)."""
    rank = _RANK[a]
    if rank == _RANK[b] == _RANK[c]:
        return THREE_ACES if rank == "A" else 61
    sums = dict.fromkeys((_SUIT[a], _SUIT[b], _SUIT[c]), 0)
    sums[_SUIT[a]] += _VALUE[a]
    sums[_SUIT[b]] += _VALUE[b]
    sums[_SUIT[c]] += _VALUE[c]
    best = max(sums.values())
    return 2 * best if best >= 21 else 0


@functools.cache
def _compute_score(hand: tuple[Card, ...]) -> int:
    """Twice the score of a hand, memoised: there are few hands of one deck."""
    if len(hand) != HAND_SIZE:
        raise ValueError(f"a hand has {HAND_SIZE} cards, not {len(hand)}")
    if COLOURED in hand:
        # XC stands for whatever card scores best, a copy of one in the hand included.
        a, b = (card for card in hand if card != COLOURED)
        return max(_plain_score(a, b, card) for card in STANDARD)
    return _plain_score(*hand)


def score(hand: Sequence[Card]) -> int:
    """Twice the score of a 3-card hand: 61 for 30.5, 66 for three Aces, 0 under 21."""
    return _compute_score(tuple(hand))


def wire_score(doubled: int) -> float:
    """A doubled score as the wire shows it: 61 → 30.5, 42 → 21.0."""
    return doubled / 2


def score_text(doubled: int) -> str:
    """A doubled score as a message says it: 61 → "30.5", 42 → "21"."""
    return f"{wire_score(doubled):g}"


def swapped(hand: tuple[Card, ...], give: Card, take: Card) -> tuple[Card, ...]:
    """The hand with `take` where `give` was: a hand's cards keep their positions."""
    i = hand.index(give)
    return (*hand[:i], take, *hand[i + 1 :])
