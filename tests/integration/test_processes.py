"""Stateless service processes: two serve one game in turn; a killed one's game carries on."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from kronikas.adapters.embedded_redis import EmbeddedRedis
from tests.api.tables import Tables, candidates, game_moves
from tests.conftest import ServiceProcess, serving, two_processes


async def play_some(
    tables: Tables, table_id: str, tokens: list[str], rng: random.Random, n: int
) -> int:
    """Make up to `n` legal moves; returns how many were made."""
    from tests.api.tables import Table

    table = Table(table_id, "", "", tokens)
    made = 0
    while made < n:
        views = [await tables.view(table, token) for token in tokens]
        if views[0]["status"] == "finished":
            break
        view = rng.choice([v for v in views if game_moves(v)])
        for command in candidates(view, rng):
            r = await tables.send(table, view["me"]["seat"], command)
            if r.status_code == 200:
                made += 1
                break
    return made


async def test_two_processes_serve_one_game_alternately(redis_url: str, tmp_path: Path) -> None:
    async with two_processes(redis_url, tmp_path) as (ca, cb):
        ta, tb = Tables(ca), Tables(cb)
        table = await ta.create("cheat", {"chroniclers": True}, seed=3)
        await tb.join(table)
        await ta.join(table)
        await tb.start(table)
        rng = random.Random(1)
        turns = 0
        while (await ta.view(table))["status"] != "finished" and turns < 400:
            both = (ta, tb)[turns % 2]
            assert await play_some(both, table.id, table.players, rng, 1) == 1
            turns += 1
            assert (await ta.view(table))["version"] == (await tb.view(table))["version"]
        assert (await tb.view(table))["status"] == "finished"
        events = (await cb.get(f"/v1/games/{table.id}/events")).json()["events"]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1))


async def test_a_killed_service_restarts_and_the_game_carries_on(
    redis_url: str, tmp_path: Path
) -> None:
    first = ServiceProcess(redis_url, tmp_path / "first.log")
    try:
        async with httpx.AsyncClient(base_url=first.url) as client:
            tables = Tables(client)
            table = await tables.ready("thirty_one", 3, {"lives": 1}, seed=8)
            rng = random.Random(2)
            assert await play_some(tables, table.id, table.players, rng, 5) == 5
            before = await tables.view(table, table.players[0])
    finally:
        first.stop(signal.SIGKILL)
    assert first.process.returncode == -signal.SIGKILL
    second = ServiceProcess(redis_url, tmp_path / "second.log")
    try:
        async with httpx.AsyncClient(base_url=second.url) as client:
            tables = Tables(client)
            after = await tables.view(table, table.players[0])
            assert after == before
            await tables.play_to_end(table, rng)
            assert (await tables.view(table))["status"] == "finished"
    finally:
        second.stop()


def alive(pid: int) -> bool:
    """Whether a process runs (a zombie waiting to be reaped does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def workers_of(pid: int) -> list[int]:
    """The worker processes uvicorn spawned under `pid` (Linux /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            command = (stat.parent / "cmdline").read_bytes()
        except OSError:
            continue
        if parent == pid and b"spawn_main" in command:
            found.append(int(stat.parent.name))
    return found


async def test_two_workers_serve_one_port_and_wake_each_others_long_polls(
    redis_url: str, tmp_path: Path
) -> None:
    with serving(redis_url, tmp_path / "workers.log", WORKERS="2") as service:
        workers = workers_of(service.process.pid)
        assert len(workers) == 2
        # One connection a client: the kernel spreads them over the two workers' sockets.
        clients = [httpx.AsyncClient(base_url=service.url, timeout=15) for _ in range(8)]
        try:
            tables = Tables(clients[0])
            table = await tables.ready("cheat", 2, seed=4)
            version = (await tables.view(table))["version"]
            url = f"/v1/games/{table.id}/events"
            polls = [
                asyncio.create_task(c.get(url, params={"after": version, "wait": 10}))
                for c in clients[1:]
            ]
            await asyncio.sleep(0.5)
            moved = await play_some(
                Tables(clients[0]), table.id, table.players, random.Random(3), 1
            )
            assert moved == 1
            for answer in await asyncio.gather(*polls):
                assert answer.status_code == 200
                assert answer.json()["events"][0]["version"] == version + 1
        finally:
            for client in clients:
                await client.aclose()
        assert all(alive(pid) for pid in workers)
    assert not any(alive(pid) for pid in workers), "a worker outlived the stop"


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def keep_alive_gets(port: int, path: str, connections: int, each: int) -> None:
    """`connections` connections opened one after another, then `each` GETs on every one."""
    streams = [await asyncio.open_connection("127.0.0.1", port) for _ in range(connections)]
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()

    async def look(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        for _ in range(each):
            writer.write(request)
            head = await reader.readuntil(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200"), head
            length = next(
                int(line.split(b":")[1])
                for line in head.lower().split(b"\r\n")
                if line.startswith(b"content-length:")
            )
            await reader.readexactly(length)

    try:
        await asyncio.gather(*(look(reader, writer) for reader, writer in streams))
    finally:
        for _, writer in streams:
            writer.close()


async def test_two_workers_share_32_keep_alive_connections_between_them(
    redis_url: str, tmp_path: Path
) -> None:
    """Each worker has its own socket (SO_REUSEPORT): neither can take every connection."""
    with serving(redis_url, tmp_path / "spread.log", WORKERS="2") as service:
        workers = workers_of(service.process.pid)
        async with httpx.AsyncClient(base_url=service.url) as client:
            table = await Tables(client).ready("cheat", 2, seed=6)
        # A first round warms both workers up (connections to Redis, first folds, lazy set-up):
        # measured, it gave one worker a third of a second the other did not spend.
        await keep_alive_gets(service.port, f"/v1/games/{table.id}", 32, 10)
        before = [cpu_seconds(pid) for pid in workers]
        await keep_alive_gets(service.port, f"/v1/games/{table.id}", 32, 50)
        spent = [cpu_seconds(pid) - b for pid, b in zip(workers, before, strict=True)]
        # Connections land by a hash of their addresses: 15% or less of the work for one
        # worker means 4 or fewer of the 32 connections, which happens about once in 50,000.
        assert min(spent) >= 0.15 * sum(spent), spent


async def test_workers_end_with_their_supervisor_even_when_it_is_killed(
    redis_url: str, tmp_path: Path
) -> None:
    service = ServiceProcess(redis_url, tmp_path / "killed.log", WORKERS="2")
    workers = workers_of(service.process.pid)
    assert len(workers) == 2
    service.stop(signal.SIGKILL)
    for _ in range(100):
        if not any(alive(pid) for pid in workers):
            break
        await asyncio.sleep(0.05)
    assert not any(alive(pid) for pid in workers), "a worker outlived its killed supervisor"


def test_workers_refuse_a_port_that_is_taken(redis_url: str, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        env = os.environ | {"REDIS_URL": redis_url, "PORT": str(port), "WORKERS": "2"}
        done = subprocess.run(
            [sys.executable, "-m", "kronikas.serve"], env=env, capture_output=True, timeout=30
        )
    assert done.returncode == 1
    assert b"cannot listen" in done.stderr


async def test_a_long_poll_on_one_process_wakes_on_a_move_made_on_another(
    redis_url: str, tmp_path: Path
) -> None:
    async with two_processes(redis_url, tmp_path) as (ca, cb):
        table = await Tables(ca).ready("thirty_one", 2, seed=5)
        rng = random.Random(4)
        for _ in range(3):
            version = (await Tables(ca).view(table))["version"]
            poll = asyncio.create_task(
                ca.get(f"/v1/games/{table.id}/events", params={"after": version, "wait": 10})
            )
            await asyncio.sleep(0.3)
            started = asyncio.get_running_loop().time()
            assert await play_some(Tables(cb), table.id, table.players, rng, 1) == 1
            answer = await poll
            assert answer.status_code == 200
            assert answer.json()["events"][0]["version"] == version + 1
            assert asyncio.get_running_loop().time() - started < 2


def test_the_open_limit_counts_the_peer_not_a_forwarded_for_header(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    """`X-Forwarded-For` is not believed, even from loopback: a client cannot pass for many
    addresses to get around `OPEN_LIMIT_PER_MIN` (README, Configuration). At 6 a minute the
    burst is 2."""
    with serving(own_redis.url, tmp_path / "s.log", OPEN_LIMIT_PER_MIN="6") as service:
        answers = [
            httpx.post(
                f"{service.url}/v1/games",
                json={"kind": "cheat"},
                headers={"X-Forwarded-For": f"203.0.113.{i}"},
                timeout=5,
            )
            for i in range(3)
        ]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[2].json()["code"] == "rate_limited"
