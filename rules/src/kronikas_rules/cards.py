"""The 32-card Hungarian deck and its wire codes, shared by every game; what a card is worth or
when it may be played is each game's own rule."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

Card = str
"""A card's wire code: rank then suit (`7H`, `10L`, `UB`, `AA`), or a Chronicler (`XC`, `XP`)."""

RANKS: Final = ("7", "8", "9", "10", "U", "O", "K", "A")
"""The ranks, from the lowest: 7, 8, 9, 10, Under, Over, King, Ace."""
SUITS: Final = ("H", "B", "L", "A")
"""Hearts / Piros, Bells / Tök, Leaves / Zöld, Acorns / Makk."""

COLOURED: Final = "XC"
"""The Coloured Chronicler."""
PALE: Final = "XP"
"""The Pale Chronicler."""

STANDARD: Final[tuple[Card, ...]] = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 32 ordinary cards, suit by suit, each suit from 7 to A."""

ALL_CODES: Final[frozenset[Card]] = frozenset((*STANDARD, COLOURED, PALE))

CARD_PATTERN: Final = r"^(7|8|9|10|U|O|K|A)(H|B|L|A)$|^X(C|P)$"
"""A regular expression that matches exactly the valid wire codes."""


RANK_NAMES: Final[dict[str, str]] = {
    "7": "Seven",
    "8": "Eight",
    "9": "Nine",
    "10": "Ten",
    "U": "Under",
    "O": "Over",
    "K": "King",
    "A": "Ace",
}
"""Each rank in words, as the web table names it (web/ui.js)."""
RANKS_PLURAL: Final[dict[str, str]] = {
    "7": "sevens",
    "8": "eights",
    "9": "nines",
    "10": "tens",
    "U": "Unders",
    "O": "Overs",
    "K": "Kings",
    "A": "Aces",
}
"""Each rank as a play announces it (`2 cards as sevens`), as the web table says it."""
SUIT_NAMES: Final[dict[str, str]] = {"H": "Hearts", "B": "Bells", "L": "Leaves", "A": "Acorns"}
"""Each suit in words, as the web table names it."""
CHRONICLER_NAMES: Final[dict[Card, str]] = {
    COLOURED: "Coloured Chronicler",
    PALE: "Pale Chronicler",
}


def card_name(card: Card) -> str:
    """A card in words, as the web table and the rules name it: `AH` is the Ace of Hearts."""
    if card in CHRONICLER_NAMES:
        return CHRONICLER_NAMES[card]
    rank, suit = RANK_NAMES.get(card[:-1]), SUIT_NAMES.get(card[-1:])
    return f"{rank} of {suit}" if rank and suit else "an unknown card"


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
