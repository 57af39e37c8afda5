"""A primary with one replica (no Sentinel), real processes, shared by a module's tests; and
what the tests ask of it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from redis.asyncio import Redis

from tests.redis_group import RedisGroup, Server, ask, can_start


@pytest.fixture(scope="module")
def group(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisGroup]:
    root = tmp_path_factory.mktemp("group")
    if (why := can_start(root)) is not None:
        pytest.skip(why)
    with RedisGroup(root, replicas=1, sentinels=0) as started:
        yield started


@pytest.fixture
async def primary(group: RedisGroup) -> AsyncIterator[Redis]:
    """A client of the group's primary."""
    client = Redis.from_url(group.primary_url(), socket_timeout=2)
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
def replica(group: RedisGroup) -> Iterator[Server]:
    """The replica, resumed again whatever the test did to it."""
    server = group.replicas()[0]
    try:
        yield server
    finally:
        server.resume()


def calls(server: Server, command: str) -> int:
    """How many times `server` ran `command` (INFO commandstats)."""
    for line in ask(server.port, "info", "commandstats").decode().splitlines():
        if line.startswith(f"cmdstat_{command}:"):
            return int(line.split("calls=", 1)[1].split(",", 1)[0])
    return 0


def llen(server: Server, key: str) -> int:
    said = ask(server.port, "llen", key)
    return int(said) if said.lstrip(b"-").isdigit() else -1
