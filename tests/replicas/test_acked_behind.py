"""After a failover with `WRITE_REPLICAS`, the new primary has the log up to every version a
`WAIT` confirmed, but its meta's `acked` may lag behind (ack.lua's write is not itself waited
for), and with no replica yet its reads cannot confirm the tail again. A follower already at the
log's last version must then wait — never be sent a version twice — and get the next versions
once each, in order.

The failover is played without Sentinel: `acked` set below the log's length by hand, the replica
paused (the new primary's reads cannot confirm the tail), the services' pub/sub lines cut (they
reconnect, as to a new primary, and every follower reads again)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.adapters.scripts import game_keys
from kronikas.application.errors import Unavailable
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions, Play
from tests.api.tables import Table, Tables, auth
from tests.apps import ENGINES
from tests.conftest import serving
from tests.redis_group import RedisGroup, Server
from tests.socket.wire import greeted, heard

WAIT_MS = 300


@pytest.fixture(scope="module")
def services(
    group: RedisGroup, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """Two service processes on the primary, quick to re-read while idle: their URLs."""
    logs = tmp_path_factory.mktemp("logs")
    env = {
        "WRITE_REPLICAS": "1",
        "WRITE_WAIT_MS": str(WAIT_MS),
        "SSE_KEEPALIVE_S": "1",
        "SOCKET_HEARTBEAT_S": "1",
    }
    url = group.primary_url()
    with serving(url, logs / "a.log", **env) as a, serving(url, logs / "b.log", **env) as b:
        yield a.url, b.url


@pytest.fixture
async def primary(group: RedisGroup) -> AsyncIterator[Redis]:
    client = Redis.from_url(group.primary_url(), socket_timeout=5)
    try:
        yield client
    finally:
        await client.aclose()


async def stream_versions(
    http: httpx.AsyncClient, table: Table, after: int, seen: list[int], ready: asyncio.Event
) -> None:
    """Follow the table's stream on ONE connection from `after`, noting each event's version."""
    async with http.stream("GET", f"/v1/games/{table.id}/stream", params={"after": after}) as r:
        assert r.status_code == 200
        ready.set()
        async for line in r.aiter_lines():
            if line.startswith("id: "):
                seen.append(int(line[4:]))


async def socket_versions(url: str, table: Table, after: int, seen: list[int]) -> None:
    """Follow the table on ONE seat socket (a spectator's) from `after`, noting each version."""
    async with greeted(url, table.id, None, after) as (ws, _):
        while True:
            message = await heard(ws, timeout=60)
            if message["type"] == "events":
                seen += [event["version"] for event in message["events"]]


async def watch_probes(group: RedisGroup, table: Table, probes: list[str]) -> None:
    """Note each read's write of nothing for the table (a read that tries to confirm its tail:
    adapters/scripts.py `acknowledge`), as the primary's MONITOR shows them."""
    client = Redis.from_url(group.primary_url())
    try:
        async with client.monitor() as monitor:
            async for said in monitor.listen():
                if said["command"] == f"PUBLISH kr:acknowledged {table.id}":
                    probes.append(said["command"])
    finally:
        await client.aclose()


async def until(condition: Any, what: str, timeout: float = 15.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.05)


async def move(http: httpx.AsyncClient, tables: Tables, table: Table) -> int:
    """The seat on turn plays its first card: the new version."""
    turn = (await tables.view(table))["turn"]
    hand = (await tables.view(table, table.players[turn]))["me"]["hand"]
    r = await http.post(
        f"/v1/games/{table.id}/commands",
        json={"type": "play", "cards": hand[:1]},
        headers=auth(table.players[turn]),
    )
    assert r.status_code == 200, r.text
    version: int = r.json()["version"]
    return version


async def test_a_follower_past_a_lagging_acked_waits_and_is_sent_nothing_twice(
    group: RedisGroup, replica: Server, services: tuple[str, str], primary: Redis
) -> None:
    a_url, b_url = services
    async with (
        httpx.AsyncClient(base_url=a_url, timeout=30) as a,
        httpx.AsyncClient(base_url=b_url, timeout=30) as b,
    ):
        tables = Tables(a)
        table = await tables.ready("cheat", 2, seed=19)
        start = (await tables.view(table))["version"]
        streamed: list[int] = []  # a stream on the process that makes the moves
        socketed: list[int] = []  # a seat socket on the other
        ready = asyncio.Event()
        followers = [
            asyncio.create_task(stream_versions(a, table, start, streamed, ready)),
            asyncio.create_task(socket_versions(b_url, table, start, socketed)),
        ]
        try:
            await asyncio.wait_for(ready.wait(), 10)
            await asyncio.sleep(0.3)  # the socket said hello
            for _ in range(3):
                last = await move(a, tables, table)
            await until(lambda: last in streamed and last in socketed, "both followers at last")
            keys = game_keys(table.id)
            assert await primary.llen(keys["log"]) == last
            # the failover: `acked` behind the log, and no replica to confirm the tail again
            replica.pause()
            try:
                await primary.hset(keys["meta"], "acked", last - 2)
                probes: list[str] = []
                watching = asyncio.create_task(watch_probes(group, table, probes))
                await asyncio.sleep(0.3)  # MONITOR is on
                await primary.execute_command("CLIENT", "KILL", "TYPE", "pubsub")
                # every follower's process reads again (woken by its reconnect), each read cut
                # at `acked` after a write of nothing whose WAIT no replica answers
                await until(lambda: len(probes) >= 2, "a read by each process")
                watching.cancel()
                await asyncio.sleep(WAIT_MS / 1000 + 0.5)
                assert streamed[-1] == last and socketed[-1] == last, "nothing more was sent"
                page = (await b.get(f"/v1/games/{table.id}/events", params={"after": 0})).json()
                assert page["events"][-1]["version"] <= last
            finally:
                replica.resume()
            made = await move(a, tables, table)
            assert made == last + 1
            await until(lambda: made in streamed and made in socketed, "both followers at made")
            await asyncio.sleep(0.5)  # anything sent twice would come now
        finally:
            for follower in followers:
                follower.cancel()
            await asyncio.gather(*followers, return_exceptions=True)
        wanted = list(range(start + 1, made + 1))
        assert streamed == wanted, "each version once, in order (stream)"
        assert socketed == wanted, "each version once, in order (socket)"
        assert json.loads((await b.get(f"/v1/games/{table.id}")).content)["version"] == made


@contextlib.asynccontextmanager
async def process(primary: Redis) -> AsyncIterator[tuple[Games, Notifier]]:
    """A service's use cases on the primary, as one process holds them (`WRITE_REPLICAS=1`)."""
    settings = Settings(
        rate_per_s=100_000,
        rate_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        sse_keepalive_s=1.0,
        write_replicas=1,
        write_wait_ms=WAIT_MS,
    )
    notifier = Notifier(primary)
    notifier.start()
    stores = RedisStores(primary, 100_000, 100_000, 1, WAIT_MS)
    try:
        yield Games(stores, notifier, for_table, settings, ENGINES), notifier
    finally:
        await notifier.stop()
        await stores.aclose()


async def play_one_card(games: Games, game_id: str, tokens: list[str]) -> int:
    """The player on turn plays their first card; the new version."""
    seat = json.loads((await games.view(game_id, tokens[0])).body)["turn"]
    hand = json.loads((await games.view(game_id, tokens[seat])).body)["me"]["hand"]
    return (await games.command(game_id, tokens[seat], Play(cards=hand[:1]), b"")).version


async def test_a_process_that_never_held_the_table_does_not_send_its_followers_back(
    replica: Server, primary: Redis
) -> None:
    """A process reading the table afresh sees it at `acked`: a stream past that (a client
    that resumes from the last version it had) waits; MCP's `wait` and a seat's catching up
    (which answer at once) say the store is unavailable rather than answer from behind; the
    process that held the table keeps it. Once the replica is back, the next version comes once."""
    async with process(primary) as (held, held_notifier):
        created = json.loads(await held.create("cheat", CheatOptions(), seed=23))
        game_id = created["game"]["id"]
        tokens = [json.loads(await held.join(game_id, name))["token"] for name in ("A", "B")]
        await held.start(game_id, created["host_token"])
        for _ in range(3):
            last = await play_one_card(held, game_id, tokens)
        meta = game_keys(game_id)["meta"]
        replica.pause()
        try:
            await primary.hset(meta, "acked", last - 2)
            await held_notifier.stop()  # its line breaks and comes back: its followers read
            held_notifier.start()
            async with process(primary) as (fresh, _):
                session = await fresh.stream(game_id, None, last)
                async with session:
                    sight = await session.view()
                    assert sight.version == last - 2, "shown as far as acknowledged"
                    assert session.after == last, "not sent back: the log holds `last`"
                    assert await session.next() in ([], None)
                    assert session.after == last
                    with pytest.raises(Unavailable):
                        await fresh.read_since(game_id, None, last, None)
                    with pytest.raises(Unavailable):
                        await fresh.caught_up(game_id, tokens[0], last)
                    page = json.loads(await fresh.events(game_id, None, last, 0.5))
                    assert page["events"] == [] and page["version"] == last - 2
                    assert (await held.caught_up(game_id, None, last))[0].version == last
                    replica.resume()
                    made = await play_one_card(held, game_id, tokens)
                    async with asyncio.timeout(15):
                        owed = await session.next()
                        while owed in ([], None):
                            owed = await session.next()
                    assert owed is not None
                    assert [d.version for d in owed] == [made] == [last + 1]
        finally:
            replica.resume()
