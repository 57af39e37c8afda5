"""What a seat's own cards are, counted as Cheat's players count them, as its view says (`me`):
how many it holds of each rank, so a bot or an agent sees at once what it may truly play."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Final

import msgspec

from kronikas_rules.cards import COLOURED, PALE, RANKS, SUITS, Card
from kronikas_rules.common import MyHand

_RANK_OF: Final[dict[Card, str]] = {
    **{rank + suit: rank for rank in RANKS for suit in SUITS},
    COLOURED: COLOURED,
    PALE: PALE,
}
"""A card's rank as a count names it: `10H` → `10`; a Chronicler keeps its own code."""

RankCounts = Annotated[
    dict[str, int],
    msgspec.Meta(
        description="How many cards of each rank the hand holds, by rank code (7 8 9 10 U O K "
        "A), the Chroniclers under their card codes (XC, XP); only what the hand holds, in hand "
        "order.",
        examples=[{"7": 2, "K": 1, "XC": 1}],
    ),
]


class CheatMyHand(MyHand, frozen=True):
    """The asking player's own seat and cards (`me` in a view), with the count of each rank
    in the hand (`rank_counts`)."""

    rank_counts: RankCounts


def rank_counts(hand: Sequence[Card]) -> dict[str, int]:
    """How many cards of each rank `hand` holds (ranks held only, the Chroniclers by code)."""
    counts: dict[str, int] = {}
    for card in hand:
        rank = _RANK_OF[card]
        counts[rank] = counts.get(rank, 0) + 1
    return counts


def my_hand(player_id: str, seat: int, hand: Sequence[Card]) -> CheatMyHand:
    """The seat's `me`: its hand and the count of each rank in it."""
    return CheatMyHand(id=player_id, seat=seat, hand=list(hand), rank_counts=rank_counts(hand))
