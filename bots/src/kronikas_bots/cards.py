"""The 32-card Hungarian deck as the wire spells it (`7H`, `10L`, `UB`, `AA`, `XC`, `XP`)."""

from __future__ import annotations

RANKS = ("7", "8", "9", "10", "U", "O", "K", "A")
SUITS = ("H", "B", "L", "A")
COLOURED = "XC"
PALE = "XP"
CHRONICLERS = (COLOURED, PALE)
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def rank(card: str) -> str:
    """The rank part of a card code (`10` of `10L`); a Chronicler is its own rank."""
    return card if card in CHRONICLERS else card[:-1]


def suit(card: str) -> str:
    """The suit letter of a card code; '' for a Chronicler."""
    return "" if card in CHRONICLERS else card[-1]
