"""Tables on the memory store with a fake clock, for the tests of clocks, leaving and the house.

The clock is the real time plus an offset the test moves on (events are stamped with the real
time, and the deadlines run from them): nothing ever sleeps through a clock. Each `Games` stands
for one service process; `process()` makes another on the same store, as a second process on the
same Redis.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.application.engines import Registry
from kronikas.application.games import Games
from kronikas.application.ports import RandomSource
from kronikas.config import Settings
from kronikas_rules.cheat import Accept, CheatOptions, Play
from kronikas_rules.thirty_one import Keep, Pass, Show, Swap, ThirtyOneOptions
from tests.apps import ENGINES

SETTINGS = Settings(rate_per_s=100_000, rate_burst=100_000, sse_keepalive_s=5.0)
STORE_NOW = 1_800_000_000.0
"""The store's clock (for expiry) stands still: nothing lapses mid-test."""

MOVES = {
    "cheat": ("cards_played", "play_accepted", "cheat_called"),
    "thirty_one": (
        "hand_kept",
        "hand_exchanged",
        "card_swapped",
        "hands_swapped",
        "passed",
        "hand_shown",
    ),
}
"""The events that each stand for one move of a seat (a command of the game, not the house's
bookkeeping): the house's moves are counted by them."""


class FakeClock:
    """Epoch milliseconds: the real time plus an offset that `advance` moves on.

    The service stamps each event with the real time and asks this clock only whether a deadline
    is due; so once the test has acted on a deadline, `catch_up` lets the real time catch up
    again, and the next deadline runs from the next events as it would.
    """

    def __init__(self) -> None:
        self.offset_ms = 0
        self.frozen: int | None = None

    def __call__(self) -> int:
        if self.frozen is not None:
            return self.frozen
        return time.time_ns() // 1_000_000 + self.offset_ms

    def freeze(self, ms: int) -> None:
        """Stand still at `ms` (epoch milliseconds) until `catch_up`."""
        self.frozen = ms

    def advance(self, seconds: float) -> None:
        self.offset_ms += round(seconds * 1000)

    def catch_up(self) -> None:
        self.offset_ms, self.frozen = 0, None


@dataclass
class World:
    """One store (one Redis) and its feed, the fake clock, and the first process on them."""

    store: MemoryStores
    feed: MemoryChangeFeed
    clock: FakeClock
    games: Games
    randomness: RandomSource = for_table
    engines: Registry = field(default_factory=lambda: ENGINES)

    def process(self) -> Games:
        """Another process on the same store and feed, with its own fold cache."""
        return Games(
            self.store.sharing(),
            self.feed,
            self.randomness,
            SETTINGS,
            now=self.clock,
            engines=self.engines,
        )


def world(randomness: RandomSource = for_table, engines: Registry = ENGINES) -> World:
    """A store, its feed, a fake clock and a first process on them, running the games of
    `engines` (the service's by default)."""
    feed = MemoryChangeFeed()
    store = MemoryStores(clock=lambda: STORE_NOW, feeds=[feed])
    clock = FakeClock()
    games = Games(store, feed, randomness, SETTINGS, now=clock, engines=engines)
    return World(store, feed, clock, games, randomness, engines)


@dataclass
class Seated:
    """A table: its id, host token, and by seat the player's token (None: a house player)."""

    game_id: str
    host: str
    tokens: list[str | None] = field(default_factory=list)
    ids: list[str] = field(default_factory=list)

    def token(self, seat: int) -> str:
        token = self.tokens[seat]
        assert token is not None, f"seat {seat} is a house player's: it has no token"
        return token


def options(kind: str, **fields: Any) -> msgspec.Struct:
    return CheatOptions(**fields) if kind == "cheat" else ThirtyOneOptions(**fields)


async def table(games: Games, kind: str, seats: str, seed: int | None = 7, **fields: Any) -> Seated:
    """An open table whose seats are `seats`, one letter a seat: `p` a person, `h` the house."""
    created = json.loads(await games.create(kind, options(kind, **fields), seed=seed))
    seated = Seated(created["game"]["id"], created["host_token"])
    for seat, who in enumerate(seats):
        if who == "h":
            answer = json.loads(await games.seat_house(seated.game_id, seated.host, f"H{seat}"))
            seated.tokens.append(None)
        else:
            answer = json.loads(await games.join(seated.game_id, f"P{seat}"))
            seated.tokens.append(answer["token"])
        assert answer["seat"] == seat
        seated.ids.append(answer["player_id"])
    return seated


