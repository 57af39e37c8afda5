"""A 503 that tells the truth: `unavailable` when nothing was changed, `outcome_unknown` when a
change was sent and its answer never came. Only the calls that time out fail; an append whose
reply was lost is known again by its own records on the store's second try, whatever was
appended after it; a create returns its host token or leaves no table behind.

Redis is stalled with `CLIENT PAUSE` (the server holds every client's commands), and a reply is
lost through a small TCP proxy between the store and Redis that can drop the connection instead
of passing a reply on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.lobby import LOBBY_KEY
from kronikas.adapters.scripts import game_keys
from kronikas.api.app import create_app
from kronikas.application.errors import OutcomeUnknown, Unavailable
from kronikas.application.ports import AppendRequest, Summary
from tests.api.tables import Tables, auth, candidates, game_moves
from tests.apps import ENGINES, settings

_IDS = iter(range(1 << 30))
_SESSION = secrets.token_hex(4)


def new_id() -> str:
    return f"{_SESSION}{next(_IDS):08x}"


def summary(game_id: str) -> Summary:
    return Summary(game_id, "cheat", "open", 0, int(time.time() * 1000), 0)


def record(name: str) -> bytes:
    """A record unique to its append (as the use cases' nonce makes it)."""
    return json.dumps({"e": name, "n": secrets.token_hex(8)}).encode()


class Proxy:
    """TCP between the store and Redis. `lose_next_reply(before)`: the next bytes Redis sends
    are not passed on; `before` runs, then the store's connection is dropped."""

    def __init__(self, port: int) -> None:
        self.target = port
        self.port = 0
        self._server: asyncio.Server | None = None
        self._losing: Callable[[], Awaitable[None]] | None = None
        self.lost = 0

    def lose_next_reply(self, before: Callable[[], Awaitable[None]]) -> None:
        self._losing = before

    async def __aenter__(self) -> Proxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._server is not None
        self._server.close()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target)

        async def up() -> None:
            while data := await client_r.read(65536):
                server_w.write(data)
            server_w.close()

        async def down() -> None:
            while data := await server_r.read(65536):
                if self._losing is not None:
                    before, self._losing = self._losing, None
                    await before()
                    self.lost += 1
                    client_w.transport.abort()
                    server_w.close()
                    return
                client_w.write(data)
            client_w.close()

        with contextlib.suppress(OSError):
            await asyncio.gather(up(), down())


@pytest.fixture
async def direct(redis_url: str) -> AsyncIterator[Redis]:
    client = Redis.from_url(redis_url)
    try:
        yield client
    finally:
        await client.aclose()


@contextlib.asynccontextmanager
async def through(proxy: Proxy, direct: Redis) -> AsyncIterator[RedisStores]:
    """A store whose connection goes through `proxy`, connected, and Redis knowing its append
    script (the reply lost must be the append's, not a `NOSCRIPT`)."""
    append_lua = resources.files("kronikas.adapters").joinpath("lua", "append.lua").read_text()
    await direct.script_load(append_lua)
    client = Redis(host="127.0.0.1", port=proxy.port, socket_timeout=5)
    store = RedisStores(client)
    await store.log.read(new_id(), 0, "", 0)
    try:
        yield store
    finally:
        await store.aclose()
        await client.aclose()


# -- the store -------------------------------------------------------------------------------


async def test_a_call_that_times_out_fails_alone_an_append_as_outcome_unknown(
    own_redis: EmbeddedRedis,
) -> None:
    client = Redis.from_url(own_redis.url, socket_timeout=1.0)
    admin = Redis.from_url(own_redis.url)
    store = RedisStores(client)
    slow, quick = new_id(), new_id()
    try:
        for game in (slow, quick):
            await store.log.append(
                AppendRequest(game, 0, [record("created")], ttl_s=600, summary=summary(game))
            )
        await admin.execute_command("CLIENT", "PAUSE", 1400, "ALL")
        late = asyncio.create_task(
            store.log.append(
                AppendRequest(slow, 1, [record("late")], ttl_s=600, summary=summary(slow))
            )
        )
        late_read = asyncio.create_task(store.log.read(quick, 0, "", 10))
        await asyncio.sleep(0.9)
        # In flight when the first two time out (at 1 s); answered when the pause ends (1.4 s).
        in_time = await store.log.append(
            AppendRequest(quick, 1, [record("in time")], ttl_s=600, summary=summary(quick))
        )
        assert (in_time.outcome, in_time.version) == ("ok", 2)
        with pytest.raises(OutcomeUnknown) as unknown:
            await late
        assert unknown.value.code == "outcome_unknown"
        with pytest.raises(Unavailable) as read_failed:
            await late_read
        assert read_failed.value.code == "unavailable", "a read changes nothing"
        # And the outcome was indeed unknown: Redis ran the late append once it could.
        assert (await store.log.read(slow, 0, "", 10, rate=False)).version == 2
    finally:
        await store.aclose()
        await client.aclose()
        await admin.aclose()


