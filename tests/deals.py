"""Deals of every deck size the games use (32, 33, 34, 64, 66), committed by the service's own
`kronikas_rules.proofs`, and each opening corrupted one byte at a time, part by part: what the
clients' verifiers (the Python SDK's and the TypeScript client's) are tested on."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass
from typing import Any

import msgspec

from kronikas_rules.cards import COLOURED, PALE, Card, make_deck
from kronikas_rules.proofs import Tree

DECKS: dict[int, tuple[Card, ...]] = {
    32: make_deck(),
    33: make_deck(1, (COLOURED,)),  # Thirty-One with the Chronicler
    34: make_deck(1, (COLOURED, PALE)),  # Cheat with the Chroniclers
    64: make_deck(2),
    66: make_deck(2, (COLOURED, PALE)),
}
"""The unshuffled deck of each size a game deals."""

PARTS = ("position", "card", "salt", "path", "commitment", "deck_size")


@dataclass(frozen=True)
class Deal:
    """A shuffled deck, its salts and its Merkle tree, as the service commits to them."""

    deck: list[Card]
    tree: Tree

    @property
    def size(self) -> int:
        return len(self.deck)

    def opening(self, position: int, round: int = 1) -> dict[str, Any]:
        """The opening of `position` as the wire carries it (a JSON object)."""
        built: dict[str, Any] = msgspec.to_builtins(self.tree.opening(round, position))
        return built


def deal(size: int, seed: int) -> Deal:
    """A deal of `size` cards shuffled by `seed`, with 16-byte salts drawn from it."""
    rng = random.Random(seed)
    deck = list(DECKS[size])
    rng.shuffle(deck)
    salts = [rng.randbytes(16).hex() for _ in deck]
    return Deal(deck, Tree(deck, salts))


def deals() -> list[Deal]:
    """One deal of each size."""
    return [deal(size, seed=size) for size in DECKS]


def _other(alphabet: str, char: str, rng: random.Random) -> str:
    """A character of `alphabet` that is not `char` (never the original byte)."""
    return rng.choice([c for c in alphabet if c != char])


def _flip(text: str, alphabet: str, rng: random.Random) -> str:
    i = rng.randrange(len(text))
    return text[:i] + _other(alphabet, text[i], rng) + text[i + 1 :]


def corrupted(d: Deal, position: int, rng: random.Random) -> list[dict[str, Any]]:
    """The opening of `position` with one byte of one part changed, a case for each part (and
    for each element of its path): `{"part", "opening", "commitment", "deck_size"}`. The size is
    corrupted only for the last position: the root binds an opening to its deck's size only where
    another size changes the opening's path, which it always does at the last position."""
    good = d.opening(position)
    root, size = d.tree.root, d.size
    cases: list[dict[str, Any]] = []

    def case(part: str, opening: dict[str, Any], commitment: str = root, n: int = size) -> None:
        cases.append({"part": part, "opening": opening, "commitment": commitment, "deck_size": n})

    case("position", good | {"position": int(_flip(str(position), string.digits, rng))})
    case("card", good | {"card": _flip(good["card"], "789UOKAHBLXCP10", rng)})
    case("salt", good | {"salt": _flip(good["salt"], string.hexdigits.lower()[:16], rng)})
    for k, element in enumerate(good["path"]):
        path = list(good["path"])
        path[k] = _flip(element, string.hexdigits.lower()[:16], rng)
        case(f"path[{k}]", good | {"path": path})
    case("commitment", good, commitment=_flip(root, string.hexdigits.lower()[:16], rng))
    if position == size - 1:
        case("deck_size", good, n=int(_flip(str(size), string.digits, rng)))
    return cases


def every_case(seed: int = 41) -> list[dict[str, Any]]:
    """Every opening of every deal (`part` None: it proves its card), and each corrupted."""
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    for d in deals():
        for position in range(d.size):
            cases.append(
                {
                    "part": None,
                    "opening": d.opening(position),
                    "commitment": d.tree.root,
                    "deck_size": d.size,
                }
            )
            cases += corrupted(d, position, rng)
    return cases


def _dealt(round: int, d: Deal, scheme: str = "merkle-sha256") -> list[Any]:
    return ["deal", round, d.tree.root, d.size, scheme]


def scenarios() -> list[list[list[Any]]]:
    """Calls to a collector of openings (`[method, *arguments]`), honest and not, for the Python
    SDK's `Openings` and the TypeScript client's `OpeningsChecker` to answer alike."""
    small, big, other = deal(33, seed=11), deal(66, seed=12), deal(33, seed=13)
    two = [p for p, card in enumerate(big.deck) if card == big.deck[0]]
    forged = small.opening(4) | {"card": small.deck[5]}
    liar = ["7H" if card == "8H" else card for card in DECKS[32]]
    lying = Deal(liar, Tree(liar, [f"{i:032x}" for i in range(32)]))
    sevens = [p for p, card in enumerate(liar) if card == "7H"]
    dealt = {"round": 2, "commitment": big.tree.root, "scheme": "merkle-sha256", "deck_size": 66}
    dealt_seen = {"type": "x.round_dealt", "data": dealt | {"openings": [big.opening(two[0], 2)]}}
    return [
        [_dealt(1, small), *(["add", small.opening(p)] for p in (0, 3, 6)),
         ["saw", 1, [small.deck[p] for p in (0, 3, 6)]], ["saw", 1, [small.deck[1]]]],
        [["add", small.opening(2)], ["add", forged], ["saw", 1, [small.deck[2], small.deck[4]]],
         _dealt(1, small), ["saw", 1, [small.deck[2]]]],
        [["observe", dealt_seen],
         ["saw", 2, [big.deck[0], big.deck[0]]], ["add", big.opening(two[1], 2)],
         ["saw", 2, [big.deck[0], big.deck[0]]], ["saw", 3, ["XC"]]],
        [_dealt(1, lying), ["add", lying.opening(sevens[0])], ["add", lying.opening(sevens[1])]],
        [_dealt(1, small), _dealt(1, other), _dealt(1, small)],
        [["observe", {"data": {"round": 1, "commitment": "ab" * 32, "hands": [["7H"], None]}}],
         ["saw", 1, ["7H"]], ["add", small.opening(0)]],
        [_dealt(1, small), _dealt(2, big),
         ["observe", {"type": "x.deals_opened", "data": {"openings": [
             *(small.opening(p) for p in range(33)), *(big.opening(p, 2) for p in range(66))]}}],
         ["saw", 1, small.deck], ["saw", 2, big.deck]],
        [_dealt(1, small),
         ["view", {"round": 1, "openings": [small.opening(p) for p in (7, 8)],
                   "me": {"hand": [small.deck[8], small.deck[7]]}}],
         ["view", {"round": 1, "openings": [], "me": {"hand": [small.deck[9]]}}],
         ["view", {"round": 0, "openings": [], "me": None}]],
        [_dealt(1, small), ["add", small.opening(1) | {"round": None}],
         ["add", small.opening(1) | {"path": small.opening(1)["path"][:-1]}]],
    ]  # fmt: skip
