"""The event store's contract: one test per promise it keeps, kept by both stores.

The contract suite runs each test on the Redis store (the session's real Redis, and the Redis
notifier as the change feed) and on the memory store (`MemoryStores` on a fake clock, and
`MemoryChangeFeed`). The tests after it are about Redis itself: the keys and their TTLs, the
payload an append publishes, the notifier's subscriptions and the lobby's indexes; the last ones
are about the memory store's clock, which stands in for Redis's TTLs.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from kronikas.adapters.event_store import RedisStores, notify_channel
from kronikas.adapters.lobby import LOBBY_INDEXES, LOBBY_KEY, OLD_LOBBY_KEY, lobby_index
from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.scripts import game_keys
from kronikas.application.ports import AppendRequest, AppendResult, ReadResult, Summary

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


@pytest.fixture(params=["redis", "memory"])
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    """Each contract test runs on both stores; only the Redis one needs the session's Redis."""
    if request.param == "memory":
        yield MemoryBackend()
        return
    redis_url = apart(request.getfixturevalue("redis_url"))
    client = Redis.from_url(redis_url)
    on_redis = RedisBackend(client, redis_url)
    try:
        yield on_redis
    finally:
        await on_redis.close()
        await client.aclose()


@pytest.fixture
def store(backend: Backend) -> Store:
    return backend.store


@pytest.fixture
def limited(backend: Backend) -> Store:
    return backend.limited()


@pytest.fixture
async def on_redis(redis: Redis, redis_url: str) -> AsyncIterator[RedisBackend]:
    """The Redis store alone, for the tests about Redis itself."""
    backend = RedisBackend(redis, redis_url)
    try:
        yield backend
    finally:
        await backend.close()


@contextlib.asynccontextmanager
async def listening(redis: Redis, linger_s: float = 30.0) -> AsyncIterator[Notifier]:
    """A started notifier, stopped afterwards."""
    notifier = Notifier(redis, linger_s=linger_s)
    notifier.start()
    try:
        yield notifier
    finally:
        await notifier.stop()


# == the contract ==================================================================================

# -- appending at an expected version ------------------------------------------------------------


async def test_append_at_the_expected_version_numbers_events_from_one(store: Store) -> None:
    game = new_id()
    first = await append(store, game, 0, events("a"))
    assert (first.outcome, first.version) == ("ok", 1)
    second = await append(store, game, 1, events("b"))
    assert (second.outcome, second.version) == ("ok", 2)
    third = await append(store, game, 2, events("c", "d"))
    assert (third.outcome, third.version) == ("ok", 4)
    read = await store.log.read(game, 0, "", 100)
    assert read.version == 4
    assert read.records == events("a", "b", "c", "d")


async def test_several_events_are_appended_all_or_none(backend: Backend, store: Store) -> None:
    game = new_id()
    done = await append(store, game, 0, events("a", "b", "c", "d", "e"))
    assert (done.outcome, done.version) == ("ok", 5)
    refused = await append(store, game, 3, events("x", "y", "z"))
    assert refused.outcome == "conflict"
    assert await backend.log_of(game) == events("a", "b", "c", "d", "e")


async def test_records_are_kept_byte_for_byte(store: Store) -> None:
    game = new_id()
    odd = [b"\x00\xff\n\r", "Krónikás ♥".encode(), b"", b"x" * 10_000]
    assert (await append(store, game, 0, odd)).version == 4
    assert (await store.log.read(game, 0, "", 10)).records == odd


