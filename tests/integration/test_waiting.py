"""Long-polls and streams against real Redis: a change is never lost between a read and a wait."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass

import pytest
from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisEventStore
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas.domain.cheat import CheatOptions, Play


@dataclass
class Seated:
    game_id: str
    tokens: list[str]


async def instance(redis: Redis) -> AsyncIterator[Games]:
    """The use cases as one service process has them: its own fold cache and notifier."""
    settings = Settings(rate_per_s=100_000, rate_burst=100_000, sse_keepalive_s=5.0)
    notifier = Notifier(redis)
    notifier.start()
    try:
        yield Games(RedisEventStore(redis, 100_000, 100_000), notifier, for_table, settings)
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
