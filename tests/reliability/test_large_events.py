"""An event larger than `OUTBOX_BYTES` reaches the followers that read it, whole, and leaves them
following (docs/api.md, The seat socket; The event stream), against a real service process.

A table made with `reveal: "match_end"` ends its match with one `deals_opened` event that opens
every position of every deal: with `OUTBOX_BYTES` at its least (16 KB), a match of a few deals
makes one several times larger than the bound. A spectator and a seat follow the table over the
event stream and over the seat socket while the match ends, each reading all as it comes over a
connection with a small receive buffer (as a reader far off has little in flight), and the
moves wait for every follower to have read the one before (each keeps up). Each gets the event
whole and its stream or socket goes on (a keep-alive after it, a `pong` to a `ping`) — where
before each was cut as too slow the moment the event was sent (and would reconnect, to be cut
again). Readers that never read are still cut at the bound (tests/reliability/test_cost_limits.py).
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.tables import Table, Tables, auth, move
from tests.conftest import ServiceProcess, serving
from tests.socket.wire import WAIT_S, greeted, heard, say

BOUND = 16 * 1024
"""`OUTBOX_BYTES` at its least."""

RECEIVE_BUFFER = 4096
"""Each follower's kernel receive buffer: what the service sends it waits at the service while
it reads, as it would for a reader far off."""


@pytest.fixture(scope="module")
def bounded(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """A service whose followers may have at most `BOUND` bytes waiting, with a keep-alive on
    every quiet stream each second."""
    log: Path = tmp_path_factory.mktemp("large") / "service.log"
    with serving(redis_url, log, OUTBOX_BYTES=str(BOUND), SSE_KEEPALIVE_S="1") as service:
        yield service


class Followers:
    """The versions each follower has read, and a wait for all of them to reach one."""

    def __init__(self, count: int) -> None:
        self.read = [0] * count
        self.moved = asyncio.Condition()

    async def reading(self, follower: int, version: int) -> None:
        async with self.moved:
            self.read[follower] = version
            self.moved.notify_all()

    async def reached(self, version: int) -> None:
        async with asyncio.timeout(WAIT_S), self.moved:
            await self.moved.wait_for(lambda: min(self.read) >= version)


async def streamed(
    url: str, table: Table, token: str | None, followers: Followers, me: int
) -> dict[str, Any]:
    """Follows the table's event stream from its start, reading all as it comes, until a
    keep-alive comes after the match's last event; that event (the stream cut first: raises)."""
    last: dict[str, Any] | None = None
    headers = auth(token) if token else {}
    path = f"/v1/games/{table.id}/stream"
    small = [(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)]
    transport = httpx.AsyncHTTPTransport(socket_options=small)
    async with (
        httpx.AsyncClient(base_url=url, transport=transport, timeout=60) as http,
        http.stream("GET", path, params={"after": 0}, headers=headers) as r,
    ):
        assert r.status_code == 200
        data: list[str] = []
        async for line in r.aiter_lines():
            if line.startswith("data: "):
                data.append(line[6:])
            elif line.startswith(": keep-alive") and last is not None:
                return last
            elif not line and data:
                event = json.loads("".join(data))
                data = []
                await followers.reading(me, event["version"])
                if event["type"].endswith(".deals_opened"):
                    last = event
    raise AssertionError(f"the stream ended; its last event: {last and last['type']}")


async def socketed(
    url: str, port: int, table: Table, token: str | None, followers: Followers, me: int
) -> dict[str, Any]:
    """Follows the table over a seat socket (with views) from its start, reading all as it
    comes, until the deals opened as the match ends; then a `ping` is answered: that event."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECEIVE_BUFFER)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    options = {"sock": sock, "max_size": None}
    async with greeted(url, table.id, token, views=True, **options) as (ws, _):
        while True:
            message = await heard(ws, timeout=60)
            assert message["type"] in ("events", "view", "heartbeat"), message
            if message["type"] != "events":
                continue
            last: dict[str, Any] = message["events"][-1]
            await followers.reading(me, last["version"])
            opened = [e for e in message["events"] if e["type"].endswith(".deals_opened")]
            if opened:  # it comes right before `match_ended`, the match's last event
                last = opened[0]
                break
        await say(ws, {"type": "ping"})
        while (message := await heard(ws))["type"] != "pong":
            assert message["type"] in ("view", "heartbeat"), message
    return last


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("cheat", {"decks": 2, "rounds": 3, "chroniclers": True}),
        ("thirty_one", {"lives": 3, "chronicler": True}),
    ],
)
async def test_followers_that_read_get_an_event_larger_than_the_bound_whole(
    bounded: ServiceProcess, kind: str, options: dict[str, Any]
) -> None:
    async with httpx.AsyncClient(base_url=bounded.url, timeout=60) as http:
        tables = Tables(http)
        table = await tables.ready(kind, 3, options | {"reveal": "match_end"}, seed=41)
        seat, url, port = table.players[0], bounded.url, bounded.port
        followers = Followers(4)
        following = [
            asyncio.ensure_future(streamed(url, table, None, followers, 0)),
            asyncio.ensure_future(streamed(url, table, seat, followers, 1)),
            asyncio.ensure_future(socketed(url, port, table, None, followers, 2)),
            asyncio.ensure_future(socketed(url, port, table, seat, followers, 3)),
        ]
        rng = random.Random(41)
        while (view := await tables.view(table))["status"] != "finished":
            await followers.reached(view["version"])
            await move(tables, table, rng)
        async with asyncio.timeout(6 * WAIT_S):
            got = await asyncio.gather(*following, return_exceptions=True)
        r = await http.get(f"/v1/games/{table.id}/events", params={"after": view["version"] - 2})
        stored, ended = r.json()["events"]
    assert stored["type"] == f"{kind}.deals_opened"
    assert ended["type"] == f"{kind}.match_ended" and ended["final"] is True
    assert len(json.dumps(stored, separators=(",", ":"))) > 4 * BOUND
    said = [type(e).__name__ if isinstance(e, BaseException) else e["type"] for e in got]
    assert all(event == stored for event in got), ", ".join(said)
