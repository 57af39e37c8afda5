"""Liveness and readiness."""

from __future__ import annotations

import asyncio

import msgspec
from litestar import Controller, get
from litestar.datastructures import State

from kronikas.api.problems import problems
from kronikas.application.errors import Unavailable


class Health(msgspec.Struct):
    """The service's state."""

    status: str


class SystemController(Controller):
    path = "/v1"
    tags = ["system"]

    @get("/health", operation_id="health", responses=problems(429))
    async def health(self) -> Health:
        """200 while the process runs."""
        return Health(status="ok")

    @get("/ready", operation_id="ready", responses=problems(503))
    async def ready(self, state: State) -> Health:
        """200 when the store answers, 503 `unavailable` when it does not."""
        try:
            await asyncio.wait_for(state.redis.ping(), timeout=state.settings.redis_timeout_s)
        except Exception as exc:
            raise Unavailable("The store does not answer.") from exc
        return Health(status="ready")
