"""Redis as deployed (docker-compose.yml): a password, and `maxmemory` with `noeviction`. When Redis
refuses a write for memory, a change answers 503 `unavailable` (nothing was changed) as
problem+json, never 500; reads go on; once memory is freed, changes go on too."""

from __future__ import annotations

import random
import secrets
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis
from redis.exceptions import AuthenticationError, OutOfMemoryError

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.api.app import create_app
from tests.api.tables import Tables, auth, candidates, game_moves
from tests.apps import ENGINES, settings

MAXMEMORY = "4mb"
"""Small enough to fill in a moment, above what an empty Redis 6/7 uses (about 1 MB)."""

MARGIN = 1 << 20
"""How far past its `maxmemory` the filled Redis is put. Filled until it refuses, Redis is only a
few hundred bytes over; but its used memory counts every client's query buffer (16 KB or more
while a command is read, freed when the client idles), so it swings by tens of KB, and a write
that arrived while a buffer was freed passed (a create answered 201 for 503). A megabyte over,
no buffer brings it back under."""


class GuardedRedis(EmbeddedRedis):
    """The bundled redis-server started with a password: it answers an unauthenticated PING
    with `-NOAUTH`, which is enough to know it is up."""

    def ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith((b"+PONG", b"-NOAUTH"))
        except OSError:
            return False


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[tuple[GuardedRedis, str]]:
    """A private redis-server with `--requirepass` and a small `--maxmemory`; and its URL."""
    password = secrets.token_urlsafe(16)
    server = GuardedRedis(
        tmp_path / "redis",
        None,
        "--requirepass", password,
        "--maxmemory", MAXMEMORY,
        "--maxmemory-policy", "noeviction",
    )  # fmt: skip
    server.start()
    try:
        yield server, f"redis://:{password}@127.0.0.1:{server.port}/0"
    finally:
        server.stop()


async def fill(redis: Redis) -> int:
    """Write values until Redis refuses even a small one for memory, then lower its `maxmemory`
    to `MARGIN` below what it uses; how many values it took. (A value's bytes count while its
    command is read: a refused 64 KB value leaves room for smaller ones.)"""
    written = 0
    for size in (65536, 4096, 256, 16):
        value = b"x" * size
        while written < 100_000:
            try:
                await redis.set(f"filler:{written}", value)
            except OutOfMemoryError:
                break
            written += 1
    assert written < 100_000, "Redis never refused a write"
    used = (await redis.info("memory"))["used_memory"]
    await redis.config_set("maxmemory", used - MARGIN)
    return written


def assert_unavailable(r: Any) -> None:
    assert r.status_code == 503, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    assert r.json()["code"] == "unavailable"
    assert int(r.headers["retry-after"]) >= 1


async def test_a_redis_out_of_memory_refuses_changes_with_503_and_reads_go_on(
    guarded: tuple[GuardedRedis, str],
) -> None:
    server, url = guarded
    with pytest.raises(AuthenticationError):  # the password is required
        await Redis.from_url(server.url).ping()
    admin = Redis.from_url(url)
    app = create_app(settings(url), games=ENGINES)
    cold = create_app(
        settings(url), games=ENGINES
    )  # another process: nothing of the table in its cache
    try:
        async with AsyncTestClient(app) as http, AsyncTestClient(cold) as other:
            tables = Tables(http)
            table = await tables.ready("cheat", 2, seed=5)
            view = await tables.view(table, table.players[0])
            if not game_moves(view):
                view = await tables.view(table, table.players[1])
            seat = view["me"]["seat"]
            command = candidates(view, random.Random(2))[-1]  # the last one is always legal
            url_ = f"/v1/games/{table.id}/commands"
            move = {"json": command, "headers": auth(table.players[seat])}
            waiting = await tables.create("cheat")  # an open table, to join
            assert await fill(admin) > 0

            assert_unavailable(await http.post(url_, **move))
            assert_unavailable(await http.post("/v1/games", json={"kind": "cheat"}))
            assert_unavailable(
                await http.post(f"/v1/games/{waiting.id}/players", json={"name": "late"})
            )
            # Nothing was changed, and reads go on, here and in a process that reads Redis.
            for client in (http, other):
                r = await client.get(f"/v1/games/{table.id}")
                assert r.status_code == 200, r.text
                assert r.json()["version"] == view["version"]
                r = await client.get(f"/v1/games/{table.id}/events")
                assert r.status_code == 200, r.text
                assert r.json()["events"][-1]["version"] == view["version"]
                assert (await client.get("/v1/games")).status_code == 200
                # A seat's read too: its rate bucket cannot be written, and it is not refused.
                r = await client.get(f"/v1/games/{table.id}", headers=auth(table.players[seat]))
                assert r.status_code == 200, r.text
                assert r.json()["me"]["seat"] == seat and r.json()["me"]["hand"]

            await admin.flushdb()  # memory back (the table with it): changes go on
            assert (await http.post("/v1/games", json={"kind": "cheat"})).status_code == 201
    finally:
        await admin.aclose()
