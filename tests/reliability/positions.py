"""Which positions of which deal each seat may know, from a table's stored log (the truth, read
from Redis, with every deck and salt): the leak scanners' test of what the openings a viewer
receives prove (test_leaks.py).

A deal's cards are followed position by position as docs/api.md maps them: Cheat deals position
i to seat (dealer + 1 + i) mod n for i < dealt and sets the rest aside, and a play takes, for
each card code it names, the lowest position of that code its seat holds (two decks hold each
code twice); Thirty-One deals positions j, j + m, j + 2m to the j-th seat of the round's order
(m seats), then the table's. A position opens to a viewer only by the rules (issue 41, item 2):
its seat's own dealt cards; the cards a Cheat call turns up and the Pale Chronicler a penalty
announces (everyone); a taken pile (its taker); every card the Thirty-One table shows, a shown
hand and every hand `round_ended` holds (everyone); with `reveal: "match_end"`, every position of
every deal once `deals_opened` comes.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

import redis

SALT = re.compile(r"[0-9a-f]{32}")
OPENING = frozenset({"round", "position", "card", "salt", "path"})
"""The fields of an opening on the wire."""
EVERYONE = -1
"""The `seat` of what every viewer may know."""


def stored_log(redis_url: str, game_id: str) -> list[dict[str, Any]]:
    """The table's stored events, as Redis holds them: each event's whole `data`, by version."""
    client = redis.Redis.from_url(redis_url)
    try:
        raw = client.lrange(f"kr:{{{game_id}}}:log", 0, -1)
    finally:
        client.close()
    return [json.loads(entry)["e"] for entry in raw]


@dataclass
class Deal:
    """One deal's shuffled deck, its salts, and where its positions went."""

    deck: list[str]
    salts: list[str]
    held: dict[int, list[int]] = field(default_factory=dict)
    """Positions by seat (Cheat: a seat's hand; Thirty-One: a seat's hand, EVERYONE the table)."""
    pile: list[int] = field(default_factory=list)
    last: list[int] = field(default_factory=list)
    """Cheat: the positions of the last play."""

    def take(self, seat: int, code: str) -> int:
        """The lowest position of `code` that `seat` holds, which leaves its hand."""
        position = min(p for p in self.held[seat] if self.deck[p] == code)
        self.held[seat].remove(position)
        return position