async def test_stale_version_is_a_conflict_with_the_events_after_it(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b", "c"))
    conflict = await append(store, game, 1, events("x"), auth=[("t", "0")])
    assert conflict.outcome == "conflict"
    assert conflict.version == 3
    assert conflict.records == events("b", "c")
    assert await backend.log_of(game) == events("a", "b", "c")
    assert "auth" not in await backend.holds(game)
    assert (await store.log.read(game, 0, "t", 1)).role == ""
    assert (await append(store, game, 0, events("y"))).records == events("a", "b", "c")


async def test_expected_beyond_the_log_is_a_conflict_without_events(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b"))
    conflict = await append(store, game, 5, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 2, [])
    assert await backend.log_of(game) == events("a", "b")

    empty = new_id()
    conflict = await append(store, empty, 1, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 0, [])
    assert await backend.holds(empty) == set()


# -- reading -------------------------------------------------------------------------------------


async def test_read_returns_the_events_after_a_version_up_to_a_limit(store: Store) -> None:
    game = new_id()
    await append(store, game, 0, events("1", "2", "3", "4", "5"))
    after_two = await store.log.read(game, 2, "", 100)
    assert (after_two.version, after_two.records) == (5, events("3", "4", "5"))
    assert (after_two.role, after_two.retry_after_ms) == ("", 0)
    assert (await store.log.read(game, 1, "", 2)).records == events("2", "3")
    assert (await store.log.read(game, 4, "", 2)).records == events("5")
    at_end = await store.log.read(game, 5, "", 100)
    assert (at_end.version, at_end.records) == (5, [])
    beyond = await store.log.read(game, 9, "", 100)
    assert (beyond.version, beyond.records) == (5, [])
    assert (await store.log.read(game, 0, "", 0)).records == []


async def test_reading_an_unknown_game_finds_version_zero(store: Store) -> None:
    read = await store.log.read(new_id(), 0, "some-token-hash", 100)
    assert (read.version, read.role, read.retry_after_ms, read.records) == (0, "", 0, [])


async def test_auth_entries_are_written_with_the_append_and_read_back_as_roles(
    store: Store,
) -> None:
    game = new_id()
    await append(store, game, 0, events("created"), auth=[("host-hash", "host")])
    await append(store, game, 1, events("joined"), auth=[("seat0-hash", "0")])
    await append(store, game, 2, events("joined", "joined"), auth=[("s1", "1"), ("s2", "2")])
    assert (await store.log.read(game, 0, "host-hash", 1)).role == "host"
    assert (await store.log.read(game, 0, "seat0-hash", 1)).role == "0"
    assert (await store.log.read(game, 0, "s2", 1)).role == "2"
    assert (await store.log.read(game, 0, "unknown-hash", 1)).role == ""
    assert (await store.log.read(game, 0, "", 1)).role == ""


async def test_a_tables_first_append_lists_it_in_the_lobby(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    game = new_id()
    made = Summary(game, kind, "open", 0, int(time.time() * 1000), 0)
    assert (await append(store, game, 0, events("created"), summary=made)).outcome == "ok"
    backend.listed.append(game)
    assert await page_of(store, kind, None) == ([game], False)
    await store.lobby.register(game, made.created_ms)  # an older caller registers: listed once
    assert await page_of(store, kind, "open") == ([game], False)


# -- rate limiting -------------------------------------------------------------------------------


async def test_appends_beyond_the_burst_are_limited_until_tokens_refill(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    assert (await append(limited, game, 0, events("a"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "ok"
    refused = await append(limited, game, 2, events("c"), token_hash="t")
    assert refused.outcome == "limited"
    assert 0 < refused.retry_after_ms <= 500
    assert await backend.log_of(game) == events("a", "b")
    other = await append(limited, game, 2, events("c"), token_hash="another")
    assert other.outcome == "ok", "the bucket is per token"
    await backend.elapse(refused.retry_after_ms / 1000 + 0.05)
    assert (await append(limited, game, 3, events("d"), token_hash="t")).outcome == "ok"


async def test_reads_beyond_the_burst_are_limited_until_tokens_refill(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    refused = await limited.log.read(game, 0, "t", 10)
    assert 0 < refused.retry_after_ms <= 500
    assert refused.records == []
    unlimited = await limited.log.read(game, 0, "t", 10, rate=False)
    assert (unlimited.retry_after_ms, unlimited.records) == (0, events("a"))
    await backend.elapse(refused.retry_after_ms / 1000 + 0.05)
    again = await limited.log.read(game, 0, "t", 10)
    assert (again.retry_after_ms, again.records) == (0, events("a"))


async def test_reads_and_appends_share_a_tokens_bucket(limited: Store) -> None:
    game = new_id()
    first = await append(limited, game, 0, events("a"), token_hash="t", auth=[("t", "0")])
    assert first.outcome == "ok"
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "limited"
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms > 0


async def test_a_tokens_bucket_is_its_own_at_each_table(limited: Store) -> None:
    game, other = new_id(), new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    await append(limited, other, 0, events("a"), auth=[("t", "1")])
    for _ in range(2):
        assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms > 0
    assert (await limited.log.read(other, 0, "t", 10)).retry_after_ms == 0


async def test_a_token_the_table_does_not_know_takes_from_no_bucket(limited: Store) -> None:
    # A made-up token has no bucket of its own (its caller charges the client's address), and
    # makes none: its reads are not limited here.
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    for _ in range(5):
        read = await limited.log.read(game, 0, "made-up", 10)
        assert (read.role, read.retry_after_ms, read.records) == ("", 0, events("a"))
    assert (await limited.log.read(game, 0, "t", 10)).role == "0"


async def test_a_kept_answer_is_read_back_for_its_game_and_key_until_it_expires(
    store: Store,
) -> None:
    game, other = new_id(), new_id()
    await store.answers.keep_answer(game, "k", b'{"version": 2}', 60)
    assert await store.answers.answer_of(game, "k") == b'{"version": 2}'
    assert await store.answers.answer_of(game, "j") is None
    assert await store.answers.answer_of(other, "k") is None
    await store.answers.keep_answer(game, "short", b"x", 0)  # at least a second, never for ever
    assert await store.answers.answer_of(game, "short") == b"x"


async def test_a_conflict_takes_no_token_and_is_answered_before_any_rate_check(
    limited: Store,
) -> None:
    # A retry of an append made under an idempotency key meets a conflict whose events record
    # the key (application/tables.py): it must never be refused as limited.
    game = new_id()
    await append(limited, game, 0, events("a"))
    for _ in range(5):
        stale = await append(limited, game, 0, events("x"), token_hash="t")
        assert (stale.outcome, stale.records) == ("conflict", events("a"))
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 2, events("c"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 3, events("d"), token_hash="t")).outcome == "limited"
    for _ in range(5):  # the bucket is empty: stale appends are answered all the same
        stale = await append(limited, game, 1, events("x"), token_hash="t")
        assert (stale.outcome, stale.records) == ("conflict", events("b", "c"))


async def test_without_a_token_there_is_no_limit(limited: Store) -> None:
    game = new_id()
    for version in range(6):
        assert (await append(limited, game, version, events("e"))).outcome == "ok"
        assert (await limited.log.read(game, 0, "", 1)).retry_after_ms == 0


async def test_a_bucket_allows_its_burst_then_says_how_long_until_it_refills(
    backend: Backend, store: Store
) -> None:
    key = f"test-{new_id()}"
    assert [await store.buckets.take(key, 2, 3) for _ in range(3)] == [0, 0, 0]
    wait = await store.buckets.take(key, 2, 3)
    assert 0 < wait <= 500
    assert await store.buckets.take(f"{key}-other", 2, 3) == 0, "a bucket per key"
    await backend.elapse(wait / 1000 + 0.05)
    assert await store.buckets.take(key, 2, 3) == 0
    assert await store.buckets.take(key, 2, 3) > 0


SLOW = 0.001
"""A refill rate so slow that no bucket below refills while a test runs."""


async def test_a_bucket_takes_n_at_once_and_at_most_its_burst(store: Store) -> None:
    key = f"test-{new_id()}"
    assert await store.buckets.take(key, SLOW, 10, n=4) == 0
    assert await store.buckets.take(key, SLOW, 10, n=4) == 0
    assert await store.buckets.take(key, SLOW, 10, n=4) > 0, "2 left: 4 is refused, and none taken"
    assert await store.buckets.take(key, SLOW, 10, n=2) == 0
    assert await store.buckets.take(key, SLOW, 10, n=1) > 0
    fresh = f"test-{new_id()}"
    assert await store.buckets.take(fresh, SLOW, 10, n=50) == 0, "a full bucket gives its burst"
    assert await store.buckets.take(fresh, SLOW, 10, n=1) > 0


async def test_a_read_takes_its_cost_from_a_known_tokens_bucket_alone(limited: Store) -> None:
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    assert (await limited.log.read(game, 0, "t", 10, cost=2)).retry_after_ms == 0
    refused = await limited.log.read(game, 0, "t", 10, cost=1)
    assert refused.retry_after_ms > 0 and refused.records == [], "t's 2 at once were spent"
    made_up = await limited.log.read(game, 0, "made-up", 10, cost=2)
    assert (made_up.retry_after_ms, made_up.role) == (0, ""), "an unknown token has no bucket"
    unpaid = await limited.log.read(game, 0, "t", 10, rate=False, cost=2)
    assert (unpaid.retry_after_ms, unpaid.records) == (0, events("a"))


# -- the change feed -------------------------------------------------------------------------------


async def test_the_change_feed_wakes_the_waiters_of_the_game_that_changed(
    backend: Backend, store: Store
) -> None:
    game, other = new_id(), new_id()
    async with backend.feed() as feed:
        async with feed.waiting(game) as waiter, feed.waiting(other) as bystander:
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
            assert not bystander.changed
        async with feed.waiting(game) as waiter:
            await append(store, other, 0, events("a"))
            assert not await waiter.wait(backend.quiet)
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


async def test_a_change_made_as_soon_as_the_waiter_is_handed_out_wakes_it(
    backend: Backend, store: Store
) -> None:
    """No sleep between entering and appending."""
    async with backend.feed() as feed:
        for _ in range(20):
            game = new_id()
            async with feed.waiting(game) as waiter:
                await append(store, game, 0, events("a"))
                assert await waiter.wait(1.0)


async def test_a_waiter_stays_woken_until_cleared_and_wakes_for_this_process_too(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    async with backend.feed() as feed, feed.waiting(game) as waiter:
        await append(store, game, 0, events("a"))
        assert await waiter.wait(1.0)
        assert await waiter.wait(0)
        waiter.clear()
        assert not await waiter.wait(backend.quiet)
        feed.wake(game)  # after an append this process made
        assert await waiter.wait(0)


async def test_the_feed_hands_each_successful_append_to_its_listener_before_waking(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    heard: list[tuple[str, int, list[bytes], bool]] = []
    async with backend.feed() as feed, feed.waiting(game) as waiter:
        feed.listen(lambda g, v, r: heard.append((g, v, r, waiter.changed)))
        generation = feed.generation(game)
        assert generation is not None

        await append(limited, game, 0, events("a"))
        assert await waiter.wait(1.0)
        waiter.clear()
        await append(limited, game, 1, events("b", "c"), token_hash="t")
        assert await waiter.wait(1.0)
        waiter.clear()
        assert heard == [
            (game, 1, events("a"), False),
            (game, 3, events("b", "c"), False),
        ]

        assert (await append(limited, game, 1, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 9, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 3, events("d"), token_hash="t")).version == 4
        assert await waiter.wait(1.0)
        waiter.clear()
        assert (await append(limited, game, 4, events("x"), token_hash="t")).outcome == "limited"
        await append(limited, game, 4, events("e"))
        assert await waiter.wait(1.0)
        assert heard[2:] == [
            (game, 4, events("d"), False),
            (game, 5, events("e"), False),
        ], "a refused append is not heard"
        assert feed.generation(game) == generation, "the feed stayed unbroken"


async def test_an_append_made_calls_stored_once_before_it_returns_and_meanwhile_before(
    limited: Store,
) -> None:
    game = new_id()
    calls: list[str] = []

    async def tracked(expected: int, names: Sequence[str], **kwargs: Any) -> AppendResult:
        calls.clear()
        return await append(
            limited,
            game,
            expected,
            events(*names),
            progress=Progress(lambda: calls.append("stored"), lambda: calls.append("meanwhile")),
            **kwargs,
        )

    assert (await tracked(0, ["a", "b"])).version == 2
    assert calls == ["meanwhile", "stored"]
    assert (await tracked(2, ["c"], token_hash="t")).outcome == "ok"
    assert calls == ["meanwhile", "stored"]
    # Refused appends store nothing: `stored` is not called (what is made meanwhile is dropped).
    assert (await tracked(1, ["x"])).outcome == "conflict"
    assert "stored" not in calls
    assert (await tracked(3, ["d"], token_hash="t")).outcome == "ok"
    assert (await tracked(4, ["x"], token_hash="t")).outcome == "limited"
    assert "stored" not in calls


async def test_an_append_told_by_its_process_wakes_its_waiters_once_the_movers_last(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    async with (
        backend.feed() as feed,
        feed.waiting(game, 1) as mover,
        feed.waiting(game, 0) as other,
        feed.waiting(game, None) as spectator,
    ):
        assert feed.viewers(game) == {0, 1, None}
        woken: list[int | None] = []

        def told() -> None:  # as the application does once the store has its append
            feed.wake(game, 1, last=1)
            woken.extend(w.viewer for w in (mover, other, spectator) if w.changed)

        await append(store, game, 0, events("a"), progress=Progress(told))
        assert sorted(woken, key=str) == [0, 1, None]
        for waiter in (mover, other, spectator):
            assert await waiter.wait(0)
            waiter.clear()
        # The feed then hears the same append: nobody is woken for it again.
        assert not await other.wait(backend.quiet)
        # An append it did not tell of (another process's) wakes them.
        await append(store, game, 1, events("b"))
        assert await other.wait(1.0) and await mover.wait(1.0)
    assert feed.viewers(game) == set()


# -- the lobby -----------------------------------------------------------------------------------


async def make_listed(
    backend: Backend, kind: str, statuses: Sequence[str], by: Store | None = None
) -> list[str]:
    """Tables of `kind` with these statuses, created in order one millisecond apart."""
    store = by or backend.store
    base = int(time.time() * 1000)
    ids = []
    for i, status in enumerate(statuses):
        game = new_id()
        summary_ = Summary(game, kind, status, i, base + i, 0)
        await append(store, game, 0, events(*["e"] * (i + 1)), summary=summary_)
        await store.lobby.register(game, base + i)
        backend.listed.append(game)
        backend.latest[game] = summary_
        ids.append(game)
    return ids


async def advance(backend: Backend, game: str, status: str, by: Store | None = None) -> None:
    """Append one event to a table that changes its status (or not) to `status`."""
    store = by or backend.store
    version = (await store.log.read(game, 0, "", 0, rate=False)).version
    later = dataclasses.replace(backend.latest[game], status=status)
    result = await append(store, game, version, events("e"), summary=later)
    assert result.outcome == "ok"
    backend.latest[game] = later


async def page_of(
    store: Store, kind: str | None, status: str | None, offset: int = 0, limit: int = 100
) -> tuple[list[str], bool]:
    page, more = await store.lobby.page(kind, status, offset, limit)
    return [s.game_id for s in page], more


async def test_the_lobby_lists_newest_first_a_page_at_a_time(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open"] * 5)
    newest = ids[::-1]
    page, more = await store.lobby.page(kind, None, 0, 2)
    assert [s.game_id for s in page] == newest[:2] and more
    page, more = await store.lobby.page(kind, None, 2, 2)
    assert [s.game_id for s in page] == newest[2:4] and more
    page, more = await store.lobby.page(kind, None, 4, 2)
    assert [s.game_id for s in page] == newest[4:] and not more
    page, more = await store.lobby.page(kind, None, 0, 5)
    assert [s.game_id for s in page] == newest and not more
    assert await store.lobby.page(kind, None, 5, 2) == ([], False)
    first = page[-1]
    assert (first.kind, first.status, first.players, first.version) == (kind, "open", 0, 1)
    assert page[0].version == 5 and page[0].players == 4
    assert page[0].created_ms - first.created_ms == 4


async def test_the_lobby_filters_by_kind_and_status(backend: Backend, store: Store) -> None:
    kind, other_kind = f"test-{new_id()}", f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open", "playing", "finished", "playing"])
    others = await make_listed(backend, other_kind, ["playing"])
    playing, more = await store.lobby.page(kind, "playing", 0, 10)
    assert [s.game_id for s in playing] == [ids[3], ids[1]] and not more
    assert all(s.status == "playing" for s in playing)
    page, more = await store.lobby.page(kind, "playing", 0, 1)
    assert [s.game_id for s in page] == [ids[3]] and more
    assert [s.game_id for s in (await store.lobby.page(kind, "finished", 0, 10))[0]] == [ids[2]]
    assert [s.game_id for s in (await store.lobby.page(other_kind, None, 0, 10))[0]] == others
    every, _ = await store.lobby.page(None, None, 0, 100_000)
    assert set(ids + others) <= {s.game_id for s in every}


async def test_the_lobby_shows_the_summary_of_the_latest_append(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    [game] = await make_listed(backend, kind, ["open"])
    later = Summary(game, kind, "playing", 3, 0, 0)
    await append(store, game, 1, events("joined", "started"), summary=later)
    [entry], _ = await store.lobby.page(kind, None, 0, 10)
    assert (entry.status, entry.players, entry.version) == ("playing", 3, 3)


async def test_the_lobby_keeps_whether_a_table_is_seeded(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    seeded, plain = new_id(), new_id()
    for game, flag in ((seeded, True), (plain, False)):
        made = Summary(game, kind, "open", 0, int(time.time() * 1000), 0, seeded=flag)
        assert (await append(store, game, 0, events("created"), summary=made)).outcome == "ok"
        await store.lobby.register(game, made.created_ms)
    later = Summary(seeded, kind, "playing", 2, 0, 0, seeded=True)
    await append(store, seeded, 1, events("started"), summary=later)
    found, _ = await store.lobby.page(kind, None, 0, 10)
    assert {s.game_id: s.seeded for s in found} == {seeded: True, plain: False}


async def test_the_lobby_leaves_out_tables_that_expired(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open"] * 3)
    await backend.lapse(ids[1])
    page, more = await store.lobby.page(kind, None, 0, 10)
    assert [s.game_id for s in page] == [ids[2], ids[0]] and not more
    assert await page_of(store, kind, "open", 1, 1) == ([ids[0]], False)


async def test_a_table_that_expired_before_it_was_registered_is_not_listed(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    game = new_id()
    await append(store, game, 0, events("e"), summary=Summary(game, kind, "open", 0, 1, 0))
    backend.listed.append(game)
    await backend.lapse(game)
    await store.lobby.register(game, 1)
    assert await page_of(store, kind, None) == ([], False)


async def list_in_one_millisecond(backend: Backend, kind: str) -> tuple[list[str], str, list[str]]:
    """Fifty tables of one millisecond listed in turn by two processes; one of the millisecond
    before, listed after them; and twenty of the next millisecond, listed at once by both."""
    created_ms = int(time.time() * 1000)
    stores = [backend.store, await backend.another()]
    # Ids that sort against the order of listing: an order by id cannot pass for it.
    fresh = iter(sorted((new_id() for _ in range(71)), reverse=True))
    ids = []
    for i in range(50):
        game = next(fresh)
        by = stores[i % 2]
        summary_ = Summary(game, kind, "open", 0, created_ms, 0)
        await append(by, game, 0, events("created"), summary=summary_)
        await by.lobby.register(game, created_ms)
        backend.listed.append(game)
        ids.append(game)
    earlier = next(fresh)  # made a millisecond before them, listed after them
    summary_ = Summary(earlier, kind, "open", 0, created_ms - 1, 0)
    await append(stores[1], earlier, 0, events("created"), summary=summary_)
    await stores[1].lobby.register(earlier, created_ms - 1)
    backend.listed.append(earlier)
    together = [next(fresh) for _ in range(20)]  # listed at once, by both processes
    for i, game in enumerate(together):
        summary_ = Summary(game, kind, "playing", 0, created_ms + 1, 0)
        await append(stores[i % 2], game, 0, events("created"), summary=summary_)
    backend.listed.extend(together)
    await asyncio.gather(
        *(stores[i % 2].lobby.register(game, created_ms + 1) for i, game in enumerate(together))
    )
    return ids, earlier, together


async def test_tables_listed_in_one_millisecond_keep_the_order_they_were_listed_in(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids, earlier, together = await list_in_one_millisecond(backend, kind)
    newest = ids[::-1]
    assert await page_of(store, kind, "open") == ([*newest, earlier], False)
    assert await page_of(store, kind, None, 20, 10) == (newest[:10], True)
    assert await page_of(store, kind, "open", 10, 10) == (newest[10:20], True)
    assert await page_of(store, kind, "open", 45, 10) == ([*newest[45:], earlier], False)
    at_once, more = await page_of(store, kind, "playing")
    assert sorted(at_once) == sorted(together) and not more
    assert await page_of(store, kind, "playing") == (at_once, False), "one order, every time"


async def move_tables(backend: Backend, kind: str) -> list[str]:
    """Six open tables, three of which then change status (one twice, one not at first)."""
    ids = await make_listed(backend, kind, ["open"] * 6)
    await advance(backend, ids[1], "playing")
    await advance(backend, ids[4], "playing")
    await advance(backend, ids[4], "playing")  # no change: stays where it is
    await advance(backend, ids[4], "finished")
    await advance(backend, ids[2], "finished")
    return ids


async def test_a_table_moves_between_the_pages_of_its_status_as_it_changes(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids = await move_tables(backend, kind)
    assert await page_of(store, kind, "open", 0, 2) == ([ids[5], ids[3]], True)
    assert await page_of(store, kind, "open", 2, 2) == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([ids[1]], False)
    assert await page_of(store, kind, "finished", 0, 1) == ([ids[4]], True)
    assert await page_of(store, kind, "finished", 1, 1) == ([ids[2]], False)
    everyone, _ = await store.lobby.page(kind, None, 0, 10)
    assert [(s.game_id, s.status) for s in everyone] == [
        (ids[5], "open"),
        (ids[4], "finished"),
        (ids[3], "open"),
        (ids[2], "finished"),
        (ids[1], "playing"),
        (ids[0], "open"),
    ]
    finished, _ = await page_of(store, None, "finished", 0, 100_000)
    assert [g for g in finished if g in ids] == [ids[4], ids[2]]


# == Redis itself ==================================================================================

# -- keys: expiry and the hash tag -----------------------------------------------------------------


async def test_an_append_sets_the_ttl_of_every_key_of_the_game(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game = new_id()
    keys = game_keys(game)
    await append(store, game, 0, events("a"), ttl_s=300, auth=[("h", "host")])
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 295 <= await redis.ttl(key) <= 300, key
    await append(store, game, 1, events("b"), ttl_s=3000)
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 2995 <= await redis.ttl(key) <= 3000, key


async def test_a_kept_answer_lives_the_time_it_is_given(
    on_redis: RedisBackend, redis: Redis
) -> None:
    game = new_id()
    await on_redis.store.answers.keep_answer(game, "k", b"answer", 3600)
    assert 3595 <= await redis.ttl(f"kr:{{{game}}}:replay:k") <= 3600


async def test_an_append_moves_the_keys_expiry_only_by_more_than_a_minute_or_with_auth(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game = new_id()
    keys = game_keys(game)
    await append(store, game, 0, events("a"), ttl_s=600, auth=[("h", "host")])
    await append(store, game, 1, events("b"), ttl_s=650)  # 50 s later than set: left
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 595 <= await redis.ttl(key) <= 600, key
    await append(store, game, 2, events("c"), ttl_s=700)  # 100 s later: moved
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 695 <= await redis.ttl(key) <= 700, key
    await append(store, game, 3, events("d"), ttl_s=680, auth=[("s", "0")])  # auth: moved
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 675 <= await redis.ttl(key) <= 680, key


async def test_every_key_of_a_game_carries_its_hash_tag(
    on_redis: RedisBackend, redis: Redis
) -> None:
    limited = on_redis.limited()
    game = new_id()
    await append(
        limited,
        game,
        0,
        events("a"),
        token_hash="t",
        auth=[("h", "host")],
    )
    await limited.answers.keep_answer(game, "k", b"answer", 60)
    await limited.log.read(game, 0, "reader", 10)
    found = [key.decode() async for key in redis.scan_iter(match=f"*{game}*", count=1000)]
    tag = f"kr:{{{game}}}"
    # log, meta, auth, the rate buckets, a replayed answer (a key's record is in the log)
    expected = {f"{tag}:{name}" for name in ("log", "meta", "auth", "rate:t", "replay:k")}
    assert expected <= set(found), found
    assert all(f"{{{game}}}" in key for key in found)
    assert {key_slot(key.encode()) for key in found} == {key_slot(game.encode())}


# -- notifications -------------------------------------------------------------------------------


class Notifications:
    """The versions published about one game, from a pub/sub subscription to its channel."""

    def __init__(self, redis: Redis, game_id: str) -> None:
        self.pubsub: Any = redis.pubsub(ignore_subscribe_messages=True)
        self.channel = notify_channel(game_id)

    async def __aenter__(self) -> Notifications:
        await self.pubsub.subscribe(self.channel)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.pubsub.aclose()

    async def heard(self, quiet: float = 0.3) -> list[str]:
        """The messages published until none has come for `quiet` seconds."""
        seen: list[str] = []
        loop = asyncio.get_running_loop()
        until = loop.time() + quiet
        while (left := until - loop.time()) > 0:
            # None also stands for an ignored subscribe confirmation: keep listening.
            message = await self.pubsub.get_message(timeout=left)
            if message is None:
                continue
            assert message["channel"].decode() == self.channel
            seen.append(message["data"].decode())
            until = loop.time() + quiet
        return seen


async def test_each_successful_append_publishes_its_version_and_its_events(
    on_redis: RedisBackend, redis: Redis
) -> None:
    limited = on_redis.limited()
    game = new_id()
    async with Notifications(redis, game) as notifications:
        await append(limited, game, 0, events("a"))
        await append(limited, game, 1, events("b", "c"), token_hash="t")
        await append(limited, game, 3, events("d"), token_hash="t")
        assert await notifications.heard() == [
            '1\n{"e":"a"}',
            '3\n{"e":"b"}\n{"e":"c"}',
            '4\n{"e":"d"}',
        ]

        assert (await append(limited, game, 1, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 9, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 4, events("x"), token_hash="t")).outcome == "limited"
        assert await notifications.heard() == []


async def subscribers(redis: Redis, game_id: str) -> int:
    channel = notify_channel(game_id)
    return int(dict(await redis.pubsub_numsub(channel))[channel.encode()])


async def test_a_waiter_is_handed_out_once_the_channel_is_subscribed(
    on_redis: RedisBackend, redis: Redis
) -> None:
    """No sleep between entering and appending: the subscription is confirmed on entry."""
    async with listening(redis) as notifier:
        for _ in range(20):
            game = new_id()
            async with notifier.waiting(game) as waiter:
                assert await subscribers(redis, game) == 1
                await append(on_redis.store, game, 0, events("a"))
                assert await waiter.wait(1.0)


async def test_the_notifier_listens_only_to_games_waited_on_and_lets_go_after_a_while(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game, unwatched = new_id(), new_id()
    async with listening(redis, linger_s=0.3) as notifier:
        async with notifier.waiting(game):
            assert notifier.listening_to() == {game}
            assert await subscribers(redis, unwatched) == 0
        assert await subscribers(redis, game) == 1  # it lingers, for the next poll
        async with notifier.waiting(game) as waiter:  # ... which needs no new subscription
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
        for _ in range(100):
            if await subscribers(redis, game) == 0:
                break
            await asyncio.sleep(0.02)
        assert await subscribers(redis, game) == 0
        assert notifier.listening_to() == set()
        async with notifier.waiting(game) as waiter:  # and subscribes again when needed
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


# -- the lobby's indexes -------------------------------------------------------------------------


def indexes_of(kind: str, status: str) -> list[str]:
    """Every index that lists a table of `kind` in `status`."""
    return [LOBBY_KEY, lobby_index(kind), lobby_index(None, status), lobby_index(kind, status)]


async def test_a_read_drops_the_tables_whose_meta_expired_from_every_index(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 3)
    await redis.delete(game_keys(ids[1])["meta"])
    page, more = await store.lobby.page(kind, None, 0, 10)
    assert [s.game_id for s in page] == [ids[2], ids[0]] and not more
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ids[1]) is None, index
        assert await redis.zscore(index, ids[0]) is not None, index


async def test_tables_listed_at_once_get_scores_of_their_own_that_order_them(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    _, _, together = await list_in_one_millisecond(on_redis, kind)
    scores = [await redis.zscore(LOBBY_KEY, game) for game in together]
    assert len(set(scores)) == len(together), "two tables listed at once share a score"
    at_once, more = await page_of(on_redis.store, kind, "playing")
    assert sorted(at_once) == sorted(together) and not more
    assert at_once == [g for _, g in sorted(zip(scores, together, strict=True), reverse=True)]


async def test_the_appends_move_a_table_between_the_indexes_before_any_read(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    ids = await move_tables(on_redis, kind)
    assert await redis.zrevrange(lobby_index(kind, "open"), 0, -1) == [
        ids[i].encode() for i in (5, 3, 0)
    ]
    assert await redis.zrevrange(lobby_index(kind, "finished"), 0, -1) == [
        ids[i].encode() for i in (4, 2)
    ]
    for game in (ids[1], ids[2], ids[4]):
        assert await redis.zscore(lobby_index(None, "open"), game) is None


async def test_a_move_lost_after_the_append_is_made_by_a_read_of_the_old_status(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 4)

    async def died(*_: object) -> None:
        """The process died between the append and the move."""

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, ids[1], "playing")
    await advance(on_redis, ids[2], "playing")
    monkeypatch.undo()
    assert await redis.zscore(lobby_index(kind, "open"), ids[1]) is not None
    assert await redis.zscore(lobby_index(kind, "playing"), ids[1]) is None
    assert await page_of(store, kind, "open", 0, 2) == ([ids[3], ids[0]], False)
    for game in (ids[1], ids[2]):
        for index in (lobby_index(kind, "open"), lobby_index(None, "open")):
            assert await redis.zscore(index, game) is None
    assert await page_of(store, kind, "playing") == ([ids[2], ids[1]], False)
    assert await page_of(store, kind, "open") == ([ids[3], ids[0]], False)


async def test_a_move_lost_after_the_append_is_made_by_the_next_append(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    [game] = await make_listed(on_redis, kind, ["open"])

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, game, "playing")
    monkeypatch.undo()
    assert await redis.zscore(lobby_index(kind, "playing"), game) is None
    await advance(on_redis, game, "playing")  # the meta still says the indexes hold "open"
    assert await redis.zscore(lobby_index(kind, "playing"), game) is not None
    assert await redis.zscore(lobby_index(kind, "open"), game) is None
    assert await page_of(store, kind, "playing") == ([game], False)


async def test_a_lost_last_move_is_made_by_a_read_of_every_status(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 2)
    await advance(on_redis, ids[0], "playing")

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, ids[0], "finished")  # no append follows the last one
    monkeypatch.undo()
    assert await page_of(store, kind, "finished") == ([], False)  # not found yet, never wrong
    everyone, _ = await store.lobby.page(kind, None, 0, 10)
    assert [(s.game_id, s.status) for s in everyone] == [(ids[1], "open"), (ids[0], "finished")]
    assert await page_of(store, kind, "finished") == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([], False)
    assert await redis.zscore(lobby_index(None, "playing"), ids[0]) is None


async def test_a_move_that_entered_the_new_indexes_but_did_not_leave_the_old_is_finished_on_read(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 3)
    await advance(on_redis, ids[1], "playing")
    score = await redis.zscore(LOBBY_KEY, ids[1])
    for index in (lobby_index(kind, "open"), lobby_index(None, "open")):
        await redis.zadd(index, {ids[1]: score})  # as if the move had not left them yet
    assert await page_of(store, kind, "open", 0, 1) == ([ids[2]], True)
    assert await page_of(store, kind, "open", 1, 1) == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[1]) is None
    assert await page_of(store, kind, "playing") == ([ids[1]], False)


async def test_registering_drops_expired_tables_that_no_read_reaches(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    store = RedisStores(redis)
    ancient = new_id()  # the oldest entry of all: a new store checks it first
    await append(store, ancient, 0, events("e"), summary=Summary(ancient, kind, "open", 0, 1, 0))
    await store.lobby.register(ancient, 1)
    on_redis.listed.append(ancient)
    await redis.delete(game_keys(ancient)["meta"])
    assert await redis.zrank(LOBBY_KEY, ancient) == 0
    await make_listed(on_redis, kind, ["open"], by=RedisStores(redis))
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ancient) is None, index


async def test_the_lobby_adopts_the_tables_an_older_version_listed(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    base = int(time.time() * 1000)
    ids = []
    for i in range(3):  # an older version appended them and listed them in one sorted set
        game = new_id()
        summary_ = Summary(game, kind, "open", 0, base, 0)
        await append(store, game, 0, events("e"), summary=summary_)
        await redis.zadd(OLD_LOBBY_KEY, {game: base + i})
        on_redis.latest[game] = summary_
        ids.append(game)
    expired = new_id()
    await redis.zadd(OLD_LOBBY_KEY, {expired: base + 3})
    on_redis.listed.extend([*ids, expired])
    upgraded = RedisStores(redis)
    assert await page_of(upgraded, kind, None) == (ids[::-1], False)
    assert await page_of(upgraded, kind, "open", 1, 1) == ([ids[1]], True)
    for game in [*ids, expired]:
        assert await redis.zscore(OLD_LOBBY_KEY, game) is None
    assert await redis.zscore(LOBBY_KEY, expired) is None
    await advance(on_redis, ids[0], "playing", by=upgraded)  # moves, though never told "open"
    assert await page_of(upgraded, kind, "playing") == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[0]) is None


# == the memory store's clock ======================================================================


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


async def test_the_memory_store_ends_a_game_its_ttl_after_the_last_append(
    clock: FakeClock,
) -> None:
    store = MemoryStores(clock=clock)
    game = new_id()
    await append(store, game, 0, events("a"), ttl_s=300, auth=[("h", "host")])
    await store.lobby.register(game, 1)
    clock.advance(300)
    assert await store.log.read(game, 0, "h", 10) == ReadResult(1, "host", 0, events("a"))
    assert await page_of(store, None, None) == ([game], False)
    clock.advance(0.001)
    assert await store.log.read(game, 0, "h", 10) == ReadResult(0, "", 0, [])
    assert await page_of(store, None, None) == ([], False)
    assert store.holds(game) == set()
    assert (await append(store, game, 0, events("again"))).version == 1


async def test_the_memory_store_moves_a_games_end_only_by_more_than_a_minute_or_with_auth(
    clock: FakeClock,
) -> None:
    store = MemoryStores(clock=clock)
    kept, moved, authed = new_id(), new_id(), new_id()
    for game in (kept, moved, authed):
        await append(store, game, 0, events("a"), ttl_s=600)
    clock.advance(30)
    await append(store, kept, 1, events("b"), ttl_s=600)  # 30 s later than set: left
    await append(store, authed, 1, events("b"), ttl_s=600, auth=[("s", "0")])
    clock.advance(31)
    await append(store, moved, 1, events("b"), ttl_s=600)  # 61 s later: moved
    clock.advance(600 - 61)
    assert store.holds(kept) == store.holds(moved) == {"log", "meta"}
    assert store.holds(authed) == {"log", "meta", "auth"}
    clock.advance(0.001)
    assert store.holds(kept) == set()
    clock.advance(30)
    assert store.holds(authed) == set()
    assert (await store.log.read(moved, 0, "", 10)).version == 2
    clock.advance(31)
    assert store.holds(moved) == set()


async def test_the_memory_stores_buckets_refill_by_its_clock(clock: FakeClock) -> None:
    store = MemoryStores(rate_per_s=2, burst=2, clock=clock)
    game = new_id()
    await append(store, game, 0, events("a"), auth=[("t", "0")])
    assert [(await store.log.read(game, 0, "t", 1)).retry_after_ms for _ in range(3)] == [0, 0, 500]
    clock.advance(0.25)  # half a token
    assert (await store.log.read(game, 0, "t", 1)).retry_after_ms == 250
    clock.advance(0.25)
    assert (await store.log.read(game, 0, "t", 1)).retry_after_ms == 0
    assert (await store.log.read(game, 0, "t", 1)).retry_after_ms == 500
    assert await store.buckets.take("k", 0.5, 1) == 0
    assert await store.buckets.take("k", 0.5, 1) == 2000


async def test_a_cut_memory_feed_begins_a_new_generation_and_wakes_its_waiters() -> None:
    feed = MemoryChangeFeed()
    game = new_id()
    assert feed.generation(game) is None
    async with feed.waiting(game) as waiter:
        generation = feed.generation(game)
        assert generation is not None
        feed.cut()
        assert await waiter.wait(0)
        assert feed.generation(game) not in (None, generation)


async def test_a_listener_that_fails_ends_the_games_memory_feed_and_the_others_still_hear(
    clock: FakeClock,
) -> None:
    feed = MemoryChangeFeed()
    store = MemoryStores(clock=clock, feeds=[feed])
    game = new_id()
    heard: list[int] = []

    def fails(game_id: str, version: int, records: list[bytes]) -> None:
        raise ValueError("cannot take it")

    feed.listen(fails)
    feed.listen(lambda game_id, version, records: heard.append(version))
    async with feed.waiting(game) as waiter:
        generation = feed.generation(game)
        await append(store, game, 0, events("a"))
        assert await waiter.wait(0)
        assert heard == [1]
        assert feed.generation(game) not in (None, generation)


# -- deadlines -------------------------------------------------------------------------------
# Scores here are a few seconds after the epoch, far before any real deadline another test may
# have armed (epoch milliseconds of today), so `due` finds only this test's tables; and the
# suite's Redis store is on a database of its own (`apart`), where no service process looks.


async def _drain(store: Store, now_ms: int, games: set[str]) -> None:
    lease, taken = await store.deadlines.due(now_ms, 1, 1000)
    for game in taken:
        await store.deadlines.settle(game, lease, None)
    assert not games & set((await store.deadlines.due(now_ms + 10, 1, 1000))[1])


async def test_a_table_is_due_at_its_earliest_armed_deadline(store: Store) -> None:
    game = new_id()
    await store.deadlines.arm(game, 5_000)
    await store.deadlines.arm(game, 3_000)
    await store.deadlines.arm(game, 4_000)  # later than the one armed: the earlier stays
    assert game not in (await store.deadlines.due(2_999, 10_000, 100))[1]
    lease, taken = await store.deadlines.due(3_000, 10_000, 100)
    assert game in taken
    assert lease == 13_000
    await store.deadlines.settle(game, lease, None)


async def test_a_due_table_is_leased_to_one_taker_until_the_lease_ends(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    other = await backend.another()
    await store.deadlines.arm(game, 1_000)
    lease, taken = await store.deadlines.due(2_000, 5_000, 100)
    assert game in taken
    assert game not in (await other.deadlines.due(6_999, 5_000, 100))[1]  # still leased
    _, taken2 = await other.deadlines.due(7_000, 5_000, 100)  # the first taker died: taken again
    assert game in taken2
    await store.deadlines.settle(game, lease, 9_000)  # the first taker's settle no longer counts…
    assert (
        game in (await other.deadlines.due(12_000, 5_000, 100))[1]
    )  # …but put it no later than 9 s
    await _drain(store, 20_000, {game})


async def test_settling_gives_the_next_deadline_or_forgets_the_table(store: Store) -> None:
    game, done = new_id(), new_id()
    await store.deadlines.arm(game, 1_000)
    await store.deadlines.arm(done, 1_000)
    lease, taken = await store.deadlines.due(1_500, 60_000, 100)
    assert {game, done} <= set(taken)
    await store.deadlines.settle(game, lease, 4_000)
    await store.deadlines.settle(done, lease, None)
    assert set((await store.deadlines.due(3_999, 60_000, 100))[1]).isdisjoint({game, done})
    lease, taken = await store.deadlines.due(4_000, 60_000, 100)
    assert game in taken and done not in taken
    await _drain(store, 100_000, {game, done})


async def test_a_deadline_armed_while_leased_is_not_lost_by_settling(store: Store) -> None:
    game = new_id()
    await store.deadlines.arm(game, 1_000)
    lease, _ = await store.deadlines.due(1_000, 60_000, 100)
    await store.deadlines.arm(
        game, 2_000
    )  # a move made while the taker acted: its deadline is earlier
    await store.deadlines.settle(
        game, lease, 30_000
    )  # the taker's view of the next deadline, later
    assert game in (await store.deadlines.due(2_000, 60_000, 100))[1]
    await _drain(store, 100_000, {game})


async def test_due_takes_at_most_the_limit_earliest_first(store: Store) -> None:
    games = [new_id() for _ in range(5)]
    for offset, game in enumerate(games):
        await store.deadlines.arm(game, 1_000 + offset)
    _, taken = await store.deadlines.due(2_000, 60_000, 3)
    assert [g for g in taken if g in games] == games[:3]
    assert [g for g in (await store.deadlines.due(2_000, 60_000, 3))[1] if g in games] == games[3:]
    await _drain(store, 100_000, set(games))
