"""The event store and the change feed in memory: the Redis adapters' behaviour, without Redis.

For use-case tests and local experiments. `MemoryEventStore` keeps what the Redis store keeps
(adapters/event_store.py and its Lua scripts), with the same results: each operation is atomic as
a script is, the keys of a game lapse by the store's clock as Redis keys do by their TTLs, and
each append is handed to the change feeds attached to the store as the append's publication is
by adapters/notifier.py. The clock is injectable (seconds, like `time.time`), so a test moves time
on instead of sleeping. One store object stands for one Redis: several use-case instances (as
several processes) may share it, with a feed each or one feed between them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

from kronikas.adapters.waiter import Waiter, WaitersByGame
from kronikas.application.ports import Appended, AppendResult, ReadResult, Summary

if TYPE_CHECKING:
    from kronikas.application.ports import ChangeFeed, EventStore

log = logging.getLogger("kronikas.memory")

Clock = Callable[[], float]
"""The current time in seconds since the epoch, like `time.time`."""

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_TIE = 1024
"""As in Redis: a lobby score is created_ms * 1024 + the table's rank in that millisecond."""
_REFRESH_S = 60
"""A game's keys live `ttl` after its last append, give or take this (adapters/lua/append.lua)."""
_SWEEP_EVERY = 1024
"""Writes between two sweeps of lapsed keys (reads drop the lapsed keys they meet anyway)."""


class _Keys(Generic[K, V]):
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
class _Meta:
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
class _Bucket:
    """A token bucket: the tokens left and when (ms) they were counted."""

    tokens: float
    at: int


def _take(
    buckets: _Keys[K, _Bucket], key: K, now: float, rate: float, burst: int, n: int = 1
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
        key, _Bucket(tokens - take, now_ms), (math.ceil(burst * 1000 / rate) + 1000) / 1000, now
    )
    return 0


class _Tables:
    """What one Redis would hold, shared by every store object made on it."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.logs: _Keys[str, list[bytes]] = _Keys()
        self.metas: _Keys[str, _Meta] = _Keys()
        self.auths: _Keys[str, dict[str, str]] = _Keys()
        self.answers: _Keys[tuple[str, str], bytes] = _Keys()
        """Answers kept for replayed idempotency keys (`keep_answer`)."""
        self.rates: _Keys[tuple[str, str], _Bucket] = _Keys()
        """Each game's bucket per token, shared by its reads and appends."""
        self.buckets: _Keys[str, _Bucket] = _Keys()
        """The buckets of `take`."""
        self.listed: dict[str, int] = {}
        """The lobby: table → score, created_ms * 1024 + its rank in that millisecond."""
        self.feeds: list[MemoryChangeFeed] = []
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


