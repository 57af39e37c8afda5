"""Who may reach `/mcp` from a browser (docs/security.md, DNS rebinding): a request with an
`Origin` that the service does not list is refused before the MCP server reads it, wherever the
service listens; on loopback a `Host` that is not a loopback name is refused too. An agent's
client, which sends no `Origin`, is served."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from tests.apps import ENGINES, settings
from tests.mcp.initialize import initialize_request

Client = AsyncTestClient[Litestar]

INITIALIZE = initialize_request()
HEADERS = {"Accept": "application/json, text/event-stream"}


@pytest.fixture
async def public(redis_url: str) -> AsyncIterator[Client]:
    """The service as it listens beyond loopback (the Docker image's HOST=0.0.0.0)."""
    app = create_app(
        settings(redis_url, host="0.0.0.0", cors_origins=("https://cards.example",)), games=ENGINES
    )
    async with AsyncTestClient(app) as client:
        yield client


@pytest.fixture
async def loopback(redis_url: str) -> AsyncIterator[Client]:
    """The service as `make run` starts it: on 127.0.0.1."""
    async with AsyncTestClient(
        create_app(settings(redis_url, host="127.0.0.1"), games=ENGINES)
    ) as client:
        yield client


async def initialize(client: Client, **headers: str) -> Any:
    return await client.post("/mcp", json=INITIALIZE, headers=HEADERS | headers)


async def test_beyond_loopback_an_unlisted_origin_is_refused(public: Client) -> None:
    for origin in (
        "http://evil.example",
        "http://localhost:8000",
        "null",
        "https://cards.example.evil",
    ):
        r = await initialize(public, origin=origin)
        assert r.status_code == 403, origin
        assert r.json()["code"] == "forbidden"
    served = await initialize(public)
    assert served.status_code == 200, served.text
    assert served.json()["result"]["serverInfo"]["name"] == "kronikas"
    listed = await initialize(public, origin="https://cards.example")
    assert listed.status_code == 200


async def test_on_loopback_only_loopback_origins_and_hosts_are_served(loopback: Client) -> None:
    rebound = await initialize(loopback, host="attacker.example:8000")
    assert rebound.status_code == 421
    for origin in ("http://attacker.example:8000", "https://127.0.0.1.example"):
        r = await initialize(loopback, host="127.0.0.1:8000", origin=origin)
        assert r.status_code == 403, origin
    for host, origin in [("127.0.0.1:8000", "http://127.0.0.1:8000"), ("localhost:8000", None)]:
        extra = {"host": host} | ({"origin": origin} if origin else {})
        r = await initialize(loopback, **extra)
        assert r.status_code == 200, (host, r.text)


async def test_the_endpoint_can_be_turned_off(redis_url: str) -> None:
    app = create_app(settings(redis_url, mcp_enabled=False), games=ENGINES)
    async with AsyncTestClient(app) as client:
        r = await initialize(client, host="127.0.0.1:8000")
        assert r.status_code == 404 and r.json()["code"] == "not_found"


async def test_a_get_opens_no_stream_that_no_cap_would_count(public: Client) -> None:
    # The endpoint is stateless: the server never speaks first. A GET (an SSE stream for
    # server-initiated messages) would otherwise stay open for good, outside STREAMS_PER_*.
    r = await asyncio.wait_for(public.get("/mcp", headers={"Accept": "text/event-stream"}), 20)
    assert r.status_code == 405
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "method_not_allowed"


async def test_a_body_over_the_limit_is_the_services_413_problem(redis_url: str) -> None:
    # (Sent in chunks, without a Content-Length: tests/mcp/test_mcp_games.py, on a real server.)
    app = create_app(settings(redis_url, host="0.0.0.0", max_body_bytes=1024), games=ENGINES)
    big = INITIALIZE | {"params": INITIALIZE["params"] | {"padding": "x" * 2048}}  # type: ignore[operator]
    async with AsyncTestClient(app) as client:
        sized = await initialize(client)
        assert sized.status_code == 200, sized.text
        r = await client.post("/mcp", json=big, headers=HEADERS)
    assert r.status_code == 413, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "payload_too_large"
