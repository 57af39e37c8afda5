"""Apps with the arena's waits made short, on the session's Redis with the arena's keys cleared,
and clients that come from an address of their choosing (`X-Test-Peer`)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from litestar.testing.transport import TestClientTransport
from redis.asyncio import Redis

from kronikas.api.app import create_app
from tests.apps import ENGINES, settings

Client = AsyncTestClient[Litestar]

PEER = "x-test-peer"
"""A test's request header naming the client address the app sees (the transport's own peer is
`testclient` for every request)."""


def arena_settings(redis_url: str, **overrides: Any) -> Any:
    """The test settings, with the arena ticking often and filling at once."""
    base: dict[str, Any] = {
        "arena_register_per_hour": 1_000_000,
        "arena_queue_per_min": 1_000_000,
        "arena_fill_s": 0,
        "arena_tick_s": 0.05,
        "arena_turn_s": 5,
    }
    return settings(redis_url, **(base | overrides))


@asynccontextmanager
async def arena_app(redis_url: str, **overrides: Any) -> AsyncIterator[Client]:
    """A started app of its own, with `arena_settings`."""
    app = create_app(arena_settings(redis_url, **overrides), games=ENGINES)
    async with AsyncTestClient(app) as client:
        yield client


@asynccontextmanager
async def two_arenas(redis_url: str, **overrides: Any) -> AsyncIterator[tuple[Client, Client]]:
    """Two started apps of their own on one Redis, with the same `arena_settings`: two
    instances of the service."""
    async with arena_app(redis_url, **overrides) as a, arena_app(redis_url, **overrides) as b:
        yield a, b


@pytest.fixture(autouse=True)
async def clear_arena(redis: Redis) -> AsyncIterator[None]:
    """Every test starts with an empty arena (its keys share the tag `{arena}`)."""
    keys = [k async for k in redis.scan_iter(match="{arena}:*", count=1000)]
    if keys:
        await redis.delete(*keys)
    yield


@pytest.fixture(autouse=True)
def peers(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A request with `X-Test-Peer: <address>` comes from that address."""
    parse = TestClientTransport.parse_request

    def parse_request(self: TestClientTransport, request: Any) -> dict[str, Any]:
        scope: dict[str, Any] = parse(self, request)
        for name, value in scope["headers"]:
            if name == PEER.encode():
                scope["client"] = (value.decode(), 50000)
        return scope

    monkeypatch.setattr(TestClientTransport, "parse_request", parse_request)
    yield


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def register(
    client: Client, name: str, peer: str = "198.51.100.1", games: list[str] | None = None
) -> tuple[str, str]:
    """A new entrant's id and token."""
    r = await client.post(
        "/v1/arena/entrants",
        json={"name": name, "games": games or ["cheat"]},
        headers={PEER: peer},
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["entrant_id"], body["token"]


async def queue(client: Client, token: str) -> None:
    """The token's entrant queues for a Cheat set (202)."""
    r = await client.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(token))
    assert r.status_code == 202, r.text