class MemoryEventStore:
    """`EventStore` in memory, as the Redis store behaves.

    `rate_per_s` and `burst` limit each token's reads and appends at a table, as the Redis store's
    do (0: no limit); `clock` tells the time in seconds; `feeds` hear every append.
    """

    def __init__(
        self,
        rate_per_s: float = 0,
        burst: int = 1,
        *,
        clock: Clock = time.time,
        feeds: Iterable[MemoryChangeFeed] = (),
    ) -> None:
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._tables = _Tables(clock)
        self._tables.feeds.extend(feeds)

    def sharing(
        self, rate_per_s: float | None = None, burst: int | None = None
    ) -> MemoryEventStore:
        """Another store on the same tables (as a second process on the same Redis), with its own
        limits (this store's when None)."""
        other = MemoryEventStore(
            self.rate_per_s if rate_per_s is None else rate_per_s,
            self.burst if burst is None else burst,
        )
        other._tables = self._tables
        return other

    def attach(self, feed: MemoryChangeFeed) -> None:
        """Hand every append made from now on, by any store sharing these tables, to `feed`."""
        if feed not in self._tables.feeds:
            self._tables.feeds.append(feed)

    def lapse(self, game_id: str) -> None:
        """End a game now, as if its keys' time had run out (its log, meta, auth)."""
        for keys in (self._tables.logs, self._tables.metas, self._tables.auths):
            keys.expire(game_id, 0, 0.0)

    def _now(self) -> float:
        return self._tables.clock()

    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        """The version, the token's role and up to `limit` events after `after` (read.lua)."""
        await asyncio.sleep(0)  # a round trip: other tasks run; the read itself is atomic
        tables, now = self._tables, self._now()
        stored = tables.logs.get(game_id, now) or []
        version = len(stored)
        role = ""
        if token_hash:
            role = (tables.auths.get(game_id, now) or {}).get(token_hash, "")
        rate_per_s = self.rate_per_s if rate else 0
        if rate_per_s > 0 and role:  # only a token the table knows has a bucket
            wait = _take(tables.rates, (game_id, token_hash), now, rate_per_s, self.burst, cost)
            if wait:
                return ReadResult(version=0, role="", retry_after_ms=wait, records=[])
            tables.wrote(now)
        records: list[bytes] = []
        if after < version and limit > 0:
            records = stored[after : min(version, after + limit)]
        return ReadResult(version=version, role=role, retry_after_ms=0, records=records)

    async def append(
        self,
        game_id: str,
        expected: int,
        records: Sequence[bytes],
        *,
        ttl_s: int,
        token_hash: str = "",
        auth: Sequence[tuple[str, str]] = (),
        summary: Summary,
        stored: Callable[[], None] | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> AppendResult:
        """All of `records` or none, only at `expected` (append.lua); then `stored` is called and
        the feeds hear it (as the Redis store's answer comes before its publication), and the
        followers they woke run before the caller resumes (as on the Redis store's line)."""
        if meanwhile is not None:
            meanwhile()
        await asyncio.sleep(0)
        tables, now = self._tables, self._now()
        kept = tables.logs.get(game_id, now)
        version = len(kept) if kept is not None else 0
        if version != expected:  # before the rate: a conflict takes no token
            tail = kept[expected:] if kept is not None and expected < version else []
            return AppendResult("conflict", version=version, records=list(tail))
        if token_hash and self.rate_per_s > 0:
            wait = _take(tables.rates, (game_id, token_hash), now, self.rate_per_s, self.burst)
            if wait:
                return AppendResult("limited", retry_after_ms=wait)
            tables.wrote(now)
        if records:
            if kept is None:
                kept = tables.logs.make(game_id, [])
            kept.extend(records)
            version = len(kept)
        if auth:
            roles = tables.auths.get(game_id, now)
            if roles is None:
                roles = tables.auths.make(game_id, {})
            roles.update(auth)
        self._keep_meta(game_id, version, summary, ttl_s, bool(auth) or expected == 0, now)
        if expected == 0:
            self._list(game_id, summary.created_ms)  # listed as it is made (append.lua)
        tables.wrote(now)
        if stored is not None:
            stored()
        for feed in list(tables.feeds):
            feed.publish(game_id, version, list(records))
        if stored is not None:
            await asyncio.sleep(0)
        return AppendResult("ok", version=version)

    def _keep_meta(
        self, game_id: str, version: int, summary: Summary, ttl_s: int, authed: bool, now: float
    ) -> None:
        """Write the meta; set every key of the game to live `ttl_s` more seconds when that moves
        their deadline by more than a minute, or auth was written, or the log starts (as
        append.lua does)."""
        tables = self._tables
        meta = tables.metas.get(game_id, now)
        if meta is None:
            meta = tables.metas.make(game_id, _Meta(0, "", "", 0, 0))
        meta.version = version
        meta.kind, meta.status = summary.kind, summary.status
        meta.players, meta.created_ms = summary.players, summary.created_ms
        meta.seeded = summary.seeded
        until_s = int(now * 1000) // 1000 + ttl_s
        if authed or meta.until_s is None or abs(until_s - meta.until_s) > _REFRESH_S:
            meta.until_s = until_s
            for keys in (tables.logs, tables.metas, tables.auths):
                keys.expire(game_id, ttl_s, now)

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Registered tables that have not lapsed, newest first, of `kind` and in `status` (any
        when None) as their latest append says; a page from `offset`, and whether more follow."""
        await asyncio.sleep(0)
        tables, now = self._tables, self._now()
        found: list[tuple[int, str, Summary]] = []
        for game_id, score in list(tables.listed.items()):
            meta = tables.metas.get(game_id, now)
            if meta is None:
                del tables.listed[game_id]
                continue
            if (kind is not None and meta.kind != kind) or (
                status is not None and meta.status != status
            ):
                continue
            entry = Summary(
                game_id,
                meta.kind,
                meta.status,
                meta.players,
                meta.created_ms,
                meta.version,
                meta.seeded,
            )
            found.append((score, game_id, entry))
        found.sort(key=lambda f: (f[0], f[1]), reverse=True)  # as ZREVRANGE orders ties
        page = [entry for _, _, entry in found[offset : offset + limit]]
        return page, len(found) > offset + limit

    async def register(self, game_id: str, created_ms: int) -> None:
        """List a table its first append did not list, after the tables listed before it in its
        millisecond (the 1023rd and later of one millisecond tie, then order by id, as in Redis);
        a table that has lapsed is not listed. (Every first append lists its table.)"""
        await asyncio.sleep(0)
        tables, now = self._tables, self._now()
        if tables.metas.get(game_id, now) is None or game_id in tables.listed:
            return  # lapsed, or listed by its first append
        self._list(game_id, created_ms)
        tables.wrote(now)

    def _list(self, game_id: str, created_ms: int) -> None:
        tables = self._tables
        base = created_ms * _TIE
        top = max((s for s in tables.listed.values() if base <= s < base + _TIE), default=None)
        tables.listed[game_id] = base + (1 if top is None else min(_TIE - 1, top - base + 1))

    async def take(self, key: str, rate_per_s: float, burst: int, n: int = 1) -> int:
        """Take `n` from the bucket `key`: 0 when taken, else ms to wait (bucket.lua)."""
        if rate_per_s <= 0:
            raise ValueError("a bucket needs a rate above 0")  # the Redis script fails too
        await asyncio.sleep(0)
        tables, now = self._tables, self._now()
        wait = _take(tables.buckets, key, now, rate_per_s, burst, n)
        tables.wrote(now)
        return wait

    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        await asyncio.sleep(0)
        return self._tables.answers.get((game_id, key), self._now())

    async def keep_answer(self, game_id: str, key: str, answer: bytes, ttl_s: int) -> None:
        await asyncio.sleep(0)
        tables, now = self._tables, self._now()
        tables.answers.put((game_id, key), answer, max(1, ttl_s), now)
        tables.wrote(now)

    async def arm(self, game_id: str, due_ms: int) -> None:
        """Wake the table at `due_ms` at the latest (an earlier deadline stays)."""
        await asyncio.sleep(0)
        deadlines = self._tables.deadlines
        deadlines[game_id] = min(due_ms, deadlines.get(game_id, due_ms))

    async def due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[int, list[str]]:
        """Lease up to `limit` due tables until `now_ms + lease_ms`; and that lease's end."""
        await asyncio.sleep(0)
        deadlines, lease = self._tables.deadlines, now_ms + lease_ms
        found = sorted((due, game_id) for game_id, due in deadlines.items() if due <= now_ms)
        taken = [game_id for _, game_id in found[:limit]]
        for game_id in taken:
            deadlines[game_id] = lease
        return lease, taken

    async def settle(self, game_id: str, lease: int, due_ms: int | None) -> None:
        """Give a leased table its next deadline (an earlier one armed meanwhile stays)."""
        await asyncio.sleep(0)
        deadlines = self._tables.deadlines
        if deadlines.get(game_id) == lease:
            if due_ms is None:
                del deadlines[game_id]
            else:
                deadlines[game_id] = due_ms
        elif due_ms is not None:
            deadlines[game_id] = min(due_ms, deadlines.get(game_id, due_ms))

    def holds(self, game_id: str) -> set[str]:
        """Which of a game's keys the store holds now: `log`, `meta`, `auth`."""
        tables, now = self._tables, self._now()
        kept = {
            "log": tables.logs.get(game_id, now),
            "meta": tables.metas.get(game_id, now),
            "auth": tables.auths.get(game_id, now),
        }
        return {name for name, value in kept.items() if value is not None}


class MemoryChangeFeed:
    """`ChangeFeed` in memory: hears every append of the stores it is attached to, as it is made.

    Nothing is lost in memory, so a game's feed is unbroken from the first wait on it on (its
    `generation` stays) until `cut`, which begins a new one for every game, as a reconnection of
    the Redis notifier does. Several use-case instances may listen to one feed.
    """

    def __init__(self) -> None:
        self._waiters = WaitersByGame()
        self._listeners: list[Appended] = []
        self._generations: dict[str, int] = {}
        self._counter = itertools.count(1)

    @contextlib.asynccontextmanager
    async def waiting(self, game_id: str, viewer: int | None = None) -> AsyncIterator[Waiter]:
        """A waiter for changes of `game_id`, for the duration of the block."""
        waiters, waiter = self._waiters.join(game_id, viewer)
        if game_id not in self._generations:
            self._generations[game_id] = next(self._counter)
        try:
            yield waiter
        finally:
            self._waiters.leave(game_id, waiters, waiter)

    def listen(self, appended: Appended) -> None:
        """Hand every append heard to `appended` too (before the waiters are woken)."""
        self._listeners.append(appended)

    def generation(self, game_id: str) -> int | None:
        """The id of the game's unbroken feed; None before anyone waited on it."""
        return self._generations.get(game_id)

    def viewers(self, game_id: str) -> set[int | None]:
        """Whom the waiters of a game wait for: seats, and None (spectators)."""
        return self._waiters.viewers(game_id)

    def wake(self, game_id: str, version: int | None = None, last: int | None = None) -> None:
        """Wake the waiters of a game: see `Notifier.wake`."""
        self._waiters.wake(game_id, version, last)

    def publish(self, game_id: str, version: int, records: list[bytes]) -> None:
        """An append was made (the store calls this): tell the listeners, then wake the waiters.

        A listener that fails ends the game's feed (a new generation), as a message the Redis
        notifier could not take does: who follows the game reads it again.
        """
        heard: int | None = version
        for appended in list(self._listeners):
            try:
                appended(game_id, version, records)
            except Exception:
                log.exception("could not take an append of %s", game_id)
                if game_id in self._generations:
                    self._generations[game_id] = next(self._counter)
                heard = None  # wakes every waiter, woken for this version or not: they read
        self.wake(game_id, heard)

    def cut(self) -> None:
        """Break every game's feed, as a lost connection does: new generations, waiters woken."""
        for game_id in self._generations:
            self._generations[game_id] = next(self._counter)
        for game_id in list(self._waiters):
            self.wake(game_id)


if TYPE_CHECKING:  # both keep their port's contract (nothing else in the package uses them)
    _STORE: EventStore = MemoryEventStore()
    _FEED: ChangeFeed = MemoryChangeFeed()
