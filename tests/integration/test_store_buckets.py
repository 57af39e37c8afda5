"""The rate buckets' contract (`RateBuckets`), kept by the Redis buckets and the memory ones."""

from __future__ import annotations

from kronikas.adapters.memory import MemoryStores
from tests.integration.stores import (
    Backend,
    FakeClock,
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
