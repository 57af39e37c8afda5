"""The rate buckets' contract (`RateBuckets`), kept by the Redis buckets and the memory ones."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable

import pytest

from kronikas.adapters import event_store
from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.memory import MemoryStores
from tests.integration.stores import (
    Backend,
    FakeClock,
    RedisBackend,
    Store,
    append,
    events,
    new_id,
)


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


async def test_a_call_that_reaches_redis_late_takes_nothing_back_from_a_bucket(
    on_redis: RedisBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two processes read the time, then their calls reach Redis the other way round (a queue
    behind a `WAIT`, a failover): the earlier time refills nothing, and takes back nothing the
    later one counted. Before, a call 1.5 s late at 1,000,000 a second emptied the bucket."""
    now = [0]
    monkeypatch.setattr(event_store, "now_ms", lambda: now[0])

    async def at(ms: int, take: Callable[[], Awaitable[int]]) -> int:
        now[0] = ms
        return await take()

    key, rate, burst = f"test-{new_id()}", 1_000_000, 1_000_000
    bucket = functools.partial(on_redis.store.buckets.take, key, rate, burst)
    assert [await at(ms, bucket) for ms in (10_000, 8_500, 10_001, 10_002)] == [0] * 4

    limited = RedisStores(on_redis.redis, rate_per_s=2, burst=2)
    game = new_id()
    await at(20_000, lambda: append(on_redis.store, game, 0, events("a"), auth=[("t", "0")]))

    async def read() -> int:
        return (await limited.log.read(game, 0, "t", 1)).retry_after_ms

    # Two tokens: the late read (19,000) neither refills the bucket nor is refused for it.
    assert [await at(ms, read) for ms in (20_000, 19_000, 20_000)] == [0, 0, 500]
