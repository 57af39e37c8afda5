"""Redis restarts between commands (append-only file, fsync every second; stopped with SIGTERM, as
an orderly restart): no acknowledged command is lost; while Redis is down every request answers
503 problem+json within seconds; the service comes back by itself, streams and long-polls too.
(A SIGKILLed service is in tests/integration/test_processes.py.)"""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from tests.api.tables import Table, Tables, auth, move
from tests.conftest import ServiceProcess

RESTARTS = 4
REDIS_TIMEOUT_S = 1.0
FIGURES = {
    "redis restarts": 0,
    "requests while down": 0,
    "acknowledged commands checked": 0,
    "503 after recovery (stale connection bug)": 0,
}


async def while_down(http: httpx.AsyncClient, table: Table) -> None:
    """Every kind of request answers 503 `unavailable` quickly; commands change nothing."""
    requests = [
        lambda: http.get("/v1/ready"),
        lambda: http.get(f"/v1/games/{table.id}"),
        lambda: http.get(f"/v1/games/{table.id}", headers=auth(table.players[0])),
        lambda: http.post(
            f"/v1/games/{table.id}/commands", json={"type": "call"}, headers=auth(table.players[0])
        ),
        lambda: http.post(
            f"/v1/games/{table.id}/commands",
            json={"type": "play", "cards": ["7H"]},
            headers=auth(table.players[1]),
        ),
        lambda: http.get(f"/v1/games/{table.id}/events", params={"wait": 30}),
        lambda: http.get(f"/v1/games/{table.id}/stream"),
        lambda: http.get("/v1/games"),
        lambda: http.post("/v1/games", json={"kind": "cheat"}),
        lambda: http.post(f"/v1/games/{table.id}/players", json={"name": "late"}),
        lambda: http.post(f"/v1/games/{table.id}/start", headers=auth(table.host)),
    ]
    for request in requests:
        started = time.monotonic()
        r = await request()
        took = time.monotonic() - started
        FIGURES["requests while down"] += 1
        # Each Redis call gives up after REDIS_TIMEOUT_S (and is tried twice): far below a wait.
        assert took < 8 * REDIS_TIMEOUT_S, f"{r.request.url} took {took:.1f} s"
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["code"] == "unavailable"