async def test_an_append_whose_reply_was_lost_is_known_by_its_records_whatever_came_after(
    redis_url: str, direct: Redis
) -> None:
    other = RedisStores(direct)
    game = new_id()
    await other.log.append(
        AppendRequest(game, 0, [record("created")], ttl_s=600, summary=summary(game))
    )
    after = record("another's move")

    async def another_move() -> None:
        made = await other.log.append(
            AppendRequest(game, 3, [after], ttl_s=600, summary=summary(game))
        )
        assert made.outcome == "ok"

    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])
    async with Proxy(port) as proxy, through(proxy, direct) as store:
        mine = [record("my move"), record("its second event")]
        proxy.lose_next_reply(another_move)
        result = await store.log.append(
            AppendRequest(game, 1, mine, ttl_s=600, summary=summary(game))
        )
        assert proxy.lost == 1
        assert (result.outcome, result.version) == ("ok", 3)
    log = await direct.lrange(game_keys(game)["log"], 0, -1)
    assert log[1:] == [*mine, after], "made once, never decided again"


async def test_a_create_whose_reply_was_lost_returns_ok_and_the_table_is_listed_once(
    redis_url: str, direct: Redis
) -> None:
    game = new_id()
    port = int(redis_url.rsplit(":", 1)[1].split("/")[0])

    async def nothing() -> None:
        pass

    async with Proxy(port) as proxy, through(proxy, direct) as store:
        proxy.lose_next_reply(nothing)
        made = await store.log.append(
            AppendRequest(game, 0, [record("created")], ttl_s=600, summary=summary(game))
        )
        assert (made.outcome, made.version, proxy.lost) == ("ok", 1, 1)
    try:
        assert await direct.zscore(LOBBY_KEY, game) is not None, "listed with its first append"
    finally:
        await direct.zrem(LOBBY_KEY, game)


# -- over HTTP -------------------------------------------------------------------------------------


async def test_a_move_that_timed_out_answers_outcome_unknown_and_its_retry_the_move(
    own_redis: EmbeddedRedis,
) -> None:
    admin = Redis.from_url(own_redis.url)
    app = create_app(settings(own_redis.url, redis_timeout_s=0.5), games=ENGINES)
    try:
        async with AsyncTestClient(app) as http:
            tables = Tables(http)
            table = await tables.ready("cheat", 2, seed=3)
            view: dict[str, Any] = await tables.view(table, table.players[0])
            if not game_moves(view):
                view = await tables.view(table, table.players[1])
            seat = view["me"]["seat"]
            command = candidates(view, random.Random(1))[-1]  # the last one is always legal
            headers = auth(table.players[seat]) | {"Idempotency-Key": "move-1"}
            url = f"/v1/games/{table.id}/commands"
            await admin.execute_command("CLIENT", "PAUSE", 1500, "WRITE")
            stalled = await http.post(url, json=command, headers=headers)
            assert stalled.status_code == 503, stalled.text
            assert stalled.headers["content-type"].startswith("application/problem+json")
            assert int(stalled.headers["retry-after"]) >= 1
            problem = stalled.json()
            assert problem["code"] == "outcome_unknown"
            assert problem["title"] == "Outcome Unknown"
            assert "may or may not" in problem["detail"]
            deadline = time.monotonic() + 10
            while True:  # the pause ends; the same key answers the move, made once
                again = await http.post(url, json=command, headers=headers)
                if again.status_code != 503:
                    break
                assert time.monotonic() < deadline, again.text
                await asyncio.sleep(0.1)
            assert again.status_code == 200, again.text
            version = again.json()["version"]
            assert version == view["version"] + len(again.json()["events"])
            log = (await http.get(f"/v1/games/{table.id}/events")).json()["events"]
            assert log[-1]["version"] == version
    finally:
        await admin.aclose()
