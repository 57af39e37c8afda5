"""The store contract suites' fixtures: each contract test runs on both stores (`backend`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from tests.integration.stores import (
    Backend,
    FakeClock,
    MemoryBackend,
    RedisBackend,
    Store,
    apart,
)


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


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()