async def test_redis_restarts_lose_no_acknowledged_command(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    service = ServiceProcess(
        own_redis.url, tmp_path / "service.log", REDIS_TIMEOUT_MS=str(int(REDIS_TIMEOUT_S * 1000))
    )
    rng = random.Random(4)
    try:
        async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
            tables = Tables(http)
            table = await tables.ready("cheat", 3, {"chroniclers": True, "rounds": 5}, seed=6)
            acknowledged: list[dict[str, Any]] = []
            for _ in range(RESTARTS):
                for _ in range(8):
                    answer = await move(tables, table, rng)
                    acknowledged.append(answer)
                own_redis.stop()  # right after the last acknowledgement
                FIGURES["redis restarts"] += 1
                await while_down(http, table)
                own_redis.start()
                deadline = time.monotonic() + 10
                while (await http.get("/v1/ready")).status_code != 200:
                    assert time.monotonic() < deadline, "the service did not recover"
                    await asyncio.sleep(0.1)
                await check_nothing_lost(http, table, acknowledged)
                await check_long_polls_wake(http, tables, table, rng, acknowledged)
    finally:
        service.stop()
    print("\noutage figures:", json.dumps(FIGURES))


async def check_nothing_lost(
    http: httpx.AsyncClient, table: Table, acknowledged: list[dict[str, Any]]
) -> None:
    logs = []
    for token in table.players:
        r = await http.get(f"/v1/games/{table.id}/events", headers=auth(token))
        assert r.status_code == 200, r.text
        logs.append(r.json()["events"])
    assert logs[0][-1]["version"] == acknowledged[-1]["version"]
    for answer in acknowledged:
        for event in answer["events"]:
            assert logs[answer["seat"]][event["version"] - 1] == event
    FIGURES["acknowledged commands checked"] += len(acknowledged)


async def check_long_polls_wake(
    http: httpx.AsyncClient,
    tables: Tables,
    table: Table,
    rng: random.Random,
    acknowledged: list[dict[str, Any]],
) -> None:
    """The notification channel came back too: a waiting long-poll wakes on the next command."""
    version = acknowledged[-1]["version"]
    await asyncio.sleep(2.5)  # the notifier's reconnect backoff is at most 2 s
    # One stale pooled connection may still answer 503 (the bug pinned below): spend it here.
    for _ in range(3):
        if (await http.get(f"/v1/games/{table.id}")).status_code == 200:
            break
        FIGURES["503 after recovery (stale connection bug)"] += 1
    poll = asyncio.create_task(
        http.get(f"/v1/games/{table.id}/events", params={"after": version, "wait": 30})
    )
    await asyncio.sleep(0.2)
    sent = time.monotonic()
    answer = await move(tables, table, rng)
    acknowledged.append(answer)
    r = await poll
    assert r.status_code == 200, r.text
    assert r.json()["events"], "the long-poll did not wake"
    assert time.monotonic() - sent < 15, "woken by the move, not by the end of its wait"


async def test_no_request_fails_once_redis_is_back(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    service = ServiceProcess(
        own_redis.url, tmp_path / "service.log", REDIS_TIMEOUT_MS=str(int(REDIS_TIMEOUT_S * 1000))
    )
    try:
        async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
            table = await Tables(http).ready("cheat", 2, seed=1)
            url = f"/v1/games/{table.id}/events"
            await asyncio.gather(
                *(http.get(url, params={"wait": 0.3, "after": 99}) for _ in range(5))
            )
            own_redis.stop()
            own_redis.start()
            while (await http.get("/v1/ready")).status_code != 200:
                await asyncio.sleep(0.1)
            codes = [(await http.get(url)).status_code for _ in range(10)]
            await asyncio.sleep(3)
            codes += [(await http.get(url)).status_code for _ in range(10)]
            assert codes == [200] * 20
    finally:
        service.stop()


async def test_a_stream_whose_read_fails_ends_cleanly_and_resumes(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    """A stream told to read again (its pub/sub line lost and resubscribed, as after a failover)
    while the store cannot answer the read is ended as a stream ends — the last chunk sent, no
    error in the log — and a reconnect with `Last-Event-ID` carries on."""
    log = tmp_path / "service.log"
    service = ServiceProcess(own_redis.url, log, REDIS_TIMEOUT_MS=str(int(REDIS_TIMEOUT_S * 1000)))
    admin = Redis(port=own_redis.port)
    try:
        async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
            tables = Tables(http)
            table = await tables.ready("cheat", 2, seed=1)
            url = f"/v1/games/{table.id}/stream"
            version = (await http.get(f"/v1/games/{table.id}")).json()["version"]
            async with http.stream("GET", url, headers=auth(table.players[0])) as stream:

                async def read() -> list[str]:  # to its end; httpx raises on a cut stream
                    return [line async for line in stream.aiter_lines()]

                reading = asyncio.create_task(read())
                await asyncio.sleep(1)  # subscribed, and caught up
                # Scripts wait (reads too), subscriptions do not: the notifier resubscribes at
                # once, and the stream's read after it times out.
                await admin.execute_command("CLIENT", "PAUSE", 4000, "WRITE")
                await admin.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
                lines = await asyncio.wait_for(reading, 15)
            ids = [int(line[4:]) for line in lines if line.startswith("id: ")]
            assert ids == list(range(1, version + 1))
            await asyncio.sleep(4)  # the pause is over
            await move(tables, table, random.Random(1))
            headers = auth(table.players[0]) | {"Last-Event-ID": str(version)}

            async def first_id() -> int:
                async with http.stream("GET", url, headers=headers) as again:
                    async for line in again.aiter_lines():
                        if line.startswith("id: "):
                            return int(line[4:])
                raise AssertionError("the stream ended without an event")

            assert await asyncio.wait_for(first_id(), 15) == version + 1
        said = log.read_text()
        assert "stream ended: the store is unavailable" in said
        assert "Exception in ASGI application" not in said
        assert "Traceback" not in said
    finally:
        await admin.aclose()
        service.stop()
