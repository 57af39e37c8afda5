"""The stores under test in the store contract suites (`test_store_*.py`): the Redis stores on
the session's real Redis (the Redis notifier as the change feed), and the memory stores on a
fake clock (`MemoryChangeFeed`); what a test needs beside a store (time passing, a look at what
is kept, a change feed); and the helpers every suite writes its tables with. The fixtures that
hand them out are in `conftest.py`."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.lobby import LOBBY_INDEXES, LOBBY_KEY, OLD_LOBBY_KEY
from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.scripts import game_keys
from kronikas.application.ports import AppendRequest, AppendResult, Summary

TTL = 600

Store = RedisStores | MemoryStores
Feed = Notifier | MemoryChangeFeed

_SESSION = secrets.token_hex(4)
_IDS = itertools.count()


def new_id() -> str:
    """16 hex digits, unique in the session by construction (the prefix keeps runs apart)."""
    return f"{_SESSION}{next(_IDS):08x}"


def summary(game_id: str, status: str = "open", kind: str = "cheat", players: int = 0) -> Summary:
    return Summary(game_id, kind, status, players, int(time.time() * 1000), 0)


def events(*names: str) -> list[bytes]:
    return [f'{{"e":"{name}"}}'.encode() for name in names]


async def append(
    store: Store,
    game_id: str,
    expected: int,
    records: Sequence[bytes],
    **kwargs: Any,
) -> AppendResult:
    kwargs.setdefault("ttl_s", TTL)
    kwargs.setdefault("summary", summary(game_id))
    return await store.log.append(AppendRequest(game_id, expected, records, **kwargs))


async def page_of(
    store: Store, kind: str | None, status: str | None, offset: int = 0, limit: int = 100
) -> tuple[list[str], bool]:
    page, more = await store.lobby.page(kind, status, offset, limit)
    return [s.game_id for s in page], more


class Progress:
    """An append's progress (`AppendProgress`) that calls back."""

    def __init__(
        self, on_stored: Callable[[], None], on_meanwhile: Callable[[], None] = lambda: None
    ) -> None:
        self.on_stored, self.on_meanwhile = on_stored, on_meanwhile

    def stored(self) -> None:
        self.on_stored()

    def meanwhile(self) -> None:
        self.on_meanwhile()


class FakeClock:
    """Seconds since the epoch that pass only when a test says so."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


# -- the stores under test -------------------------------------------------------------------------


class Backend:
    """A store under test, and what a test needs beside it: time passing, a look at what is kept,
    a change feed. `listed` holds the tables a test listed in the lobby, and `latest` the summary
    of each one's latest append."""

    store: Store
    quiet: float
    """How long to listen before concluding that no notification is coming."""

    def __init__(self) -> None:
        self.listed: list[str] = []
        self.latest: dict[str, Summary] = {}

    def limited(self) -> Store:
        """A store on the same data that allows each token 2 requests a second, 2 at once."""
        raise NotImplementedError

    async def another(self) -> Store:
        """The store of a second process on the same data."""
        raise NotImplementedError

    async def elapse(self, seconds: float) -> None:
        raise NotImplementedError

    async def log_of(self, game_id: str) -> list[bytes]:
        """Every event the store keeps for a game."""
        raise NotImplementedError

    async def holds(self, game_id: str) -> set[str]:
        """Which of a game's `log`, `meta` and `auth` the store keeps."""
        raise NotImplementedError

    async def lapse(self, game_id: str) -> None:
        """End a game as if its time had run out."""
        raise NotImplementedError

    def feed(self) -> contextlib.AbstractAsyncContextManager[Feed]:
        """A change feed that hears the appends of this backend's stores."""
        raise NotImplementedError

    async def close(self) -> None:
        pass


class RedisBackend(Backend):
    quiet = 0.3

    def __init__(self, redis: Redis, redis_url: str) -> None:
        super().__init__()
        self.redis = redis
        self.redis_url = redis_url
        self.store = RedisStores(redis)
        self._clients: list[Redis] = []

    def limited(self) -> RedisStores:
        return RedisStores(self.redis, rate_per_s=2, burst=2)

    async def another(self) -> RedisStores:
        client = Redis.from_url(self.redis_url)  # a connection of its own
        self._clients.append(client)
        return RedisStores(client)

    async def elapse(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def log_of(self, game_id: str) -> list[bytes]:
        records = await self.redis.lrange(game_keys(game_id)["log"], 0, -1)
        return [r.encode() if isinstance(r, str) else r for r in records]

    async def holds(self, game_id: str) -> set[str]:
        return {name for name, key in game_keys(game_id).items() if await self.redis.exists(key)}

    async def lapse(self, game_id: str) -> None:
        await self.redis.delete(*game_keys(game_id).values())

    def feed(self) -> contextlib.AbstractAsyncContextManager[Notifier]:
        return listening(self.redis)

    async def close(self) -> None:
        """The tables listed leave the shared lobby, unseen by other tests."""
        if self.listed:
            pipe = self.redis.pipeline(transaction=False)
            names = await self.redis.smembers(LOBBY_INDEXES)
            for index in {LOBBY_KEY, *(i.decode() for i in names)}:
                pipe.zrem(index, *self.listed)
            pipe.zrem(OLD_LOBBY_KEY, *self.listed)
            await pipe.execute()
        for client in self._clients:
            await client.aclose()


class MemoryBackend(Backend):
    quiet = 0.0
    """The memory feed hears an append as it is made."""

    def __init__(self) -> None:
        super().__init__()
        self.clock = FakeClock()
        self.store: MemoryStores = MemoryStores(clock=self.clock)

    def limited(self) -> MemoryStores:
        return self.store.sharing(rate_per_s=2, burst=2)

    async def another(self) -> MemoryStores:
        return self.store.sharing()

    async def elapse(self, seconds: float) -> None:
        self.clock.advance(seconds)

    async def log_of(self, game_id: str) -> list[bytes]:
        return (await self.store.log.read(game_id, 0, "", 1 << 30, rate=False)).records

    async def holds(self, game_id: str) -> set[str]:
        return self.store.holds(game_id)

    async def lapse(self, game_id: str) -> None:
        self.store.lapse(game_id)

    @contextlib.asynccontextmanager
    async def feed(self) -> AsyncIterator[MemoryChangeFeed]:
        feed = MemoryChangeFeed()
        self.store.attach(feed)
        yield feed


def apart(redis_url: str) -> str:
    """The session's Redis, database 9, which no service process of the session uses. One
    sorted set holds every table's deadline, and those processes lease what is due in it four
    times a second: on their database they took this suite's deadlines (due in 1970) from under
    it, and this suite's `due` could lease theirs."""
    return urlunsplit(urlsplit(redis_url)._replace(path="/9"))


@contextlib.asynccontextmanager
async def listening(redis: Redis, linger_s: float = 30.0) -> AsyncIterator[Notifier]:
    """A started notifier, stopped afterwards."""
    notifier = Notifier(redis, linger_s=linger_s)
    notifier.start()
    try:
        yield notifier
    finally:
        await notifier.stop()
