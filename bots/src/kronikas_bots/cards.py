"""The 32-card Hungarian deck as the wire spells it (`7H`, `10L`, `UB`, `AA`, `XC`, `XP`)."""

from __future__ import annotations

from collections.abc import Iterable

RANKS = ("7", "8", "9", "10", "U", "O", "K", "A")
SUITS = ("H", "B", "L", "A")
COLOURED = "XC"
PALE = "XP"
CHRONICLERS = (COLOURED, PALE)
VALUES = {"7": 7, "8": 8, "9": 9, "10": 10, "U": 10, "O": 10, "K": 10, "A": 11}
DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def rank(card: str) -> str:
    """The rank part of a card code (`10` of `10L`); a Chronicler is its own rank."""
    return card if card in CHRONICLERS else card[:-1]


def suit(card: str) -> str:
    """The suit letter of a card code; '' for a Chronicler."""
    return "" if card in CHRONICLERS else card[-1]


def next_rank(r: str, steps: int = 1) -> str:
    """The rank announced `steps` plays after `r` (after A comes 7 again)."""
    return RANKS[(RANKS.index(r) + steps) % len(RANKS)]


def rank_distance(start: str, target: str) -> int:
    """How many ranks after `start` comes `target` (0 when equal)."""
    return (RANKS.index(target) - RANKS.index(start)) % len(RANKS)


# --- Thirty-One scores, doubled so that 30.5 is the whole number 61 --------------------------


def _plain_score2(hand: Iterable[str]) -> int:
    cards = list(hand)
    ranks = [rank(c) for c in cards]
    if len(cards) == 3 and ranks.count("A") == 3:
        return 66
    if len(cards) == 3 and len(set(ranks)) == 1:
        return 61
    best = max(suit_sums(cards).values(), default=0)
    return 2 * best if best >= 21 else 0


def suit_sums(hand: Iterable[str]) -> dict[str, int]:
    """The sum of the card values in each suit of the hand (Chroniclers left out)."""
    sums = dict.fromkeys(SUITS, 0)
    for card in hand:
        if card not in CHRONICLERS:
            sums[suit(card)] += VALUES[rank(card)]
    return sums


def score2(hand: Iterable[str]) -> int:
    """Twice the Thirty-One score of a three-card hand (XC stands for its best card)."""
    cards = list(hand)
    if COLOURED not in cards:
        return _plain_score2(cards)
    rest = [c for c in cards if c != COLOURED]
    return max(_plain_score2([*rest, stand_in]) for stand_in in DECK)


def score(hand: Iterable[str]) -> float:
    """The Thirty-One score of a three-card hand: 0, 21–32, 30.5 or 33."""
    return score2(hand) / 2


def potential(hand: Iterable[str]) -> float:
    """How promising a hand is: its score, or below 21 its best one-suit sum (a trip counts)."""
    cards = list(hand)
    real = score(cards)
    if real:
        return real
    plain = [c for c in cards if c not in CHRONICLERS]
    sums = suit_sums(plain)
    best = float(max(sums.values(), default=0))
    if COLOURED in cards:
        best += 11
    ranks = [rank(c) for c in plain]
    for r in set(ranks):
        if ranks.count(r) == 2:
            best = max(best, 20.0 if r == "A" else 16.0)
    return best
