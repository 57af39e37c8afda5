"""Long-polls and streams against real Redis: a change is never lost between a read and a wait."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisEventLog, RedisStores, notify_channel
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.application.games import Delivered, Games
from kronikas.application.ports import ReadResult
from kronikas.config import Settings
from kronikas_rules.cheat import Accept, CheatOptions, Play
from tests.apps import ENGINES


@dataclass
class Seated:
    game_id: str
    tokens: list[str]


async def instance(redis: Redis) -> AsyncIterator[Games]:
    """The use cases as one service process has them: its own fold cache and notifier."""
    settings = Settings(
        rate_per_s=100_000,
        rate_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        sse_keepalive_s=5.0,
    )
    notifier = Notifier(redis)
    notifier.start()
    try:
        yield Games(RedisStores(redis, 100_000, 100_000), notifier, for_table, settings, ENGINES)
    finally:
        await notifier.stop()


@pytest.fixture
async def games(redis: Redis) -> AsyncIterator[Games]:
    async for one in instance(redis):
        yield one


@pytest.fixture
async def other(redis: Redis) -> AsyncIterator[Games]:
    """A second process, where the moves are made (a process's own moves update its cache)."""
    async for one in instance(redis):
        yield one


async def started(games: Games) -> Seated:
    created = json.loads(await games.create("cheat", CheatOptions(), seed=7))
    game_id = created["game"]["id"]
    tokens = [json.loads(await games.join(game_id, name))["token"] for name in ("A", "B")]
    await games.start(game_id, created["host_token"])
    return Seated(game_id, tokens)


async def play_one_card(games: Games, table: Seated) -> int:
    """The player on turn plays their first card; returns the new version."""
    view = json.loads((await games.view(table.game_id, table.tokens[0])).body)
    seat = view["turn"]
    hand = json.loads((await games.view(table.game_id, table.tokens[seat])).body)["me"]["hand"]
    answer = await games.command(table.game_id, table.tokens[seat], Play(cards=hand[:1]), b"")
    return answer.version


async def test_a_stream_delivers_what_was_appended_while_its_reader_was_busy(
    games: Games, other: Games
) -> None:
    table = await started(other)
    version = json.loads((await games.view(table.game_id, None)).body)["version"]
    events = (await games.stream(table.game_id, None, version - 1))()
    first = await anext(events)
    assert first is not None and first.version == version
    # The stream is suspended at its yield (its client is slow): a move is made meanwhile.
    moved = await play_one_card(other, table)
    started_at = asyncio.get_running_loop().time()
    following = await asyncio.wait_for(anext(events), 2.0)
    assert following is not None and following.version == version + 1 <= moved
    assert asyncio.get_running_loop().time() - started_at < 1.0  # not held to the keep-alive
    await events.aclose()


async def test_a_long_poll_wakes_on_a_move_made_as_it_starts(games: Games, other: Games) -> None:
    table = await started(other)
    version = json.loads((await games.view(table.game_id, None)).body)["version"]
    for _ in range(10):
        poll = asyncio.create_task(games.events(table.game_id, None, version, wait=5.0))
        await asyncio.sleep(0)  # the poll is on its way, subscribing or reading
        version = await play_one_card(other, table)
        page = json.loads(await asyncio.wait_for(poll, 2.0))
        assert page["events"], "the long-poll missed the move"
        assert page["events"][-1]["version"] <= version
        version = page["version"]


class CountingLog(RedisEventLog):
    """The Redis event log, counting the reads it is asked for."""

    reads = 0

    async def read(self, *args: Any, **kwargs: Any) -> ReadResult:
        self.reads += 1
        return await super().read(*args, **kwargs)


def counting(redis: Redis) -> RedisStores:
    """The Redis stores, their log counting its reads (`CountingLog`)."""
    stores = RedisStores(redis, 100_000, 100_000)
    stores.log = CountingLog(stores.scripts, stores.lobby, 100_000, 100_000)
    return stores


async def follow(games: Games, table: Seated, token: str | None, into: list[Delivered]) -> None:
    """A stream of the table from its start, each event kept."""
    events = (await games.stream(table.game_id, token, 0))()
    async for event in events:
        if event is not None:
            into.append(event)


async def play_on(processes: list[Games], table: Seated, moves: int) -> int:
    """`moves` moves of the seat on turn (accepting when it must), alternating processes."""
    version = 0
    for n in range(moves):
        games = processes[n % len(processes)]
        view = json.loads((await games.view(table.game_id, table.tokens[0])).body)
        version = view["version"]
        if view["status"] != "playing":
            break
        seat = view["turn"]
        mine = json.loads((await games.view(table.game_id, table.tokens[seat])).body)
        command = Accept() if "accept" in mine["legal"] else Play(cards=mine["me"]["hand"][:1])
        version = (await games.command(table.game_id, table.tokens[seat], command, b"")).version
    return version


async def caught_up(streams: list[list[Delivered]], version: int) -> None:
    for _ in range(200):
        if all(s and s[-1].version >= version for s in streams):
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"the streams did not reach version {version}")


