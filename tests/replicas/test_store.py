"""The Redis store with `WRITE_REPLICAS`: an append is made once the replica has it (`WAIT` on
the connection that made it, one `WAIT` a pipelined batch), its notice published only then, and
no read shows what the replica does not have; `WRITE_REPLICAS=0` appends and publishes as the
append script always did, with no `WAIT`."""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Connection, ConnectionPool, Redis

from kronikas.adapters.event_store import RedisStores, notify_channel
from kronikas.adapters.scripts import game_keys
from kronikas.application.errors import OutcomeUnknown
from kronikas.application.ports import AppendRequest, Summary
from tests.redis_group import RedisGroup, Server
from tests.replicas.conftest import calls, llen

WAIT_MS = 300


def summary(game_id: str) -> Summary:
    return Summary(game_id, "cheat", "open", 0, int(time.time() * 1000), 0)


def record(name: str) -> bytes:
    """A record unique to its append (as the use cases' nonce makes it)."""
    return json.dumps({"e": name, "n": secrets.token_hex(8)}).encode()


def new_id() -> str:
    return f"rep{secrets.token_hex(6)}"


def append(game_id: str, expected: int, *records: bytes) -> AppendRequest:
    return AppendRequest(game_id, expected, list(records), summary(game_id), 600)


async def stores(client: Redis, replicas: int) -> RedisStores:
    return RedisStores(client, write_replicas=replicas, write_wait_ms=WAIT_MS)


class PlainConnection(Connection):
    """redis-py's own connection under another name: the store runs its scripts through
    redis-py (as on TLS or a Unix socket), not on its own line."""


@pytest.fixture(params=["own line", "redis-py"])
async def client(group: RedisGroup, request: pytest.FixtureRequest) -> AsyncIterator[Redis]:
    """A client of the primary whose store runs its scripts on its own line, or through
    redis-py (an append and its WAIT in one pipeline)."""
    url = group.primary_url()
    if request.param == "own line":
        made = Redis.from_url(url, socket_timeout=2)
    else:
        pool = ConnectionPool.from_url(url, connection_class=PlainConnection, socket_timeout=2)
        made = Redis(connection_pool=pool)
    try:
        yield made
    finally:
        await made.aclose()


async def until_acked(primary: Redis, game_id: str, version: int) -> None:
    """ack.lua is sent without awaiting its reply: until the meta says `acked` = `version`."""
    for _ in range(200):
        if await primary.hget(game_keys(game_id)["meta"], "acked") == str(version).encode():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"acked never reached {version}")


async def test_appends_are_made_once_the_replica_has_them_one_wait_a_batch(
    group: RedisGroup, replica: Server, primary: Redis
) -> None:
    store = await stores(primary, 1)
    try:
        await store.log.append(append(new_id(), 0, record("warm up")))  # connected, loaded
        before = calls(group.primary(), "wait")
        games = [new_id() for _ in range(20)]
        made = await asyncio.gather(*(store.log.append(append(g, 0, record("a"))) for g in games))
        waits = calls(group.primary(), "wait") - before
        assert [m.outcome for m in made] == ["ok"] * 20
        assert 1 <= waits < 20, f"{waits} WAITs for 20 appends sent together"
        # answered only once the replica had it: it has every one now, without waiting
        assert [llen(replica, game_keys(g)["log"]) for g in games] == [1] * 20
        for game_id in games:
            await until_acked(primary, game_id, 1)
    finally:
        await store.aclose()


async def test_without_replicas_the_append_script_publishes_and_nothing_waits(
    group: RedisGroup, primary: Redis
) -> None:
    store = await stores(primary, 0)
    game_id, first = new_id(), record("created")
    pubsub = primary.pubsub()
    try:
        await store.log.append(append(new_id(), 0, record("warm up")))
        await pubsub.subscribe(notify_channel(game_id))
        assert (await pubsub.get_message(timeout=2))["type"] == "subscribe"  # type: ignore[index]
        waits, evals = calls(group.primary(), "wait"), calls(group.primary(), "evalsha")
        made = await store.log.append(append(game_id, 0, first))
        assert (made.outcome, made.version) == ("ok", 1)
        message: Any = await pubsub.get_message(timeout=2)
        assert message["data"] == b"1\n" + first
        assert calls(group.primary(), "wait") == waits, "no WAIT"
        assert calls(group.primary(), "evalsha") == evals + 1, "the append's one script"
        meta = await primary.hgetall(game_keys(game_id)["meta"])
        assert b"acked" not in meta
    finally:
        await pubsub.aclose()
        await store.aclose()


async def test_with_replicas_the_notice_follows_the_wait(group: RedisGroup, primary: Redis) -> None:
    store = await stores(primary, 1)
    game_id, first = new_id(), record("created")
    pubsub = primary.pubsub()
    try:
        await store.log.append(append(new_id(), 0, record("warm up")))
        await pubsub.subscribe(notify_channel(game_id))
        assert (await pubsub.get_message(timeout=2))["type"] == "subscribe"  # type: ignore[index]
        waits = calls(group.primary(), "wait")
        made = await store.log.append(append(game_id, 0, first))
        assert (made.outcome, made.version) == ("ok", 1)
        message: Any = await pubsub.get_message(timeout=2)
        assert message["data"] == b"1\n" + first
        assert calls(group.primary(), "wait") == waits + 1
        await until_acked(primary, game_id, 1)
    finally:
        await pubsub.aclose()
        await store.aclose()


async def test_an_append_the_paused_replica_lacks_is_unknown_and_never_read(
    replica: Server, primary: Redis, client: Redis
) -> None:
    store = await stores(client, 1)
    assert store.scripts.on_line != (client.connection_pool.connection_class is PlainConnection)
    game_id, first, second = new_id(), record("created"), record("a move")
    pubsub = primary.pubsub()
    try:
        assert (await store.log.append(append(game_id, 0, first))).version == 1
        await until_acked(primary, game_id, 1)
        await pubsub.subscribe(notify_channel(game_id))
        assert (await pubsub.get_message(timeout=2))["type"] == "subscribe"  # type: ignore[index]
        replica.pause()
        started = time.monotonic()
        with pytest.raises(OutcomeUnknown):
            await store.log.append(append(game_id, 1, second))
        assert time.monotonic() - started < WAIT_MS / 1000 + 1.5
        assert await primary.llen(game_keys(game_id)["log"]) == 2, "made on the primary..."
        read = await store.log.read(game_id, 0, "", 100, rate=False)
        assert (read.version, read.records) == (1, [first]), "...and shown to nobody"
        assert await pubsub.get_message(timeout=0.2) is None, "nor published"
        replica.resume()
        read = await store.log.read(game_id, 0, "", 100, rate=False)
        assert (read.version, read.records) == (2, [first, second]), "confirmed by a WAIT now"
        await until_acked(primary, game_id, 2)
        message: Any = await pubsub.get_message(timeout=2)
        assert message["data"] == b"2", "its followers elsewhere told the version"
        conflict = await store.log.append(append(game_id, 1, record("too late")))
        assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 2, [second])
    finally:
        replica.resume()
        await pubsub.aclose()
        await store.aclose()