async def started(
    games: Games, kind: str, seats: str, seed: int | None = 7, **fields: Any
) -> Seated:
    seated = await table(games, kind, seats, seed, **fields)
    await games.start(seated.game_id, seated.host)
    return seated


async def view(games: Games, seated: Seated, seat: int | None = None) -> dict[str, Any]:
    """The table as a seat (None: a spectator) sees it now."""
    token = None if seat is None else seated.token(seat)
    found: dict[str, Any] = json.loads((await games.view(seated.game_id, token)).body)
    return found


async def events(games: Games, seated: Seated, after: int = 0) -> list[dict[str, Any]]:
    """Every event after `after`, as a spectator sees it."""
    found: list[dict[str, Any]] = []
    while True:
        page = json.loads(await games.events(seated.game_id, None, after, 0))
        found += page["events"]
        if not page["more"]:
            return found
        after = found[-1]["version"]


async def stored(store: MemoryStores, game_id: str) -> list[dict[str, Any]]:
    """The table's stored records as they are kept (nothing redacted)."""
    result = await store.log.read(game_id, 0, "", 1 << 30, rate=False)
    return [json.loads(raw) for raw in result.records]


async def appends(store: MemoryStores, game_id: str) -> list[list[dict[str, Any]]]:
    """The table's stored records, by the append that made them: each append's first record
    carries its nonce `n` (the records of the table's creation carry none)."""
    grouped: list[list[dict[str, Any]]] = []
    for record in await stored(store, game_id):
        if record.get("n") is not None or not grouped:
            grouped.append([])
        grouped[-1].append(record)
    return grouped


def tag(record: dict[str, Any]) -> str:
    tagged: str = record["e"]["type"]
    return tagged


def moves_in(kind: str, records: list[dict[str, Any]]) -> int:
    """How many moves of seats these records hold."""
    return sum(tag(r) in MOVES[kind] for r in records)


def short_type(event: dict[str, Any]) -> str:
    """A wire event's type without its game (`cards_played` for `cheat.cards_played`)."""
    kind: str = event["type"]
    return kind.partition(".")[2]


def at_ms(text: str) -> int:
    """Epoch milliseconds of an RFC 3339 UTC time such as `2026-12-01T17:09:36.123Z`."""
    assert text.endswith("Z"), text
    moment = datetime.strptime(text, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=UTC)
    return (moment - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


async def person_move(games: Games, seated: Seated, seat: int) -> msgspec.Struct:
    """A move for `seat`, which the table waits for, from its own view: its first card (or an
    accept, when it may not play), or in Thirty-One a keep, a pass or a show."""
    mine = await view(games, seated, seat)
    legal: list[str] = mine["legal"]
    if mine["kind"] == "cheat":
        if "play" in legal:
            return Play(cards=mine["me"]["hand"][:1])
        assert "accept" in legal, legal
        return Accept()
    for kind, command in (("keep", Keep()), ("pass", Pass()), ("show", Show())):
        if kind in legal:
            return command
    assert "swap" in legal, legal
    return Swap(give=mine["me"]["hand"][0], take=mine["thirty_one"]["table"][0])


async def ticked(w: World, seconds: float, *processes: Games) -> list[int]:
    """Let `seconds` pass on the fake clock, have each process (the first one when none is
    named) look for due deadlines together, then let the real time catch up. Answers how many
    tables each took."""
    w.clock.advance(seconds)
    try:
        return list(await asyncio.gather(*(p.clocks.tick() for p in processes or (w.games,))))
    finally:
        w.clock.catch_up()


def mover(record: dict[str, Any]) -> int:
    """The seat that made the move a stored record holds."""
    seat: int = record["e"]["caller"] if tag(record) == "cheat_called" else record["e"]["seat"]
    return seat


def movers(kind: str, records: list[dict[str, Any]]) -> list[int]:
    """The seats that made the moves these stored records hold, in order."""
    return [mover(r) for r in records if tag(r) in MOVES[kind]]


def wire_movers(kind: str, wire: list[dict[str, Any]]) -> list[int]:
    """The seats that made the moves these events on the wire hold, in order."""
    return movers(kind, [{"e": e["data"]} for e in wire])
