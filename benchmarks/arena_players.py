"""Arena sets played in-process: players of known strength, a table played to its end, and a
duplicate set (README of the rules, "Duplicate deals and ratings").

A `Player` is asked, for one seat of a `Table`, its command now (None: nothing now). `play`
asks every seat that may act and takes an answer out of turn (a call of the last play) before
the move of the seat waited for; answers race as at a live table, and the first in `order`
wins, so a duplicate set orders its seats by hand position and every table of it plays alike.
The players: the house (`Table.house`), a uniformly random legal move (the arena's standing
`Random`), and the example bots of `kronikas_bots`, fed the seat's view and events as the SDK
parses them from the wire (as `benchmarks/house_strength.py` feeds them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import msgspec
from kronikas_bots.base import Bot
from kronikas_bots.cheat import GoodCheatBot
from kronikas_bots.thirty_one import GoodThirtyOneBot
from kronikas_client.events import parse_event
from kronikas_client.models import CheatGameView as SdkCheatView
from kronikas_client.models import ThirtyOneGameView as SdkThirtyOneView

from kronikas_rules import duplicate
from kronikas_rules.common import Randomness
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Leave
from kronikas_rules.table import Table

E = TypeVar("E")

GOOD_BOTS: dict[str, Callable[[random.Random], Bot[Any, Any]]] = {
    "cheat": GoodCheatBot,
    "thirty_one": GoodThirtyOneBot,
}
SDK_VIEWS: dict[str, Any] = {"cheat": SdkCheatView, "thirty_one": SdkThirtyOneView}
OPTIONS: dict[str, dict[str, Any]] = {"cheat": {"rounds": 1}, "thirty_one": {"lives": 1}}
"""Short matches: one round of Cheat, Thirty-One with one life (out at the first loss)."""


class Player(Protocol):
    """One seat's player at one table: its command for the seat now (None: nothing now)."""

    def __call__(self, table: Table, seat: int) -> msgspec.Struct | None: ...


class House:
    """The house's move for the seat, as the service's house decides it (`Table.house`)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, table: Table, seat: int) -> msgspec.Struct | None:
        return table.house(seat, self.rng)


class Uniform:
    """A legal move drawn uniformly (never `leave`); out of turn, doing nothing is one more
    choice beside the answers."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def __call__(self, table: Table, seat: int) -> msgspec.Struct | None:
        moves: list[msgspec.Struct | None] = [
            m for m in table.legal_moves(seat) if not isinstance(m, Leave)
        ]
        if seat != table.waiting_for:
            moves.append(None)
        return self.rng.choice(moves) if moves else None


class Good:
    """The example bots' good bot of the table's game, fed the seat's events and view as the SDK
    parses them from the wire."""

    def __init__(self, kind: str, rng: random.Random) -> None:
        self.kind, self.bot, self.seen = kind, GOOD_BOTS[kind](rng), 0
        self.view_type = SDK_VIEWS[kind]

    def __call__(self, table: Table, seat: int) -> msgspec.Struct | None:
        for version, event in enumerate(table.events_for(seat, self.seen), self.seen + 1):
            data = msgspec.to_builtins(event)
            wire = {"type": f"{self.kind}.{data['type']}", "version": version, "at": ""}
            self.bot.observe(parse_event({**wire, "data": data}))
        self.seen = table.version
        view = table.view(seat)
        if not getattr(view, "legal", None):
            return None
        command = self.bot.act(self.view_type.from_dict(msgspec.to_builtins(view)))
        return None if command is None else table.command(command.to_dict())


def play(table: Table, players: Sequence[Player], order: Sequence[int] | None = None) -> None:
    """Play the table to its end, `players[s]` for seat s; answers out of turn race, the first
    seat in `order` (default: seat order) winning."""
    seats = list(order) if order is not None else list(range(len(players)))
    answers = table.engine.answers
    while not table.finished:
        acting = table.to_act()
        wishes = [(s, players[s](table, s)) for s in seats if s in acting]
        chosen = next(((s, c) for s, c in wishes if isinstance(c, answers)), None)
        if chosen is None:
            chosen = next(((s, c) for s, c in wishes if s == table.waiting_for), None)
        if chosen is None or chosen[1] is None:
            raise RuntimeError(f"seat {table.waiting_for} is waited for and did nothing")
        table.play(*chosen)


def play_set(
    kind: str,
    seated: Sequence[Sequence[E]],
    player: Callable[[E, int, int], Player],
    secret: bytes | None = None,
    seed: int | None = None,
    options: dict[str, Any] | None = None,
) -> list[list[float]]:
    """A set: table j seats `seated[j]` (one entrant a seat), each seat played by
    `player(entrant, table, seat)`; the places at each table. With `secret`, the tables deal
    duplicate (`SharedDeal`); else each deals on its own from `seed` (independent deals, for a
    comparison)."""
    places: list[list[float]] = []
    for j, entrants in enumerate(seated):
        n = len(entrants)
        deals: Randomness
        if secret is not None:
            deals = duplicate.SharedDeal(secret, j, n)
        else:
            deals = SeededRandomness(random.Random(f"deal:{seed}:{j}").getrandbits(63))
        table = Table(kind, n, options=options or OPTIONS[kind], randomness=deals)
        players = [player(e, j, s) for s, e in enumerate(entrants)]
        play(table, players, [duplicate.seat_of(p, j, n) for p in range(n)])
        places.append(table.places())
    return places
