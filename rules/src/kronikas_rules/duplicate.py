"""Duplicate deals: every table of an arena set deals the same cards (README, "Duplicate deals
and ratings").

A set for an n-seat pool is n tables of n seats. Every table deals each round from the SAME
shuffle, drawn from the set's secret, and table j's first dealer is the shared one less j: so
seat `s` at table j plays hand position `p = (s + j) % n` (position p is seat p at table 0)
every round, and each position's hands are played once by every table. Luck of the deal then
cancels out: for each position, the entrants who held it are ranked by their places
(`rankings`), one rating match per position. Each table salts its deck of its own, so the
tables' commitments differ and an opening at one table opens nothing at another; the secret
itself never leaves the server (no event holds it).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import Final, TypeVar

from kronikas_rules.cards import Card
from kronikas_rules.common import Shuffle
from kronikas_rules.proofs import SALT_BYTES

SECRET_BYTES: Final = 32
"""The size of a set's secret: the key of every draw of its deals."""

E = TypeVar("E")


def new_secret() -> bytes:
    """A set's secret: 32 bytes from the operating system's secure generator."""
    return secrets.token_bytes(SECRET_BYTES)


def position(seat: int, table: int, players: int) -> int:
    """The hand position `seat` plays at table `table` of a set of `players`-seat tables."""
    return (seat + table) % players


def seat_of(position: int, table: int, players: int) -> int:
    """The seat that plays hand position `position` at table `table` (`position`'s inverse)."""
    return (position - table) % players


class SharedDeal:
    """The `Randomness` of table `table` of a set whose secret is `secret`, for `players` seats:
    the set's shuffle of each round (the same deck at every table), salts of this table's own,
    and the first dealer rotated by the table's index."""

    __slots__ = ("_secret", "players", "table")

    def __init__(self, secret: bytes, table: int, players: int) -> None:
        if len(secret) < SECRET_BYTES:
            raise ValueError(f"a set's secret has at least {SECRET_BYTES} bytes")
        if not 0 <= table < players:
            raise ValueError(f"a set of {players}-seat tables has tables 0 to {players - 1}")
        self._secret, self.table, self.players = secret, table, players

    def __repr__(self) -> str:
        # The secret is never shown, not even in a traceback.
        return f"SharedDeal(table={self.table}, players={self.players})"

    def _mac(self, message: str) -> bytes:
        return hmac.new(self._secret, message.encode(), hashlib.sha256).digest()

    def _draws(self, label: str) -> Iterator[int]:
        """64-bit draws from HMAC-SHA256(secret, "<label>:<counter>"), counter 0, 1, …"""
        counter = 0
        while True:
            block = self._mac(f"{label}:{counter}")
            for at in range(0, len(block), 8):
                yield int.from_bytes(block[at : at + 8], "big")
            counter += 1

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        # Fisher–Yates as `SecureRandomness` shuffles, its draws from the set's secret alone, so
        # every table of the set gets this deck; 64 bits modulo at most 64 bias a position by
        # less than 2**-58.
        deck = list(cards)
        draws = self._draws(f"deal:{round}")
        for i in range(len(deck) - 1, 0, -1):
            j = next(draws) % (i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        salts = [
            self._mac(f"salt:{self.table}:{round}:{at}")[:SALT_BYTES].hex()
            for at in range(len(deck))
        ]
        return Shuffle.committed(deck, salts)

    def pick(self, n: int) -> int:
        """The first dealer: the set's own, less the table's index (table 0 deals as drawn)."""
        if n != self.players:
            raise ValueError(f"a set of {self.players}-seat tables was asked for {n} seats")
        first = int.from_bytes(self._mac("dealer")[:8], "big") % n
        return (first - self.table) % n


def rankings(
    entrants: Sequence[Sequence[E]], places: Sequence[Sequence[float]]
) -> list[list[tuple[E, float]]]:
    """For each hand position p, who held it at each table of a finished set and their place
    there: `entrants[j][s]` sat in seat s of table j and placed `places[j][s]`. An entrant that
    held one position at two tables (a standing entrant filling two slots) is ranked once, by its
    first table: an entrant never meets itself."""
    players = len(entrants[0]) if entrants else 0
    found: list[list[tuple[E, float]]] = []
    for p in range(players):
        ranking: list[tuple[E, float]] = []
        for j, (seated, placed) in enumerate(zip(entrants, places, strict=True)):
            seat = seat_of(p, j, players)
            if all(entrant != seated[seat] for entrant, _ in ranking):
                ranking.append((seated[seat], placed[seat]))
        found.append(ranking)
    return found
