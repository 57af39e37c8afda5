"""A small client for tables, on the app the session shares (`client`, in tests/conftest.py)."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.tables import Tables
from tests.apps import settings

__all__ = ["settings", "tables"]


@pytest.fixture
def tables(client: AsyncTestClient[Litestar]) -> Tables:
    return Tables(client)
