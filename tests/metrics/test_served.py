"""`GET /metrics` of a real service process (docs/operations.md): scraped during a game, every
family moves — requests by route and status, moves and refusals by game and code, each kind of
open connection, the own Redis line's calls, `outcome_unknown` answers, rate-limit refusals —
and no label ever holds a table id or a token. With `WORKERS=2`, every scrape, whichever worker
answers it, adds up both workers; a worker killed takes its open connections with it, and its
counts stay in the sums.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from kronikas import metrics
from kronikas.adapters.embedded_redis import EmbeddedRedis
from tests.api.tables import Table, Tables, auth, candidates, game_moves, move
from tests.conftest import ServiceProcess, serving
from tests.mcp.initialize import initialize_request
from tests.metrics.scrapes import Samples, label_values, scrape, total
from tests.socket.wire import greeted

COMMANDS = "/v1/games/{game_id}/commands"
MCP_HEADERS = {"Accept": "application/json, text/event-stream"}


async def until(
    url: str,
    check: Callable[[Samples], bool],
    timeout: float = 10,
    task: asyncio.Task[Any] | None = None,
) -> Samples:
    """Scrapes until `check` holds of one (what `task`, or another, does shows up as it
    happens; `task` may not end first)."""
    deadline = time.monotonic() + timeout
    while True:
        _, samples = await scrape(url)
        if check(samples):
            return samples
        if task is not None and task.done():
            raise AssertionError(f"it ended first: {task.result()!r}")
        assert time.monotonic() < deadline, "the scrape never showed it"
        await asyncio.sleep(0.05)


def open_now(kind: str) -> Callable[[Samples], bool]:
    return lambda s: total(s, "kronikas_connections_open", kind=kind) == 1


@contextlib.asynccontextmanager
async def meanwhile(work: Awaitable[Any]) -> AsyncIterator[asyncio.Task[Any]]:
    """`work` running in a task for the block, awaited at its end."""
    task = asyncio.ensure_future(work)
    try:
        yield task
    finally:
        await asyncio.wait_for(task, 15)


async def refused_move(tables: Tables, table: Table) -> str:
    """A command from the seat not on turn: refused (409); its code."""
    spectator = await tables.view(table)
    on_turn = await tables.view(table, table.players[spectator["turn"]])
    command = candidates(on_turn, random.Random(2))[-1]  # legal for the seat on turn only
    r = await tables.send(table, 1 - spectator["turn"], command)
    assert r.status_code == 409, r.text
    code: str = r.json()["code"]
    return code


async def timed_out_move(tables: Tables, table: Table, admin: Redis) -> None:
    """A move whose append Redis holds past the time-out: 503 `outcome_unknown`; then its retry
    with the same key, once Redis answers again, is the move."""
    view = await tables.view(table, table.players[0])
    if not game_moves(view):
        view = await tables.view(table, table.players[1])
    seat = view["me"]["seat"]
    command = candidates(view, random.Random(1))[-1]  # the last one is always legal
    await admin.execute_command("CLIENT", "PAUSE", 1200, "WRITE")
    stalled = await tables.send(table, seat, command, **{"Idempotency-Key": "late-1"})
    assert stalled.status_code == 503, stalled.text
    assert stalled.json()["code"] == "outcome_unknown"
    deadline = time.monotonic() + 10
    while (
        again := await tables.send(table, seat, command, **{"Idempotency-Key": "late-1"})
    ).status_code == 503:
        assert time.monotonic() < deadline, again.text
        await asyncio.sleep(0.1)
    assert again.status_code == 200, again.text


async def mcp_wait(url: str, table: Table, after: int) -> None:
    """The MCP tool `wait` (as the table's host), over plain HTTP, until the table moves past
    `after`."""
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {
            "name": "wait",
            "arguments": {
                "table_id": table.id,
                "after_version": after,
                "timeout_s": 10,
                "token": table.host,
            },
        },
    }
    async with httpx.AsyncClient(base_url=url, timeout=20, headers=MCP_HEADERS) as client:
        first = await client.post("/mcp", json=initialize_request())
        assert first.status_code == 200, first.text
        r = await client.post("/mcp", json=call)
        assert r.status_code == 200, r.text
        assert not r.json()["result"].get("isError"), r.text


async def test_a_scrape_during_a_game_sees_every_family_move(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    admin = Redis.from_url(own_redis.url)
    env = {"METRICS": "1", "STREAMS_PER_TOKEN": "1", "REDIS_TIMEOUT_MS": "500"}
    try:
        with serving(own_redis.url, tmp_path / "service.log", **env) as service:
            url = service.url
            _, before = await scrape(url)
            async with httpx.AsyncClient(base_url=url, timeout=20) as http:
                tables = Tables(http)
                table = await tables.ready("thirty_one", 2, seed=3)
                rng = random.Random(5)
                for _ in range(4):
                    await move(tables, table, rng)
                code = await refused_move(tables, table)
                stream = f"/v1/games/{table.id}/stream"
                async with http.stream("GET", stream, headers=auth(table.players[0])) as opened:
                    assert opened.status_code == 200
                    await until(url, open_now("stream"))
                    # One stream a token (STREAMS_PER_TOKEN=1): a second is a rate-limit refusal.
                    second = await http.get(stream, headers=auth(table.players[0]))
                    assert second.status_code == 429, second.text
                # Waits on a table that does not change until a seat is taken: a game's table
                # may change by itself (a deal after a round), and end a wait before its time.
                quiet = await tables.create("cheat")
                events = f"/v1/games/{quiet.id}/events"
                polled = http.get(events, params={"after": 1, "wait": 10})
                async with meanwhile(polled) as poll:
                    await until(url, open_now("long_poll"), task=poll)
                    await tables.join(quiet)
                assert poll.result().status_code == 200
                async with meanwhile(mcp_wait(url, quiet, 2)) as waiting:
                    await until(url, open_now("mcp_session"), task=waiting)
                    await tables.join(quiet)
                now = (await tables.view(table))["version"]
                # Last of the followers: a seat's socket closing may tell the table it is away.
                async with greeted(url, table.id, table.players[1], now):
                    await until(url, open_now("socket"))
                await timed_out_move(tables, table, admin)
            every_closed = lambda s: all(  # noqa: E731
                total(s, "kronikas_connections_open", kind=k) == 0
                for k in ("stream", "long_poll", "socket", "mcp_session")
            )
            await until(url, every_closed)
            text, after = await scrape(url)
    finally:
        await admin.aclose()

    def grew(name: str, at_least: float = 1, **labels: str) -> None:
        moved = total(after, name, **labels) - total(before, name, **labels)
        assert moved >= at_least, (name, labels, moved)

    grew("kronikas_http_requests_total", 5, route=COMMANDS, method="POST", status="200")
    grew("kronikas_http_requests_total", route=COMMANDS, status="409")
    grew("kronikas_http_requests_total", route=COMMANDS, status="503")
    grew("kronikas_http_requests_total", route="/v1/games/{game_id}/stream", status="429")
    grew("kronikas_http_request_duration_seconds_count", 7, route=COMMANDS)
    grew("kronikas_moves_total", 5, game="thirty_one")
    grew("kronikas_move_refusals_total", game="thirty_one", code=code)
    grew("kronikas_move_refusals_total", game="thirty_one", code="outcome_unknown")
    grew("kronikas_redis_call_seconds_count", 10)
    grew("kronikas_outcome_unknown_total", transport="http")
    grew("kronikas_rate_limited_total", transport="http")
    # Nothing a client chose is a label: no table id, no token, no path as asked.
    for secret in (table.id, table.host, *table.players):
        assert secret not in text
    routes = {dict(labels).get("route") for (_, labels) in after} - {None}
    assert all(r == "none" or r.startswith("/") for r in routes), routes
    assert not any(table.id in value for value in label_values(after))


def worker_pids(service: ServiceProcess) -> list[int]:
    """The supervisor's worker processes."""
    with open(f"/proc/{service.process.pid}/task/{service.process.pid}/children") as f:
        return [int(pid) for pid in f.read().split()]


async def test_two_workers_answer_one_set_of_counts_and_a_dead_one_leaves_its_counts(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"METRICS": "1", "WORKERS": "2"}
    with serving(redis_url, tmp_path / "service.log", **env) as service:
        started = time.monotonic()
        url = service.url
        answered_by: set[str] = set()
        _, before = await scrape(url)
        for _ in range(40):  # a connection each: the kernel spreads them over both workers
            async with httpx.AsyncClient(base_url=url, timeout=10) as client:
                r = await client.get("/v1/kinds")
                assert r.status_code == 200
                answered_by.add(r.headers["x-request-id"][:10])  # a prefix a process
        assert len(answered_by) == 2, "both workers should have answered"
        kinds = total(before, "kronikas_http_requests_total", route="/v1/kinds") + 40
        # Whichever worker answers, it adds up both (each worker's counts within FLUSH_S).
        await until(
            url, lambda s: total(s, "kronikas_http_requests_total", route="/v1/kinds") == kinds
        )
        await asyncio.sleep(metrics.FLUSH_S)
        for _ in range(8):
            _, samples = await scrape(url)
            assert total(samples, "kronikas_http_requests_total", route="/v1/kinds") == kinds
        async with httpx.AsyncClient(base_url=url, timeout=20) as http:
            table = await Tables(http).ready("cheat", 2, seed=3)
            async with http.stream("GET", f"/v1/games/{table.id}/stream") as opened:
                assert opened.status_code == 200
                await until(url, open_now("stream"))
                # A worker dying sooner than 10 s after it started stops the service (serve.py).
                await asyncio.sleep(max(0.0, 10.5 - (time.monotonic() - started)))
                old = worker_pids(service)
                for pid in old:
                    os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while not (set(worker_pids(service)) - set(old)) or len(worker_pids(service)) < 2:
            assert time.monotonic() < deadline, "the workers were not started again"
            await asyncio.sleep(0.1)
        service.wait_ready()
        # The dead workers' stream is gone from the gauge; their counts stay in the sums.
        samples = await until(url, lambda s: total(s, "kronikas_connections_open") == 0)
        assert total(samples, "kronikas_http_requests_total", route="/v1/kinds") == kinds
