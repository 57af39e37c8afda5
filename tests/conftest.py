"""Real Redis for every test: REDIS_URL, else a testcontainers Redis, else the bundled binary."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis


def _docker_answers() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=2)
        client.ping()
        return True
    except Exception:
        return False


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of the real Redis this test session uses."""
    if url := os.environ.get("REDIS_URL"):
        yield url
        return
    if _docker_answers():
        from testcontainers.redis import RedisContainer

        with RedisContainer("redis:7-alpine") as container:
            host = container.get_container_host_ip()
            port = container.get_exposed_port(6379)
            yield f"redis://{host}:{port}/0"
        return
    with EmbeddedRedis(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture
async def redis(redis_url: str) -> AsyncIterator[Redis]:
    """An asyncio client on the session's Redis."""
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    """A private bundled redis-server that a test may stop and start."""
    server = EmbeddedRedis(tmp_path / "redis").start()
    try:
        yield server
    finally:
        server.stop()
