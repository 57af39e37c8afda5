"""A client of the seat socket for tests: a real WebSocket (the `websockets` library) to a real
service process, and the few steps every test takes."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

WAIT_S = 10.0
"""How long a test waits for a message it is owed (a loaded 2-CPU machine is slow)."""


def socket_url(base_url: str, game_id: str) -> str:
    return base_url.replace("http://", "ws://", 1) + f"/v1/games/{game_id}/socket"


@contextlib.asynccontextmanager
async def opened(base_url: str, game_id: str, **options: Any) -> AsyncIterator[ClientConnection]:
    """A socket to the table, not yet greeted (no `hello` sent)."""
    async with connect(
        socket_url(base_url, game_id), proxy=None, compression=None, **options
    ) as ws:
        yield ws


@contextlib.asynccontextmanager
async def greeted(
    base_url: str,
    game_id: str,
    token: str | None = None,
    after: int = 0,
    views: bool = False,
    **options: Any,
) -> AsyncIterator[tuple[ClientConnection, dict[str, Any]]]:
    """A socket that said `hello`, and its `welcome`."""
    async with opened(base_url, game_id, **options) as ws:
        await say(ws, {"type": "hello", "token": token, "after": after, "views": views})
        welcome = await next_of(ws, "welcome")
        yield ws, welcome


async def say(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(json.dumps(message))


async def heard(ws: ClientConnection, timeout: float = WAIT_S) -> dict[str, Any]:
    """The next message, heartbeats included."""
    async with asyncio.timeout(timeout):
        text = await ws.recv()
    assert isinstance(text, str), "the server sends text frames"
    message: dict[str, Any] = json.loads(text)
    return message


async def next_of(ws: ClientConnection, *types: str, timeout: float = WAIT_S) -> dict[str, Any]:
    """The next message of one of `types`, skipping heartbeats (only)."""
    while True:
        message = await heard(ws, timeout)
        if message["type"] in types:
            return message
        assert message["type"] == "heartbeat", message


async def answer(
    ws: ClientConnection, pushed: list[dict[str, Any]] | None = None, timeout: float = WAIT_S
) -> dict[str, Any]:
    """The next `result` or `problem`, the events pushed before it added to `pushed`."""
    while True:
        message = await next_of(ws, "result", "problem", "events", "view", timeout=timeout)
        if message["type"] in ("result", "problem"):
            return message
        if message["type"] == "events" and pushed is not None:
            pushed += message["events"]


async def closed(ws: ClientConnection, timeout: float = WAIT_S) -> tuple[int, str]:
    """Read until the server closes the socket; its close code and reason."""
    try:
        async with asyncio.timeout(timeout):
            while True:
                await ws.recv()
    except ConnectionClosed as gone:
        assert gone.rcvd is not None, f"closed without a close frame: {gone}"
        return gone.rcvd.code, gone.rcvd.reason
    raise AssertionError("unreachable")


async def versions_until(
    ws: ClientConnection, last: int, timeout: float = WAIT_S
) -> list[dict[str, Any]]:
    """The events pushed (only `events` messages) until the one of version `last`."""
    events: list[dict[str, Any]] = []
    while not events or events[-1]["version"] < last:
        message = await next_of(ws, "events", "view", timeout=timeout)
        if message["type"] == "events":
            assert message["version"] == message["events"][-1]["version"]
            events += message["events"]
    return events
