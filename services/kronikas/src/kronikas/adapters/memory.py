"""The store ports and the change feed in memory: the Redis adapters' behaviour, without Redis.

For use-case tests and local experiments. Each port is a small class on the data of one
`MemoryRedis` (adapters/memory_data.py): the event log and the lobby (adapters/memory_log.py),
the rate buckets, the stored answers and the deadlines here, each keeping what its Redis
counterpart keeps with the same results, each operation atomic as a script is. The keys of a
game lapse by the data's clock as Redis keys do by their TTLs, and each append is handed to the
change feeds attached to the data as the append's publication is by adapters/notifier.py. The
clock is injectable (seconds, like `time.time`), so a test moves time on instead of sleeping.
`MemoryStores` is every port on one `MemoryRedis`: several use-case instances (as several
processes) may share it, or stores `sharing` its data, with a feed each or one feed between
them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncIterator, Iterable

from kronikas.adapters.memory_data import Clock, MemoryRedis, take_from
from kronikas.adapters.memory_log import MemoryLobby, MemoryLog
from kronikas.adapters.waiter import Waiter, WaitersByGame
from kronikas.application.ports import Appended, ChangeFeed, Stores

log = logging.getLogger("kronikas.memory")


class MemoryBuckets:
    """`RateBuckets` in memory (bucket.lua)."""

    def __init__(self, data: MemoryRedis) -> None:
        self.data = data

    async def take(self, key: str, rate_per_s: float, burst: int, n: int = 1) -> int:
        """Take `n` from the bucket `key`: 0 when taken, else ms to wait (bucket.lua)."""
        if rate_per_s <= 0:
            raise ValueError("a bucket needs a rate above 0")  # the Redis script fails too
        await asyncio.sleep(0)
        data, now = self.data, self.data.clock()
        wait = take_from(data.buckets, key, now, rate_per_s, burst, n)
        data.wrote(now)
        return wait


class MemoryAnswers:
    """`StoredAnswers` in memory: each lapses as its Redis key would."""

    def __init__(self, data: MemoryRedis) -> None:
        self.data = data

    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        await asyncio.sleep(0)
        return self.data.answers.get((game_id, key), self.data.clock())

    async def keep_answer(self, game_id: str, key: str, answer: bytes, ttl_s: int) -> None:
        await asyncio.sleep(0)
        data, now = self.data, self.data.clock()
        data.answers.put((game_id, key), answer, max(1, ttl_s), now)
        data.wrote(now)


class MemoryDeadlines:
    """`Deadlines` in memory: each table's earliest deadline, as the Redis sorted set."""

    def __init__(self, data: MemoryRedis) -> None:
        self.deadlines = data.deadlines

    async def arm(self, game_id: str, due_ms: int) -> None:
        """Wake the table at `due_ms` at the latest (an earlier deadline stays)."""
        await asyncio.sleep(0)
        deadlines = self.deadlines
        deadlines[game_id] = min(due_ms, deadlines.get(game_id, due_ms))

    async def due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[int, list[str]]:
        """Lease up to `limit` due tables until `now_ms + lease_ms`; and that lease's end."""
        await asyncio.sleep(0)
        deadlines, lease = self.deadlines, now_ms + lease_ms
        found = sorted((due, game_id) for game_id, due in deadlines.items() if due <= now_ms)
        taken = [game_id for _, game_id in found[:limit]]
        for game_id in taken:
            deadlines[game_id] = lease
        return lease, taken

    async def settle(self, game_id: str, lease: int, due_ms: int | None) -> None:
        """Give a leased table its next deadline (an earlier one armed meanwhile stays)."""
        await asyncio.sleep(0)
        deadlines = self.deadlines
        if deadlines.get(game_id) == lease:
            if due_ms is None:
                del deadlines[game_id]
            else:
                deadlines[game_id] = due_ms
        elif due_ms is not None:
            deadlines[game_id] = min(due_ms, deadlines.get(game_id, due_ms))


class MemoryStores(Stores):
    """Every store port in memory, on one `MemoryRedis` (a new one unless `data` is given).

    `rate_per_s` and `burst` limit each token's reads and appends at a table, as the Redis log's
    do (0: no limit); `clock` tells the time in seconds; `feeds` hear every append.
    """

    log: MemoryLog
    lobby: MemoryLobby

    def __init__(
        self,
        rate_per_s: float = 0,
        burst: int = 1,
        *,
        clock: Clock = time.time,
        feeds: Iterable[MemoryChangeFeed] = (),
        data: MemoryRedis | None = None,
    ) -> None:
        self.data = data = MemoryRedis(clock) if data is None else data
        data.feeds.extend(feeds)
        super().__init__(
            log=MemoryLog(data, rate_per_s, burst),
            lobby=MemoryLobby(data),
            buckets=MemoryBuckets(data),
            answers=MemoryAnswers(data),
            deadlines=MemoryDeadlines(data),
        )

    def sharing(self, rate_per_s: float | None = None, burst: int | None = None) -> MemoryStores:
        """Stores on the same data (as a second process on the same Redis), with their own
        limits (these stores' when None)."""
        return MemoryStores(
            self.log.rate_per_s if rate_per_s is None else rate_per_s,
            self.log.burst if burst is None else burst,
            data=self.data,
        )

    def attach(self, feed: MemoryChangeFeed) -> None:
        """Hand every append made from now on, by any store sharing this data, to `feed`."""
        if feed not in self.data.feeds:
            self.data.feeds.append(feed)

    def lapse(self, game_id: str) -> None:
        """End a game now, as if its keys' time had run out (its log, meta, auth)."""
        data = self.data
        for keys in (data.logs, data.metas, data.auths):
            keys.expire(game_id, 0, 0.0)

    def holds(self, game_id: str) -> set[str]:
        """Which of a game's keys the store holds now: `log`, `meta`, `auth`."""
        data, now = self.data, self.data.clock()
        kept = {
            "log": data.logs.get(game_id, now),
            "meta": data.metas.get(game_id, now),
            "auth": data.auths.get(game_id, now),
        }
        return {name for name, value in kept.items() if value is not None}


class MemoryChangeFeed(ChangeFeed):
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
