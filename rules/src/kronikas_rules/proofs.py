"""Fair deals: a commitment to every card of a shuffled deck, and the opening of one card
(docs/api.md, "Fair deals").

Each position `i` of the shuffled deck (0 first) has a salt of its own, 16 random bytes written as
32 lowercase hex digits. Its leaf is the UTF-8 text `"<i>:<card>:<salt>"`; the deal's
`commitment` is the root of RFC 6962's Merkle tree over the leaves in deck order, with SHA-256:
a leaf hashes as `SHA-256(0x00 ‖ leaf)` and a node as `SHA-256(0x01 ‖ left ‖ right)`, the left
subtree holding the largest power of two of leaves smaller than the deck's size. An opening is
the position, its card and salt, and the audit path (the sibling hashes from the leaf up); anyone
checks it against the root and the deck's size (`verify`), with no other card of the deal.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Sequence
from typing import Final

import msgspec

from kronikas_rules.cards import Card

SCHEME: Final = "merkle-sha256"
"""The scheme of a deal committed card by card (`scheme` of a deal event)."""

OLD_SCHEME: Final = "deck-sha256"
"""The scheme of a deal stored before: one hash of the whole deck, revealed at the round's end."""

SALT_BYTES: Final = 16


class Opening(msgspec.Struct, frozen=True, gc=False):
    """A card of a deal proven: `card` lies at `position` of round `round`'s shuffled deck;
    `salt` and `path` (hex SHA-256 hashes, from the leaf up) prove it against the deal's
    `commitment`."""

    round: int
    position: int
    card: Card
    salt: str
    path: list[str]


def leaf(position: int, card: str, salt: str) -> bytes:
    """The hash of a position's leaf."""
    return hashlib.sha256(b"\x00" + f"{position}:{card}:{salt}".encode()).digest()


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


class Tree:
    """The Merkle tree of one deal: its root, and any position's opening (each made once: views
    and events ask for the same ones again and again)."""

    def __init__(self, deck: Sequence[Card], salts: Sequence[str]) -> None:
        if len(deck) != len(salts) or not deck:
            raise ValueError("A deal commits to one salt for each of its cards.")
        self.deck, self.salts = tuple(deck), tuple(salts)
        level = [
            leaf(i, card, salt) for i, (card, salt) in enumerate(zip(deck, salts, strict=True))
        ]
        self._levels = [level]
        while len(level) > 1:  # pairs left to right; a last odd node rises as it is (RFC 6962)
            pairs = [_node(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
            level = pairs + level[-1:] if len(level) % 2 else pairs
            self._levels.append(level)
        self.root = level[0].hex()
        self._hex = [[node.hex() for node in level] for level in self._levels[:-1]]
        self._made: dict[int, list[Opening | None]] = {}
        """Each round's openings made so far, by position (a deal has one round)."""

    def __eq__(self, other: object) -> bool:
        # The root names one deck and its salts: two trees with one root are the same tree.
        return isinstance(other, Tree) and other.root == self.root

    def __hash__(self) -> int:
        return hash(self.root)

    def path(self, position: int) -> list[str]:
        """The audit path of `position`: its siblings' hashes from the leaf up."""
        path, i = [], position
        for level in self._hex:
            sibling = i ^ 1
            if sibling < len(level):
                path.append(level[sibling])
            i //= 2
        return path

    def _row(self, round: int) -> list[Opening | None]:
        row = self._made.get(round)
        if row is None:
            row = self._made[round] = [None] * len(self.deck)
        return row

    def opening(self, round: int, position: int) -> Opening:
        """The opening of one position (the same value each time it is asked for)."""
        row = self._row(round)
        opening = row[position]
        if opening is None:
            opening = row[position] = Opening(
                round=round,
                position=position,
                card=self.deck[position],
                salt=self.salts[position],
                path=self.path(position),
            )
        return opening

    def openings(self, round: int, positions: Iterable[int]) -> list[Opening]:
        """The openings of `positions`, in their order: a new list each time (a hand's changes
        from move to move), of the openings made once for each position."""
        row, opening = self._made.get(round) or self._row(round), self.opening
        return [row[p] or opening(round, p) for p in positions]


TREES_KEPT: Final = 64
"""Deals whose trees a process keeps: those it serves now, and a few it served last."""


class _Deal:
    """A deal as the memo of its trees knows it: by its root, which names one deck and its
    salts, so that a lookup hashes one string, not the deck."""

    __slots__ = ("built", "deck", "root", "salts")

    def __init__(
        self, root: str, deck: Sequence[Card], salts: Sequence[str], built: Tree | None = None
    ) -> None:
        self.root, self.deck, self.salts, self.built = root, deck, salts, built

    def __hash__(self) -> int:
        return hash(self.root)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Deal) and other.root == self.root


@functools.lru_cache(maxsize=TREES_KEPT)
def _tree(deal: _Deal) -> Tree:
    return deal.built or Tree(deal.deck, deal.salts)


def tree(deck: Sequence[Card], salts: Sequence[str], root: str | None = None) -> Tree:
    """The tree of a deal, built once a process for the deals it serves, looked up by its `root`
    (the deal's commitment); without one, built and kept under the root it has."""
    if root is not None:
        return _tree(_Deal(root, deck, salts))
    made = Tree(deck, salts)
    return _tree(_Deal(made.root, deck, salts, made))


def verify(opening: Opening, commitment: str, size: int) -> bool:
    """Whether `opening` proves its card at its position of a deal of `size` cards committed to
    by `commitment` (RFC 9162, 2.1.3.2)."""
    position = opening.position
    if not 0 <= position < size or len(opening.salt) != 2 * SALT_BYTES:
        return False
    try:
        hashes = [bytes.fromhex(h) for h in opening.path]
    except ValueError:
        return False
    fn, sn, r = position, size - 1, leaf(position, opening.card, opening.salt)
    for p in hashes:
        if sn == 0 or len(p) != 32:
            return False
        if fn & 1 or fn == sn:
            r = _node(p, r)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, p)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r.hex() == commitment
