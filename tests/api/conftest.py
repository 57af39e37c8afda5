"""An app on the session's real Redis, and a small client for tables."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.api.tables import Tables


def settings(redis_url: str, **overrides: Any) -> Settings:
    base: dict[str, Any] = {
        "redis_url": redis_url,
        "log_level": "CRITICAL",
        "rate_per_s": 100_000,
        "rate_burst": 100_000,
        "open_per_min": 1_000_000,
        "redis_timeout_s": 1.0,
    }
    return Settings(**(base | overrides))


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    async with AsyncTestClient(create_app(settings(redis_url))) as c:
        yield c


@pytest.fixture
def tables(client: AsyncTestClient[Litestar]) -> Tables:
    return Tables(client)
