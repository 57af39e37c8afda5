"""What one Redis holds, in memory: the data the in-memory stores share (adapters/memory.py,
adapters/memory_log.py), with keys that lapse by an injectable clock as Redis keys do by their
TTLs."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

Clock = Callable[[], float]
"""The current time in seconds since the epoch, like `time.time`."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

TIE = 1024
"""As in Redis: a lobby score is created_ms * 1024 + the table's rank in that millisecond."""
REFRESH_S = 60
"""A game's keys live `ttl` after its last append, give or take this (adapters/lua/append.lua)."""
_SWEEP_EVERY = 1024
"""Writes between two sweeps of lapsed keys (reads drop the lapsed keys they meet anyway)."""


class Lapsing(Generic[K, V]):
    """Values that lapse at a deadline, as Redis keys do: a key made without one lives on; a key
    written again keeps its deadline; lapsed is `now > deadline`."""

    def __init__(self) -> None:
        self._items: dict[K, tuple[V, float | None]] = {}

    def get(self, key: K, now: float) -> V | None:
        item = self._items.get(key)
        if item is None:
            return None
        value, deadline = item
        if deadline is not None and now > deadline:
            del self._items[key]
            return None
        return value

    def make(self, key: K, value: V) -> V:
        """A new key, without a deadline (as RPUSH or HSET make one)."""
        self._items[key] = (value, None)
        return value

    def put(self, key: K, value: V, ttl_s: float, now: float) -> None:
        """Set a key that lapses in `ttl_s` seconds (as SET … EX and PEXPIRE do)."""
        self._items[key] = (value, now + ttl_s)

    def expire(self, key: K, ttl_s: float, now: float) -> None:
        """Give a key a new deadline (as EXPIRE does): none when it is not there; a key given no
        time left is deleted."""
        item = self._items.get(key)
        if item is None:
            return
        if ttl_s <= 0:
            del self._items[key]
        else:
            self._items[key] = (item[0], now + ttl_s)

    def sweep(self, now: float) -> None:
        lapsed = [
            k for k, (_, deadline) in self._items.items() if deadline is not None and now > deadline
        ]
        for key in lapsed:
            del self._items[key]


@dataclass
class Meta:
    """A game's meta hash: its version, the lobby summary of its latest append, and the second
    until which its keys were last set to live."""

    version: int
    kind: str
    status: str
    players: int
    created_ms: int
    until_s: int | None = None
    seeded: bool = False


@dataclass
class Bucket:
    """A token bucket: the tokens left and when (ms) they were counted."""

    tokens: float
    at: int


def take_from(
    buckets: Lapsing[K, Bucket], key: K, now: float, rate: float, burst: int, n: int = 1
) -> int:
    """Take `n` (at most `burst`): 0 when the bucket held them, else the ms until it does
    (adapters/lua/bucket.lua).

    The same arithmetic as the script, in the same order, on the same doubles.
    """
    now_ms = int(now * 1000)
    take = min(n, burst)
    bucket = buckets.get(key, now)
    tokens: float = bucket.tokens if bucket is not None else burst
    at = bucket.at if bucket is not None else now_ms
    tokens = min(burst, tokens + (now_ms - at) * rate / 1000)
    if tokens < take:
        return math.ceil((take - tokens) * 1000 / rate)
    # PEXPIRE ceil(burst * 1000 / rate) + 1000 ms: a bucket that has refilled is forgotten.
    buckets.put(
        key, Bucket(tokens - take, now_ms), (math.ceil(burst * 1000 / rate) + 1000) / 1000, now
    )
    return 0


class Publishing(Protocol):
    """A change feed that hears the appends (`MemoryChangeFeed`)."""

    def publish(self, game_id: str, version: int, records: list[bytes]) -> None: ...


class MemoryRedis:
    """What one Redis would hold, shared by every in-memory store made on it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.logs: Lapsing[str, list[bytes]] = Lapsing()
        self.metas: Lapsing[str, Meta] = Lapsing()
        self.auths: Lapsing[str, dict[str, str]] = Lapsing()
        self.answers: Lapsing[tuple[str, str], bytes] = Lapsing()
        """Answers kept for replayed idempotency keys (`keep_answer`)."""
        self.rates: Lapsing[tuple[str, str], Bucket] = Lapsing()
        """Each game's bucket per token, shared by its reads and appends."""
        self.buckets: Lapsing[str, Bucket] = Lapsing()
        """The buckets of `take`."""
        self.listed: dict[str, int] = {}
        """The lobby: table → score, created_ms * 1024 + its rank in that millisecond."""
        self.feeds: list[Publishing] = []
        self.deadlines: dict[str, int] = {}
        """Each table's earliest deadline (epoch ms), as the Redis store's sorted set."""
        self._writes = 0

    def wrote(self, now: float) -> None:
        """Count a write; now and then drop what has lapsed (as Redis's active expiry does)."""
        self._writes += 1
        if self._writes % _SWEEP_EVERY:
            return
        for keys in (self.logs, self.metas, self.auths, self.answers, self.rates):
            keys.sweep(now)
        self.buckets.sweep(now)
        for game_id in [g for g in self.listed if self.metas.get(g, now) is None]:
            del self.listed[game_id]
