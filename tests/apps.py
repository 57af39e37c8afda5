"""The app under test: its settings, its games, and one app a whole session shares."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.application.engines import Registry, service_games
from kronikas.config import Settings

Client = AsyncTestClient[Litestar]

ENGINES: Registry = service_games()
"""The service's games, as its composition root builds them: what the tests hand to
`create_app(games=...)` and to the use cases (a test of its own games brings its own)."""

TEST_HOST = "testserver.local"
"""The name Litestar's test clients send as `Host`."""


def settings(redis_url: str, **overrides: Any) -> Settings:
    """The settings of an app under test: quiet, and limits far above what a test sends."""
    base: dict[str, Any] = {
        "redis_url": redis_url,
        "log_level": "CRITICAL",
        "rate_per_s": 100_000,
        "rate_burst": 100_000,
        "open_per_min": 1_000_000,
        "read_per_s": 1_000_000,
        "read_burst": 1_000_000,
        "address_per_s": 1_000_000,
        "address_burst": 1_000_000,
        "streams_per_token": 1_000_000,
        "streams_per_address": 1_000_000,
        "redis_timeout_s": 1.0,
        # No collector's passes on a clock in the app a whole session shares (tests of the
        # collector count their own passes: kronikas/collector.py)
        "gc_pace_ms": 0,
        # The test client's `Host` (a service on loopback serves only the loopback names)
        "allowed_hosts": (TEST_HOST,),
    }
    return Settings(**(base | overrides))


def on_same_app(running: Client) -> Client:
    """A new client (its own headers and cookies) on an app another client already runs.

    Building a Litestar app costs about 40 ms, and the suite made one for each of hundreds of
    tests. A test client runs its app on a blocking portal (an event loop in a thread): the new
    client borrows the running one's portal, so the app's lifespan, its Redis connections and
    its tasks stay where they were started."""
    client: Client = AsyncTestClient(running.app)
    client.blocking_portal = running.blocking_portal
    return client
