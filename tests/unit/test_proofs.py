"""Fair deals' commitments (kronikas_rules.proofs, docs/api.md "Fair deals"): the root is RFC 6962's
Merkle tree hash over the salted positions, and every position's opening checks against it for
every deck size the games use, while a changed card, salt, position or path does not, nor a
deck too small to hold the position."""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest

from kronikas_rules import proofs
from kronikas_rules.cards import make_deck

SIZES = (32, 33, 34, 64, 66)
"""The decks the games deal: one or two decks, with no, one or two Chroniclers."""


def _mth(leaves: list[bytes]) -> bytes:
    """RFC 6962, 2.1: MTH of a list of leaf inputs, written from the RFC's definition."""
    if len(leaves) == 1:
        return hashlib.sha256(b"\x00" + leaves[0]).digest()
    k = 1
    while k * 2 < len(leaves):
        k *= 2
    return hashlib.sha256(b"\x01" + _mth(leaves[:k]) + _mth(leaves[k:])).digest()


def _deal(size: int, seed: int) -> tuple[list[str], list[str]]:
    rnd = random.Random(seed)
    deck = list((make_deck(2, ("XC", "XP")) * 2)[:size])
    rnd.shuffle(deck)
    return deck, [rnd.randbytes(proofs.SALT_BYTES).hex() for _ in deck]


@pytest.mark.parametrize("size", [*range(1, 17), *SIZES, 65, 67])
def test_the_root_is_rfc_6962s_tree_hash_over_the_salted_positions(size: int) -> None:
    deck, salts = _deal(size, size)
    leaves = [
        f"{i}:{card}:{salt}".encode()
        for i, (card, salt) in enumerate(zip(deck, salts, strict=True))
    ]
    assert proofs.Tree(deck, salts).root == _mth(leaves).hex()


@pytest.mark.parametrize("size", SIZES)
def test_every_position_opens_against_the_root_and_nothing_else_does(size: int) -> None:
    deck, salts = _deal(size, 100 + size)
    tree = proofs.Tree(deck, salts)
    other = proofs.Tree(*_deal(size, 200 + size)).root
    for position in range(size):
        opening = tree.opening(3, position)
        assert (opening.card, opening.salt, opening.round) == (deck[position], salts[position], 3)
        assert proofs.verify(opening, tree.root, size)
        assert not proofs.verify(opening, other, size)
        assert not proofs.verify(opening, tree.root, position)  # a deck too small to hold it
        wrong_card = "XC" if opening.card != "XC" else "7H"
        salt = ("0" if opening.salt[0] != "0" else "1") + opening.salt[1:]
        changed = [
            msgspec.structs.replace(opening, card=wrong_card),
            msgspec.structs.replace(opening, salt=salt),
            msgspec.structs.replace(opening, position=(position + 1) % size),
            msgspec.structs.replace(opening, path=opening.path[:-1]),
            msgspec.structs.replace(opening, path=[*opening.path, opening.path[0]]),
            msgspec.structs.replace(opening, path=[("f" * 64), *opening.path[1:]]),
        ]
        assert not any(proofs.verify(c, tree.root, size) for c in changed)


def test_a_tree_gives_the_same_opening_each_time() -> None:
    tree = proofs.tree(*map(tuple, _deal(34, 1)))
    assert tree.opening(1, 5) is tree.opening(1, 5)
    assert tree.openings(1, [5, 0]) == [tree.opening(1, 5), tree.opening(1, 0)]
