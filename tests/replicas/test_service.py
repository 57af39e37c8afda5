"""Two service processes with `WRITE_REPLICAS=1` on a primary and its replica: a move is
answered once the replica has it; with the replica paused, a move answers 503 `outcome_unknown`
within `WRITE_WAIT_MS` (and some slack), and no follower — a stream, a long-poll, a view, the
events page, on either process — is shown its version; once the replica is back, the retry with
the same `Idempotency-Key` answers the one outcome (made once), and every follower hears of it
once, in order."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest

from kronikas.adapters.scripts import game_keys
from tests.api.tables import Table, Tables, auth
from tests.conftest import serving
from tests.redis_group import RedisGroup, Server
from tests.replicas.conftest import llen

WAIT_MS = 400


@pytest.fixture(scope="module")
def services(
    group: RedisGroup, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """Two service processes on the primary, for the module's tests: their URLs."""
    logs = tmp_path_factory.mktemp("logs")
    env = {"WRITE_REPLICAS": "1", "WRITE_WAIT_MS": str(WAIT_MS)}
    url = group.primary_url()
    with serving(url, logs / "a.log", **env) as a, serving(url, logs / "b.log", **env) as b:
        yield a.url, b.url


@contextlib.asynccontextmanager
async def two(services: tuple[str, str]) -> AsyncIterator[tuple[httpx.AsyncClient, ...]]:
    async with (
        httpx.AsyncClient(base_url=services[0], timeout=30) as a,
        httpx.AsyncClient(base_url=services[1], timeout=30) as b,
    ):
        yield a, b


async def stream_versions(
    http: httpx.AsyncClient, table: Table, after: int, seen: list[int], ready: asyncio.Event
) -> None:
    """Follow the table's stream from `after`, noting each event's version."""
    url = f"/v1/games/{table.id}/stream"
    async with http.stream("GET", url, params={"after": after}) as r:
        assert r.status_code == 200
        ready.set()
        async for line in r.aiter_lines():
            if line.startswith("id: "):
                seen.append(int(line[4:]))


async def at_turn(tables: Tables, table: Table) -> tuple[int, dict[str, Any]]:
    turn = (await tables.view(table))["turn"]
    return turn, await tables.view(table, table.players[turn])


async def test_a_move_is_answered_once_the_replica_has_it(
    replica: Server, services: tuple[str, str]
) -> None:
    async with two(services) as (a, _):
        tables = Tables(a)
        table = await tables.ready("cheat", 2, seed=5)
        for _ in range(4):
            turn, view = await at_turn(tables, table)
            command = {"type": "play", "cards": view["me"]["hand"][:1]}
            r = await tables.send(table, turn, command)
            assert r.status_code == 200, r.text
            # the replica had it before the answer left: no waiting here
            assert llen(replica, game_keys(table.id)["log"]) == r.json()["version"]


async def test_a_paused_replica_makes_a_move_unknown_and_shows_it_to_nobody_until_retried(
    group: RedisGroup, replica: Server, services: tuple[str, str]
) -> None:
    async with two(services) as (a, b):
        tables, others = Tables(a), Tables(b)
        table = await tables.ready("cheat", 2, seed=7)
        turn, view = await at_turn(tables, table)
        version = view["version"]
        assert (await others.view(table))["version"] == version
        seen: list[int] = []
        ready = asyncio.Event()
        streaming = asyncio.create_task(stream_versions(b, table, version, seen, ready))
        await asyncio.wait_for(ready.wait(), 10)
        events = f"/v1/games/{table.id}/events"
        polling = asyncio.create_task(b.get(events, params={"after": version, "wait": 20}))
        await asyncio.sleep(0.3)  # the long-poll waits on b
        url = f"/v1/games/{table.id}/commands"
        headers = auth(table.players[turn]) | {"Idempotency-Key": "the-move"}
        command = {"type": "play", "cards": view["me"]["hand"][:1]}
        try:
            replica.pause()
            started = time.monotonic()
            r = await a.post(url, json=command, headers=headers)
            elapsed = time.monotonic() - started
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "outcome_unknown"
            assert elapsed < WAIT_MS / 1000 + 2.0, elapsed
            made = llen(group.primary(), game_keys(table.id)["log"])
            assert made > version, "the primary made it; nobody is shown it:"
            seat = auth(table.players[turn])
            for http in (a, b):
                assert (await Tables(http).view(table))["version"] == version
                page = (await http.get(events, params={"after": 0})).json()
                assert page["version"] == version
                assert page["events"][-1]["version"] == version
                # the record and the past views stop there too
                record = await http.get(f"/v1/games/{table.id}/record", headers=seat)
                assert record.status_code == 200, record.text
                assert record.json()["version"] == version
                assert record.json()["events"][-1]["version"] == version
                past = await http.get(
                    f"/v1/games/{table.id}/views", params={"after": version - 1}, headers=seat
                )
                assert past.status_code == 200, past.text
                assert [v["version"] for v in past.json()["views"]] == [version]
            await asyncio.sleep(0.3)
            assert seen == [] and not polling.done()
        finally:
            replica.resume()
        again = await a.post(url, json=command, headers=headers)
        assert again.status_code == 200, again.text
        assert again.json()["version"] == made, "the one outcome: made once, by the first try"
        assert llen(group.primary(), game_keys(table.id)["log"]) == made
        polled = (await asyncio.wait_for(polling, 20)).json()
        assert [e["version"] for e in polled["events"]] == list(range(version + 1, made + 1))
        for _ in range(100):
            if len(seen) >= made - version:
                break
            await asyncio.sleep(0.05)
        streaming.cancel()
        await asyncio.gather(streaming, return_exceptions=True)
        assert seen == list(range(version + 1, made + 1)), "each once, in order"
        assert (await others.view(table))["version"] == made


async def test_a_create_no_replica_confirmed_is_unknown_and_its_table_unread_until_it_is(
    replica: Server, services: tuple[str, str]
) -> None:
    """A create the replica does not confirm in time is 503 `outcome_unknown` (docs/api.md,
    Versions and retries): the table may exist, without its host token. While none of its
    versions is acknowledged it answers reads 503 `unavailable`; once the replica has it, it
    reads as the open table it is, and can be joined."""
    async with two(services) as (a, b):
        before = {
            g["id"] for g in (await a.get("/v1/games", params={"limit": 100})).json()["games"]
        }
        try:
            replica.pause()
            r = await a.post("/v1/games", json={"kind": "cheat"})
            assert r.status_code == 503 and r.json()["code"] == "outcome_unknown", r.text
            listed = (await b.get("/v1/games", params={"limit": 100})).json()["games"]
            made = [g["id"] for g in listed if g["id"] not in before]
            assert len(made) == 1, "listed as it was made, acknowledged or not"
            for game in made:
                for http in (a, b):
                    seen = await http.get(f"/v1/games/{game}")
                    assert seen.status_code == 503, seen.text
                    assert seen.json()["code"] == "unavailable"
        finally:
            replica.resume()
        listed = (await b.get("/v1/games", params={"limit": 100})).json()["games"]
        made = [g["id"] for g in listed if g["id"] not in before]
        assert len(made) == 1, "the primary has the table"
        view = await b.get(f"/v1/games/{made[0]}")
        assert view.status_code == 200, view.text
        assert view.json()["status"] == "open"
        joined = await a.post(f"/v1/games/{made[0]}/players", json={"name": "Ilona"})
        assert joined.status_code == 201, joined.text
