"""The store's own pipelined Redis connection (adapters/script_line.py), against real Redis: many
calls in flight get each its own reply, a forgotten script is loaded again, and a stalled or
restarted server fails the calls it holds quickly, after which the line connects again."""

from __future__ import annotations

import asyncio
import time
import uuid

import pytest
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.redis_client import connect
from kronikas.adapters.script_line import LineScript, ReplyLate, ScriptLine, maybe_run
from kronikas.config import Settings

ECHO = LineScript("return {KEYS[1], ARGV[1], redis.call('INCR', KEYS[1])}")


def line_of(client: Redis) -> ScriptLine:
    line = ScriptLine.of(client)
    assert line is not None
    return line


async def test_calls_in_flight_each_get_their_own_reply(redis: Redis) -> None:
    line = line_of(redis)
    key, text = f"line:{uuid.uuid4().hex}", f"line:{uuid.uuid4().hex}"
    await redis.set(text, "not a number")
    try:
        calls = [line.evalsha(ECHO, [key], [i]) for i in range(300)]
        calls.insert(150, line.call("INCR", text))  # an error among them
        replies = await asyncio.gather(*calls, return_exceptions=True)
        error = replies.pop(150)
        assert isinstance(error, ResponseError) and "not an integer" in str(error)
        # Each call got the reply to its own arguments; together they counted to 300 once each.
        assert [r[:2] for r in replies] == [[key.encode(), str(i).encode()] for i in range(300)]
        assert sorted(r[2] for r in replies) == list(range(1, 301))
        # Once the script is loaded, calls leave and are answered in the order they were made.
        again = await asyncio.gather(*(line.evalsha(ECHO, [key], [i]) for i in range(300)))
        assert [r[2] for r in again] == list(range(301, 601))
    finally:
        await line.aclose()
        await redis.delete(key, text)


async def test_work_is_done_while_redis_answers_and_the_reply_is_seen_before_the_caller(
    redis: Redis,
) -> None:
    line = line_of(redis)
    key = f"line:{uuid.uuid4().hex}"
    order: list[object] = []

    def early(reply: list[object]) -> None:
        order.append(("early", reply[2]))
        raise RuntimeError("a failing early callback costs the caller nothing")

    try:
        # The calls of one turn leave together, after the work the second has to do meanwhile;
        # each reply is seen early, then taken by its caller.
        first = line.evalsha(ECHO, [key], ["a"], lambda reply: order.append(("early", reply[2])))
        second = line.evalsha(ECHO, [key], ["b"], early, lambda: order.append("meanwhile"))
        replies = await asyncio.gather(first, second)
        order.append(("resumed", [r[2] for r in replies]))
        assert order == ["meanwhile", ("early", 1), ("early", 2), ("resumed", [1, 2])]
        assert (await line.evalsha(ECHO, [key], ["c"]))[2] == 3
    finally:
        await line.aclose()
        await redis.delete(key)


async def test_a_script_redis_forgot_is_loaded_again(redis: Redis) -> None:
    line = line_of(redis)
    key = f"line:{uuid.uuid4().hex}"
    try:
        assert (await line.evalsha(ECHO, [key], ["a"]))[2] == 1
        await redis.script_flush()
        assert (await line.evalsha(ECHO, [key], ["b"]))[2] == 2
    finally:
        await line.aclose()
        await redis.delete(key)


async def test_a_stalled_server_fails_the_call_at_the_time_out(own_redis: EmbeddedRedis) -> None:
    other = Redis.from_url(own_redis.url)
    line = ScriptLine("127.0.0.1", own_redis.port, timeout_s=0.3)
    try:
        assert await line.call("PING") == b"PONG"
        await other.execute_command("CLIENT", "PAUSE", 1500, "ALL")
        started = time.monotonic()
        with pytest.raises(RedisTimeoutError):
            await line.call("SET", "stalled", "1")
        assert time.monotonic() - started < 1.2
        await asyncio.sleep(1.5)
        assert await line.call("GET", "stalled") in (None, b"1")  # a new connection answers
    finally:
        await line.aclose()
        await other.aclose()


async def test_a_restarted_server_is_reached_again(own_redis: EmbeddedRedis) -> None:
    line = ScriptLine("127.0.0.1", own_redis.port, timeout_s=1.0)
    try:
        assert await line.call("SET", "k", "before") is not None
        own_redis.stop()
        with pytest.raises((RedisConnectionError, RedisTimeoutError)):
            await line.call("GET", "k")
        own_redis.start()
        key = f"line:{uuid.uuid4().hex}"
        assert (await line.evalsha(ECHO, [key], ["after"]))[2] == 1  # loaded on the new server
    finally:
        await line.aclose()


async def test_password_and_database_come_from_the_client(own_redis: EmbeddedRedis) -> None:
    admin = Redis.from_url(own_redis.url)
    await admin.config_set("requirepass", "s3cret")
    url = f"redis://:s3cret@127.0.0.1:{own_redis.port}/3"
    client = Redis.from_url(url)
    line = line_of(client)
    try:
        await line.call("SET", "where", "db3")
        assert await client.get("where") == b"db3"
        zero = Redis.from_url(f"redis://:s3cret@127.0.0.1:{own_redis.port}/0")
        assert await zero.get("where") is None
        await zero.aclose()
        wrong = ScriptLine("127.0.0.1", own_redis.port, password="wrong", timeout_s=1.0)
        with pytest.raises(RedisConnectionError, match="AUTH"):
            await wrong.call("PING")
    finally:
        await line.aclose()
        await client.aclose()
        await admin.aclose()


async def test_the_store_uses_the_line_only_on_plain_tcp(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url)
    store = RedisStores(connect(settings))
    assert store.scripts.on_line
    await store.aclose()
    assert ScriptLine.of(Redis.from_url("rediss://127.0.0.1:1/0")) is None
    assert ScriptLine.of(Redis.from_url("unix:///tmp/none.sock")) is None
    cluster = RedisCluster(host="127.0.0.1", port=1)
    assert ScriptLine.of(cluster) is None


async def test_a_call_that_times_out_fails_alone_and_its_late_reply_is_dropped(
    own_redis: EmbeddedRedis,
) -> None:
    admin = Redis.from_url(own_redis.url)
    line = ScriptLine("127.0.0.1", own_redis.port, timeout_s=1.0)
    key = f"line:{uuid.uuid4().hex}"
    try:
        assert await line.call("PING") == b"PONG"
        await admin.execute_command("CLIENT", "PAUSE", 1400, "ALL")
        late = asyncio.ensure_future(line.call("INCR", key))
        await asyncio.sleep(0.9)
        # In flight when the first times out (at 1 s); answered when the pause ends (1.4 s),
        # after the first, which Redis ran all the same: its reply is read and dropped.
        assert await line.call("INCR", key) == 2
        with pytest.raises(ReplyLate):
            await late
        assert maybe_run(late.exception() or RuntimeError())
        assert await line.call("GET", key) == b"2", "the same connection goes on"
    finally:
        await line.aclose()
        await admin.aclose()
