"""Check the cards of a fair deal: each opening against its deal's commitment, and every opening a
viewer received during a match against the others and against the cards it saw.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It needs only the standard library (hashlib).

A deal (`round_dealt`, scheme `merkle-sha256`) carries `commitment`, the root of a Merkle tree
(RFC 6962, SHA-256) over its shuffled deck, and `deck_size`. An opening proves one card of it:
`{"round", "position", "card", "salt", "path"}`; the leaf is the text `"<position>:<card>:<salt>"`
and `path` the sibling hashes from the leaf up (the API docs, "Fair deals"):

    from kronikas_client.proofs import Openings, verify

    assert verify(opening, deal["commitment"], deal["deck_size"])

    seen = Openings()
    for event in events:              # as this viewer's events page or stream gives them
        seen.observe(event)           # its deal, and the openings it carries
    seen.view(view)                   # the openings a view holds, and the hand it shows
                                      # (a command's answer's: none; its events came first)
    seen.saw(round, cards)            # other cards this viewer saw together in that round
    print(seen.problems)              # [] when every opening agrees

An opening, event or view may be a plain JSON object (a dict) or the SDK's model of it.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from .types import Unset

__all__ = ["OLD_SCHEME", "SCHEME", "Openings", "copies", "verify"]

SCHEME: Final = "merkle-sha256"
"""The `scheme` of a deal committed card by card, whose cards come with openings."""
OLD_SCHEME: Final = "deck-sha256"
"""The `scheme` of a deal stored before: one hash of the whole deck, shown by `deck_revealed`."""

_HASH = re.compile(r"[0-9a-f]{64}")
_SALT = re.compile(r"[0-9a-f]{32}")
_STANDARD = re.compile(r"(7|8|9|10|U|O|K|A)(H|B|L|A)")
_CHRONICLERS = frozenset({"XC", "XP"})
_DECK = 32
"""The cards of one Hungarian deck; a deck of the games holds one or two, and maybe Chroniclers."""


def _field(item: Any, name: str) -> Any:
    """`item[name]` of a JSON object, or the attribute of an SDK model (None when unset): `round`
    is its `round_`, and a field the model does not name yet is in its `additional_properties`."""
    if isinstance(item, Mapping):
        return item.get(name)
    value = getattr(item, name, None)
    if value is None:
        value = getattr(item, f"{name}_", None)
    if value is None and isinstance(extra := getattr(item, "additional_properties", None), dict):
        value = extra.get(name)
    return None if isinstance(value, Unset) else value


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _is_hash(value: Any) -> bool:
    """Whether `value` is a SHA-256 hash as the wire writes it: 64 lowercase hex digits."""
    return isinstance(value, str) and _HASH.fullmatch(value) is not None


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def verify(opening: Any, commitment: str, deck_size: int) -> bool:
    """Whether `opening` proves its card at its position of a deal of `deck_size` cards whose
    `commitment` is this root (RFC 9162, 2.1.3.2): True only if every part is well formed."""
    position, size = _int(_field(opening, "position")), _int(deck_size)
    card, salt, path = (_field(opening, name) for name in ("card", "salt", "path"))
    if position is None or size is None or not 0 <= position < size:
        return False
    if not isinstance(card, str) or not isinstance(salt, str) or not _SALT.fullmatch(salt):
        return False
    if not isinstance(path, list) or not all(_is_hash(h) for h in [*path, commitment]):
        return False
    r = hashlib.sha256(b"\x00" + f"{position}:{card}:{salt}".encode()).digest()
    fn, sn = position, size - 1
    for sibling in (bytes.fromhex(h) for h in path):
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = _node(sibling, r)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = _node(r, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and r.hex() == commitment


def copies(card: str, deck_size: int) -> int:
    """How many positions of a deal of `deck_size` cards may hold `card`: one or two decks of 32
    (`deck_size // 32`), and at most one of each Chronicler (`XC`, `XP`) beside them."""
    if _STANDARD.fullmatch(card):
        return deck_size // _DECK
    return 1 if card in _CHRONICLERS and deck_size % _DECK else 0


@dataclass
class _Deal:
    commitment: str
    deck_size: int
    scheme: str
    cards: dict[int, str] = field(default_factory=dict)
    """The proven card at each position opened."""


@dataclass
class Openings:
    """Every opening one viewer received during a match, and whether they agree: each proves its
    card against its deal's commitment; no position holds two cards; no card lies at more
    positions than the deck holds copies of it; every card the viewer saw (`saw`) is opened.

    `problems` lists each disagreement found, in words, as it is found; an opening or a card seen
    before its deal is known waits for it (`deal`, or `observe` of the `round_dealt` event)."""

    problems: list[str] = field(default_factory=list)
    _deals: dict[int, _Deal] = field(default_factory=dict)
    _waiting: dict[int, list[Any]] = field(default_factory=dict)
    _sightings: dict[int, list[list[str]]] = field(default_factory=dict)
    _round: int | None = None

    def deal(self, round: int, commitment: str, deck_size: int, scheme: str = SCHEME) -> None:
        """The deal of `round`: its commitment (root), its deck's size and its scheme."""
        known = self._deals.get(round)
        if known is not None:
            if (known.commitment, known.deck_size) != (commitment, deck_size):
                self.problems.append(f"round {round}: two different commitments to its deal")
            return
        self._deals[round] = _Deal(commitment, deck_size, scheme)
        self._round = max(round, self._round or round)
        for opening in self._waiting.pop(round, []):
            self.add(opening)
        for cards in self._sightings.pop(round, []):
            self.saw(round, cards)

    def add(self, opening: Any) -> bool:
        """Take one opening: False if it disagrees (its problem is added to `problems`)."""
        round, position = _int(_field(opening, "round")), _int(_field(opening, "position"))
        card = _field(opening, "card")
        if round is None:
            self.problems.append("an opening without a round")
            return False
        deal = self._deals.get(round)
        if deal is None:
            self._waiting.setdefault(round, []).append(opening)
            return True
        where = f"round {round}, position {position}"
        if deal.scheme != SCHEME:
            self.problems.append(f"{where}: an opening of a deal of scheme {deal.scheme}")
            return False
        if not verify(opening, deal.commitment, deal.deck_size):
            self.problems.append(f"{where}: the opening of {card} does not prove it")
            return False
        assert isinstance(position, int) and isinstance(card, str)
        before = deal.cards.setdefault(position, card)
        if before != card:
            self.problems.append(f"{where}: opened as {before} and as {card}")
            return False
        held = sum(1 for c in deal.cards.values() if c == card)
        chroniclers = sum(1 for c in deal.cards.values() if c in _CHRONICLERS)
        if held > copies(card, deal.deck_size) or chroniclers > deal.deck_size % _DECK:
            self.problems.append(
                f"{where}: {card} opened at {held} positions of a deck of {deal.deck_size}"
            )
            return False
        return True

    def saw(self, round: int, cards: Iterable[str]) -> bool:
        """The viewer saw these cards together in `round` (a hand, the table, cards turned up):
        False if one is not opened to it there (as many times as it is listed). Before the
        round's deal is known, they wait for it."""
        deal = self._deals.get(round)
        if deal is None:
            self._sightings.setdefault(round, []).append(list(cards))
            return True
        if deal.scheme != SCHEME:
            return True  # a deal from before: its deck is shown whole at the round's end
        opened = Counter(deal.cards.values())
        missing = sorted((Counter(cards) - opened).elements())
        if missing:
            self.problems.append(f"round {round}: no opening for {', '.join(missing)}")
        return not missing

    def observe(self, event: Any) -> None:
        """Take what one event tells: a deal (`commitment`, `deck_size`, `scheme`), and the
        openings it carries, whatever its game."""
        data = _field(event, "data")
        if data is None:
            return
        round, commitment = _int(_field(data, "round")), _field(data, "commitment")
        if round is not None and isinstance(commitment, str):
            scheme = _field(data, "scheme") or OLD_SCHEME
            size = _int(_field(data, "deck_size"))
            self.deal(round, commitment, size if size is not None else 0, scheme)
        for opening in _field(data, "openings") or []:
            self.add(opening)

    def view(self, view: Any) -> None:
        """Take what a view tells, whatever its game: the openings it holds, and the hand it
        shows (`me.hand`), seen in its `round`. A command's answer's view holds none (`openings:
        []`): observe the events up to its version first, which brought them."""
        for opening in _field(view, "openings") or []:
            self.add(opening)
        round, me = _int(_field(view, "round")), _field(view, "me")
        hand = _field(me, "hand") if me is not None else None
        if round and hand:
            self.saw(round, hand)

    @property
    def proven(self) -> int:
        """How many positions are proven so far, of every deal (each opening that checked, once)."""
        return sum(len(deal.cards) for deal in self._deals.values())

    @property
    def round(self) -> int | None:
        """The latest round whose deal this collector knows."""
        return self._round
