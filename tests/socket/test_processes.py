"""The seat socket across processes, and through an outage of the store: a move made through one
service process reaches a socket held by another; a seat given up through one closes its socket
on the other; with Redis down commands answer 503 problems on the open socket, and the push
resumes when it is back; a service stopping closes its sockets with a code that says reconnect.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from kronikas.adapters.embedded_redis import EmbeddedRedis, free_port
from tests.api.tables import Tables, auth, move
from tests.conftest import serving
from tests.socket.wire import answer, closed, greeted, next_of, opened, say, versions_until


async def test_a_move_through_one_process_reaches_a_socket_on_the_other(
    redis_url: str, tmp_path: Path
) -> None:
    rng = random.Random(3)
    with serving(redis_url, tmp_path / "a.log") as a, serving(redis_url, tmp_path / "b.log") as b:
        async with (
            httpx.AsyncClient(base_url=a.url, timeout=30) as http_a,
            httpx.AsyncClient(base_url=b.url, timeout=30) as http_b,
        ):
            tables = Tables(http_a)
            table = await tables.ready("thirty_one", 2, seed=3)
            now = (await tables.view(table))["version"]
            async with (
                greeted(b.url, table.id, table.players[1], now) as (on_b, _),
                greeted(a.url, table.id, None, now) as (on_a, _),
            ):
                for _ in range(4):  # moves through a, heard on b's socket
                    moved = await move(tables, table, rng)
                    pushed = await versions_until(on_b, moved["version"])
                    r = await http_b.get(
                        f"/v1/games/{table.id}/events",
                        params={"after": now},
                        headers=auth(table.players[1]),
                    )
                    assert pushed == r.json()["events"]
                    now = moved["version"]
                # a move over the socket on b, heard on a's socket (a spectator's)
                view = await Tables(http_b).view(table, table.players[1])
                while not view["legal"] or view["me"]["seat"] != view["turn"]:
                    now = (await move(tables, table, rng))["version"]
                    view = await Tables(http_b).view(table, table.players[1])
                await say(on_b, {"type": "command", "id": "b-1", "command": {"type": "pass"}})
                said = await answer(on_b)
                if said["type"] == "problem":  # pass not legal now: knock instead
                    assert said["problem"]["code"] == "illegal_move", said
                    await say(on_b, {"type": "command", "id": "b-2", "command": {"type": "knock"}})
                    said = await answer(on_b)
                last = said["result"]["version"]
                heard = await versions_until(on_a, last)
                r = await http_a.get(f"/v1/games/{table.id}/events", params={"after": 0})
                assert heard == [
                    e for e in r.json()["events"] if e["version"] > heard[0]["version"] - 1
                ]
                assert heard[-1]["version"] == last


async def test_a_seat_given_up_through_one_process_closes_its_socket_on_the_other(
    redis_url: str, tmp_path: Path
) -> None:
    with serving(redis_url, tmp_path / "a.log") as a, serving(redis_url, tmp_path / "b.log") as b:
        async with httpx.AsyncClient(base_url=a.url, timeout=30) as http_a:
            tables = Tables(http_a)
            table = await tables.create("cheat")
            for _ in range(2):
                await tables.join(table)
            async with greeted(b.url, table.id, table.players[0]) as (ws, welcome):
                await versions_until(ws, welcome["version"])
                r = await tables.send(table, 0, {"type": "leave"})
                assert r.status_code == 200, r.text
                assert await closed(ws) == (4401, "unauthorized")


async def test_with_redis_down_commands_are_503_problems_and_the_push_resumes(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    with serving(own_redis.url, tmp_path / "s.log", REDIS_TIMEOUT_MS="500") as service:
        async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
            tables = Tables(http)
            table = await tables.ready("cheat", 2)
            spectator = await tables.view(table)
            seat = spectator["turn"]
            view = await tables.view(table, table.players[seat])
            now = view["version"]
            play = {"type": "play", "cards": view["me"]["hand"][:1]}
            async with (
                greeted(service.url, table.id, table.players[seat], now) as (mover, _),
                greeted(service.url, table.id, table.players[1 - seat], now) as (other, _),
            ):
                own_redis.stop()
                await say(mover, {"type": "command", "id": "d-1", "command": play})
                problem = await next_of(mover, "problem")
                assert problem["id"] == "d-1"
                assert problem["problem"]["status"] == 503
                assert problem["problem"]["code"] in ("unavailable", "outcome_unknown")
                assert isinstance(problem["retry_after"], int) and problem["retry_after"] >= 1
                async with opened(service.url, table.id) as late:  # a new socket: 4503
                    await say(late, {"type": "hello"})
                    assert await closed(late) == (4503, "unavailable retry_after=1")
                own_redis.start()
                # the same id again once the store is back: applied once, whatever happened
                for _ in range(100):
                    await say(mover, {"type": "command", "id": "d-1", "command": play})
                    answer = await next_of(mover, "result", "problem")
                    if answer["type"] == "result":
                        break
                    assert answer["problem"]["status"] == 503, answer
                    await asyncio.sleep(0.1)
                else:
                    raise AssertionError("the store did not come back")
                version = answer["result"]["version"]
                # the other seat's push resumed by itself: it hears the move
                pushed = await versions_until(other, version, timeout=20)
                assert pushed[-1]["version"] == version


async def test_a_service_stopping_closes_its_sockets_with_1001(
    redis_url: str, tmp_path: Path
) -> None:
    with serving(redis_url, tmp_path / "s.log") as service:
        async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
            table = await Tables(http).ready("cheat", 2)
        async with greeted(service.url, table.id, table.players[0]) as (ws, _):
            service.process.send_signal(signal.SIGTERM)
            assert await closed(ws, timeout=20) == (1001, "going_away")


UVICORN = """
import sys, uvicorn
from kronikas.api.ws_protocol import protocol
uvicorn.run(
    "kronikas.serve:app", factory=True, host="127.0.0.1", port=int(sys.argv[1]),
    ws=protocol(sys.argv[2]), log_level="warning",
)
"""


@pytest.mark.parametrize("implementation", ["websockets", "wsproto"])
async def test_uvicorn_with_the_seat_protocols_closes_sockets_with_1001_on_shutdown(
    redis_url: str, tmp_path: Path, implementation: str
) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (tmp_path / "u.log").open("wb")
    env = os.environ | {"REDIS_URL": redis_url, "LOG_LEVEL": "WARNING"}
    process = subprocess.Popen(
        [sys.executable, "-c", UVICORN, str(port), implementation],
        env=env,
        stdout=log,
        stderr=log,
    )
    try:
        async with httpx.AsyncClient(base_url=url, timeout=30) as http:
            for _ in range(300):
                try:
                    if (await http.get("/v1/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.05)
            table = await Tables(http).ready("cheat", 2)
        async with greeted(url, table.id, table.players[0]) as (ws, _):
            process.send_signal(signal.SIGTERM)
            assert await closed(ws, timeout=20) == (1001, "going_away")
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(20)
        log.close()
