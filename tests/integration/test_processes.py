"""Stateless service processes: two serve one game in turn; a killed one's game carries on."""

from __future__ import annotations

import random
import signal
from pathlib import Path

import httpx

from tests.api.tables import Tables, candidates
from tests.conftest import ServiceProcess


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
        view = rng.choice([v for v in views if v["legal"]])
        for command in candidates(view, rng):
            r = await tables.send(table, view["me"]["seat"], command)
            if r.status_code == 200:
                made += 1
                break
    return made


async def test_two_processes_serve_one_game_alternately(redis_url: str, tmp_path: Path) -> None:
    a = ServiceProcess(redis_url, tmp_path / "a.log")
    b = ServiceProcess(redis_url, tmp_path / "b.log")
    try:
        async with (
            httpx.AsyncClient(base_url=a.url) as ca,
            httpx.AsyncClient(base_url=b.url) as cb,
        ):
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
    finally:
        a.stop()
        b.stop()


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
