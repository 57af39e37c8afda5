"""Deals as chance outcomes: the rules deal inside `decide`, through the `Randomness` a table is
given; a `Dealing` answers from outcomes chosen outside the rules (OpenSpiel's chance nodes, a
search's imagined deals) and, when it has none left, says what it needs (`Draw`) instead of
drawing it. The caller then chooses the outcome and decides the same command again, with it."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from typing import Final

from kronikas_rules.cards import COLOURED, PALE, RANKS, SUITS, Card
from kronikas_rules.common import Shuffle
from kronikas_rules.proofs import SALT_BYTES

CODES: Final = (*(rank + suit for rank in RANKS for suit in SUITS), COLOURED, PALE)
"""Every card code in hand order (7H 7B 7L 7A 8H … AA, XC, XP): chance outcome i draws
`CODES[i]`, as the environments' action i picks it in a Cheat play."""
CODE_INDEX: Final = {card: i for i, card in enumerate(CODES)}


class Draw(Exception):
    """A decision needs a random input the `Dealing` was not given: a uniform pick from
    `range(n)` (`cards` empty: the first dealer), or a shuffle of `cards` (drawn card by card,
    each card left equally likely)."""

    def __init__(self, n: int, cards: tuple[Card, ...] = ()) -> None:
        super().__init__(f"a shuffle of {len(cards)} cards" if cards else f"a pick of {n}")
        self.n, self.cards = n, cards

    def left(self, drawn: Sequence[Card]) -> Counter[Card]:
        """The cards of the shuffle not yet drawn, with their copies (two decks hold two)."""
        return Counter(self.cards) - Counter(drawn)


def salts(round: int, size: int) -> list[str]:
    """Salts for a deal chosen outside the rules: derived, never drawn (they only commit the
    deck, and nobody here checks a commitment), and never a secure deal's 32 random digits."""
    return [
        hashlib.sha256(f"kronikas:chance:{round}:{i}".encode()).hexdigest()[: 2 * SALT_BYTES]
        for i in range(size)
    ]


class Dealing:
    """A `Randomness` that answers with the `picks` and `decks` it is given, in order, and
    raises `Draw` for the first input beyond them."""

    def __init__(self, picks: Sequence[int] = (), decks: Sequence[Sequence[Card]] = ()) -> None:
        self._picks, self._decks = list(picks), [tuple(deck) for deck in decks]

    def pick(self, n: int) -> int:
        if not self._picks:
            raise Draw(n)
        return self._picks.pop(0)

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        if not self._decks:
            raise Draw(len(cards), tuple(cards))
        deck = self._decks.pop(0)
        if sorted(deck) != sorted(cards):
            raise ValueError("a deck drawn for another set of cards")
        return Shuffle.committed(deck, salts(round, len(deck)))
