"""The 32-card Hungarian deck and its wire codes, shared by both games."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

Card = str
"""A card's wire code: rank then suit (`7H`, `10L`, `UB`, `AA`), or a Chronicler (`XC`, `XP`)."""

RANKS: Final = ("7", "8", "9", "10", "U", "O", "K", "A")
"""Ranks in Cheat's announcing order; after `A` comes `7` again."""
SUITS: Final = ("H", "B", "L", "A")
"""Hearts / Piros, Bells / Tök, Leaves / Zöld, Acorns / Makk."""

COLOURED: Final = "XC"
"""The Coloured Chronicler: always true in Cheat, wild in Thirty-One."""
PALE: Final = "XP"
"""The Pale Chronicler: Cheat only, never of the announced rank."""

STANDARD: Final[tuple[Card, ...]] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 32 ordinary cards, suit by suit, each suit from 7 to A."""

ALL_CODES: Final[frozenset[Card]] = frozenset((*STANDARD, COLOURED, PALE))

CARD_PATTERN: Final = r"^(7|8|9|10|U|O|K|A)(H|B|L|A)$|^X(C|P)$"
"""A regular expression that matches exactly the valid wire codes."""

VALUES: Final[dict[str, int]] = {
    "7": 7, "8": 8, "9": 9, "10": 10, "U": 10, "O": 10, "K": 10, "A": 11,
}  # fmt: skip
"""Thirty-One values by rank."""


def next_rank(rank: str) -> str:
    """The rank announced after `rank` in Cheat (A is followed by 7)."""
    return RANKS[(RANKS.index(rank) + 1) % len(RANKS)]


def make_deck(decks: int = 1, chroniclers: tuple[Card, ...] = ()) -> tuple[Card, ...]:
    """An unshuffled deck: `decks` copies of the 32 cards, then the given Chroniclers."""
    return STANDARD * decks + chroniclers


CardCode = Annotated[
    str,
    msgspec.Meta(
        pattern=CARD_PATTERN,
        description="A card: rank (7 8 9 10 U O K A) then suit (H B L A), or XC / XP.",
        examples=["7H", "10L", "UB", "AA", "XC"],
    ),
]
"""A card code as the wire carries it, validated at the edge."""