@dataclass
class Openings:
    """What each seat (EVERYONE: every viewer) may know after each version: (round, position)."""

    deals: dict[int, Deal] = field(default_factory=dict)
    known: list[dict[int, frozenset[tuple[int, int]]]] = field(default_factory=list)
    salts: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Every salt of a position, to the position it salts."""

    def at(self, version: int, seat: int | None) -> frozenset[tuple[int, int]]:
        """What a viewer of `seat` (None: no seat) may know at `version`."""
        known = self.known[min(version, len(self.known) - 1)]
        mine = known.get(seat, frozenset()) if seat is not None else frozenset()
        return known.get(EVERYONE, frozenset()) | mine


def follow(log: list[dict[str, Any]], reveal: str = "never") -> Openings:
    """Every seat's knowable positions after each version of the stored `log`; `deals_opened`
    opens every position only at a table created with `reveal: "match_end"`."""
    out = Openings()
    known: dict[int, set[tuple[int, int]]] = {}
    out.known.append({})
    round = 0
    for data in log:
        kind = data["type"]
        deal = out.deals.get(round)

        if kind == "round_dealt" and data.get("deck"):
            round = data["round"]
            deal = out.deals[round] = Deal(list(data["deck"]), list(data.get("salts") or []))
            for p, salt in enumerate(deal.salts):
                out.salts[salt] = (round, p)
            for seat, positions in dealt(data, len(deal.deck)).items():
                deal.held[seat] = positions
                _open(known, round, seat, positions)
        elif deal is None:
            pass
        elif kind == "cards_played":
            deal.last = [deal.take(data["seat"], code) for code in data["cards"]]
            deal.pile += deal.last
        elif kind == "cheat_called":
            _open(known, round, EVERYONE, deal.last)
        elif kind in ("pile_taken", "penalty_taken"):
            _open(known, round, data["seat"], deal.pile)
            if kind == "penalty_taken":
                _open(known, round, EVERYONE, [p for p in deal.last if deal.deck[p] == "XP"])
            deal.held[data["seat"]] += deal.pile
            deal.pile = []
        elif kind in ("hand_exchanged", "hands_swapped"):
            seat = data["seat"]
            deal.held[seat], deal.held[EVERYONE] = deal.held[EVERYONE], deal.held[seat]
            _open(known, round, EVERYONE, deal.held[EVERYONE])
        elif kind == "card_swapped":
            give, take = deal.take(data["seat"], data["give"]), deal.take(EVERYONE, data["take"])
            deal.held[data["seat"]].append(take)
            deal.held[EVERYONE].append(give)
            _open(known, round, EVERYONE, [give])
        elif kind == "hand_shown":
            _open(known, round, EVERYONE, deal.held[data["seat"]])
        elif kind == "round_ended" and data.get("hands") is not None:
            for seat, hand in enumerate(data["hands"]):
                if hand:
                    _open(known, round, EVERYONE, deal.held[seat])
        if kind == "deals_opened" and reveal == "match_end":
            for r, whole in out.deals.items():
                known.setdefault(EVERYONE, set()).update((r, p) for p in range(len(whole.deck)))
        out.known.append({seat: frozenset(positions) for seat, positions in known.items()})
    return out


def _open(
    known: dict[int, set[tuple[int, int]]], round: int, seat: int, positions: list[int]
) -> None:
    known.setdefault(seat, set()).update((round, p) for p in positions)


def dealt(data: dict[str, Any], size: int) -> dict[int, list[int]]:
    """The positions a deal gives each seat (EVERYONE: Thirty-One's table)."""
    if "seats" in data:  # Thirty-One
        order = data["seats"]
        m = len(order)
        hands = {seat: [j, j + m, j + 2 * m] for j, seat in enumerate(order)}
        return hands | {EVERYONE: list(range(3 * m, 3 * m + 3))}
    n = len(data["hands"])
    given = size - data["set_aside"]
    return {
        seat: [i for i in range(given) if (data["dealer"] + 1 + i) % n == seat] for seat in range(n)
    }


def openings_in(
    value: Any, path: tuple[str, ...] = ()
) -> list[tuple[dict[str, Any], tuple[str, ...]]]:
    """Every opening in a body (an object with a round, position, card, salt and path)."""
    if isinstance(value, dict):
        if value.keys() >= OPENING:
            return [(value, path)]
        return [o for k, v in value.items() for o in openings_in(v, (*path, str(k)))]
    if isinstance(value, list):
        return [o for v in value for o in openings_in(v, path)]
    return []


def salts_in(value: Any) -> list[str]:
    """Every string in a body that could be a salt (32 lowercase hex digits), but an opening's."""
    if isinstance(value, str):
        return [value] if SALT.fullmatch(value) else []
    if isinstance(value, dict) and not value.keys() >= OPENING:
        return [s for v in value.values() for s in salts_in(v)]
    if isinstance(value, list):
        return [s for v in value for s in salts_in(v)]
    return []  # a number, or an opening (judged by its position)


def leaks(openings: Openings, body: Any, version: int, seat: int | None) -> list[str]:
    """What a body received at `version` by a viewer of `seat` proves that it may not know: an
    opening of a position not opened to it, or a salt of one (with the commitment's audit path
    a salt names its card among a few dozen)."""
    known = openings.at(version, seat)
    found = []
    for opening, path in openings_in(body):
        where = (opening["round"], opening["position"])
        if where not in known:
            found.append(f"an opening of round {where[0]} position {where[1]} at {'.'.join(path)}")
        deal = openings.deals.get(opening["round"])
        if deal is None or not 0 <= opening["position"] < len(deal.deck):
            found.append(f"an opening of a position no deal has: {opening}")
        elif (deal.deck[where[1]], deal.salts[where[1]]) != (opening["card"], opening["salt"]):
            found.append(f"an opening that is not the deal's: {opening}")
    for salt in salts_in(body):
        if salt in openings.salts and openings.salts[salt] not in known:
            round, position = openings.salts[salt]
            found.append(f"the salt of round {round} position {position}")
    return found
