"""The Python seat-socket helper (`kronikas_client.socket`) held to what docs/api.md tells a
client of the seat socket to do, against a small scripted server (as test_sdk_socket_helper.py),
where it once did something else. No timing is asserted by sleeping: each check rests on the
order in which the server receives and answers frames on one connection."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from kronikas_client.socket import SocketError, connect_seat
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tests.e2e.test_sdk_socket_helper import until

RATE_LIMITED = {"status": 429, "code": "rate_limited", "title": "Too Many", "detail": "wait"}
LONG_WAIT_S = 3600
"""A `retry_after` far longer than any test runs: a client that honours it sends nothing more."""


def welcome() -> dict[str, Any]:
    return {
        "type": "welcome",
        "version": 0,
        "seat": 0,
        "player_id": "p1",
        "role": "player",
        "heartbeat_s": 15,
        "idle_s": 60,
        "max_bytes": 65536,
        "game": None,
    }


@dataclass
class Script:
    """A socket server whose n-th connection (from 0) is served by `plans[n]`: it gets the
    connection and each message the client sends on it, in order. Every connection answers
    `ping` with `pong`, and records what it was sent in `received[n]`."""

    plans: list[Callable[[ServerConnection, dict[str, Any]], Any]]
    hellos: list[dict[str, Any]] = field(default_factory=list)
    received: list[list[dict[str, Any]]] = field(default_factory=list)

    async def handler(self, ws: ServerConnection) -> None:
        hello = json.loads(await ws.recv())
        n = len(self.hellos)
        self.hellos.append(hello)
        self.received.append([])
        await ws.send(json.dumps(welcome()))
        plan = self.plans[min(n, len(self.plans) - 1)]
        await plan(ws, {"type": "connected"})
        try:
            async for text in ws:
                message = json.loads(text)
                self.received[n].append(message)
                if message["type"] == "ping":
                    await ws.send('{"type":"pong"}')
                else:
                    await plan(ws, message)
        except ConnectionClosed:
            pass


@pytest.fixture
async def script() -> AsyncIterator[tuple[Script, str]]:
    table = Script(plans=[])
    async with serve(table.handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield table, f"http://127.0.0.1:{port}"


def commands(messages: list[dict[str, Any]]) -> list[str]:
    return [m["id"] for m in messages if m["type"] == "command"]


async def test_a_reconnect_does_not_cut_short_the_retry_after_of_a_rate_limited_resend(
    script: tuple[Script, str],
) -> None:
    """docs/api.md, A seat socket, Limits: each command takes one from the token's bucket, "a
    retry of a recorded `id` included (a 429 `problem` with `retry_after`: resend it under the
    same `id` then)"; Rate limits: "wait `Retry-After` and retry with the same key". A command
    whose answer was lost is resent after the reconnect and refused 429 with an hour's
    `retry_after`; the server then restarts (1001). On the next connection the helper must still
    wait out that hour, not send the command again at once."""
    table, url = script

    async def lose_the_answer(ws: ServerConnection, message: dict[str, Any]) -> None:
        if message["type"] == "command":
            ws.transport.abort()  # applied, perhaps: its answer is lost with the connection

    async def rate_limit_then_restart(ws: ServerConnection, message: dict[str, Any]) -> None:
        if message["type"] == "command":
            refusal = {
                "type": "problem",
                "id": message["id"],
                "problem": RATE_LIMITED,
                "retry_after": LONG_WAIT_S,
            }
            await ws.send(json.dumps(refusal))
            await ws.close(1001, "going_away")  # the client reads the refusal, then the close

    async def answer_nothing(ws: ServerConnection, message: dict[str, Any]) -> None:
        return None

    table.plans = [lose_the_answer, rate_limit_then_restart, answer_nothing]
    socket = await connect_seat(url, "g", token="t", retry_delay=0.01).open()
    try:
        waiting = asyncio.create_task(socket.command({"type": "call"}, id="m-1"))
        await until(lambda: len(table.hellos) == 3 and socket.connection is not None)
        await socket.ping(timeout=20)  # its pong follows whatever the helper sent before it
        assert commands(table.received[1]) == ["m-1"]  # resent after the lost answer: right
        assert commands(table.received[2]) == [], (
            f"resent at once on the new connection, not after its retry_after of {LONG_WAIT_S}s"
        )
        assert not waiting.done()
    finally:
        await socket.close()
        with pytest.raises(SocketError):
            await waiting


async def test_a_problem_that_answers_no_command_keeps_its_retry_after(
    script: tuple[Script, str],
) -> None:
    """docs/api.md, A seat socket: a `problem` carries `retry_after` (seconds, on 429 and 503),
    also for a message that was not a valid command (`id` null; "paid for as a refused command
    is: past the bucket, `rate_limited`"). The TypeScript `SeatSocket` hands it to `onProblem`
    with its `retryAfter`; the Python helper once kept only the `Problem` in `problems`, and the
    wait the server asked for was lost: it is now the problem's `retry_after`."""
    table, url = script

    async def refuse_a_message(ws: ServerConnection, message: dict[str, Any]) -> None:
        if message["type"] == "connected":
            refusal = {"type": "problem", "id": None, "problem": RATE_LIMITED, "retry_after": 7}
            await ws.send(json.dumps(refusal))

    table.plans = [refuse_a_message]
    async with asyncio.timeout(30), connect_seat(url, "g", token="t") as socket:
        await socket.ping(timeout=20)  # the refusal came before the pong
        assert len(socket.problems) == 1
        assert [retry_after_of(entry) for entry in socket.problems] == [7]


def retry_after_of(entry: Any) -> Any:
    """The `retry_after` an entry of `SeatSocket.problems` keeps: its own attribute, or the
    problem's extra properties; None when it kept none."""
    if getattr(entry, "retry_after", None) is not None:
        return entry.retry_after
    extra = getattr(entry, "additional_properties", {}) or {}
    return extra.get("retry_after")