async def test_streams_on_two_processes_miss_and_repeat_nothing_while_pubsub_is_cut(
    games: Games, other: Games, redis: Redis
) -> None:
    table = await started(other)
    viewers: list[str | None] = [*table.tokens, None]
    streams: list[list[Delivered]] = [[] for _ in range(2 * len(viewers))]
    readers = [
        asyncio.create_task(follow(process, table, token, streams[i]))
        for i, (process, token) in enumerate(
            (process, token) for process in (games, other) for token in viewers
        )
    ]
    try:
        version = 0
        for _ in range(4):
            version = await play_on([games, other], table, 6)
            await redis.client_kill_filter(_type="pubsub")  # both processes lose their feed
            version = await play_on([other, games], table, 6)
            await caught_up(streams, version)
        assert version > 20
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    for i, stream in enumerate(streams):
        viewer = viewers[i % len(viewers)]
        assert [e.version for e in stream] == list(range(1, version + 1)), f"stream {i}"
        page = json.loads(await games.events(table.game_id, viewer, 0, 0))
        assert [json.loads(e.json) for e in stream] == page["events"], f"stream {i}"


async def test_a_followed_table_is_not_read_again_for_each_move(redis: Redis) -> None:
    settings = Settings(
        rate_per_s=100_000,
        rate_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        sse_keepalive_s=5.0,
    )
    notifiers = [Notifier(redis), Notifier(redis)]
    stores = [counting(redis) for _ in notifiers]
    for notifier in notifiers:
        notifier.start()
    try:
        watcher, mover = (
            Games(store, notifier, for_table, settings, ENGINES)
            for store, notifier in zip(stores, notifiers, strict=True)
        )
        table = await started(mover)
        streams: list[list[Delivered]] = [[], [], []]
        readers = [
            asyncio.create_task(follow(watcher, table, token, streams[i]))
            for i, token in enumerate([*table.tokens, None])
        ]
        version = await play_on([mover], table, 2)
        await caught_up(streams, version)
        reads = stores[0].log.reads
        version = await play_on([mover], table, 20)
        await caught_up(streams, version)
        # Three streams of another process followed 20 moves without reading the table.
        assert stores[0].log.reads == reads
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    finally:
        for notifier in notifiers:
            await notifier.stop()


async def test_an_append_heard_out_of_order_makes_the_stream_read_not_skip(
    games: Games, other: Games, redis: Redis
) -> None:
    table = await started(other)
    stream: list[Delivered] = []
    reader = asyncio.create_task(follow(games, table, None, stream))
    try:
        version = await play_on([other], table, 2)
        await caught_up([stream], version)
        # A message that does not follow on (as after a lost one): the stream must read.
        await redis.publish(notify_channel(table.game_id), f"{version + 5}")
        version = await play_on([other], table, 3)
        await caught_up([stream], version)
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
    assert [e.version for e in stream] == list(range(1, version + 1))


class Relay:
    """A TCP relay to the real Redis that can go silent: it keeps its connections open and
    passes nothing more on them, as a half-open connection does (no emulation: every byte that
    passes is the real server's)."""

    def __init__(self, port: int) -> None:
        self.port, self.frozen = port, False
        self.server: asyncio.Server | None = None
        self.accepted = 0
        self.tasks: set[asyncio.Task[Any]] = set()

    async def start(self) -> int:
        self.server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        return int(self.server.sockets[0].getsockname()[1])

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        if (task := asyncio.current_task()) is not None:
            self.tasks.add(task)
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.port)
        born_frozen = self.frozen

        async def pipe(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            while data := await source.read(65536):
                while self.frozen and not born_frozen:
                    await asyncio.sleep(3600)
                sink.write(data)

        with contextlib.suppress(Exception):
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        writer.close()
        up_writer.close()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def test_a_silent_notification_line_is_dropped_and_followers_are_woken(
    redis: Redis,
) -> None:
    """Redis stops answering on the notifier's connection without closing it: the PINGs find
    out, the notifier connects again, and a follower waiting meanwhile is woken by the next
    append as if nothing had happened."""
    port = int(redis.connection_pool.connection_kwargs["port"])
    relay = Relay(port)
    relayed = Redis(port=await relay.start(), socket_timeout=0.3)
    notifier = Notifier(relayed, health_s=0.3)
    notifier.start()
    try:
        async for mover in instance(redis):
            table = await started(mover)
            async with notifier.waiting(table.game_id) as waiter:
                assert relay.accepted >= 1
                relay.frozen = True  # the old connection goes silent; new ones pass
                # A PING or two unanswered (0.3 s apart): the notifier connects again.
                for _ in range(100):
                    if relay.accepted >= 2:
                        break
                    await asyncio.sleep(0.05)
                assert relay.accepted >= 2, "no new connection within 5 s"
                waiter.clear()
                await play_one_card(mover, table)
                assert await waiter.wait(3.0)
    finally:
        await notifier.stop()
        await relayed.aclose()
        await relay.close()
