"""A log that shrank — a failover lost its tail, as one without `WRITE_REPLICAS` (or a second
failure) may — is read again: the table a process holds past the log is dropped, a move decided
on it (a conflict whose version is below the one expected) is decided again on the log as it is,
and a stream past the log's end is owed the log's events from that end on."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.adapters.scripts import game_keys
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions, Play
from tests.apps import ENGINES


@pytest.fixture(params=[0, 1], ids=["no replicas", "one replica"])
async def instance(
    primary: Redis, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[Games, Notifier]]:
    settings = Settings(
        rate_per_s=100_000,
        rate_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        sse_keepalive_s=5.0,
        write_replicas=request.param,
    )
    notifier = Notifier(primary)
    notifier.start()
    stores = RedisStores(primary, 100_000, 100_000, request.param, 1000)
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


async def test_a_log_that_shrank_is_read_again_and_its_followers_owed_its_new_events(
    instance: tuple[Games, Notifier], primary: Redis
) -> None:
    games, notifier = instance
    created = json.loads(await games.create("cheat", CheatOptions(), seed=11))
    game_id = created["game"]["id"]
    tokens = [json.loads(await games.join(game_id, name))["token"] for name in ("A", "B")]
    await games.start(game_id, created["host_token"])
    kept = await play_one_card(games, game_id, tokens)
    await play_one_card(games, game_id, tokens)
    gone = await play_one_card(games, game_id, tokens)
    session = await games.stream(game_id, None, gone)
    async with session:
        await session.view()
        # the failover: the new primary never had the last two moves
        keys = game_keys(game_id)
        await primary.ltrim(keys["log"], 0, kept - 1)
        await primary.hset(keys["meta"], mapping={"version": kept, "acked": kept})
        # the notifier's line breaks and comes back (to the new primary): its followers read
        await notifier.stop()
        notifier.start()
        assert await session.next() == [], "woken, and nothing owed: the log is behind it"
        made = await play_one_card(games, game_id, tokens)  # decided on the held table first
        assert kept < made < gone, (kept, made, gone)
        assert await primary.llen(keys["log"]) == made
        owed = await session.next()
        assert owed is not None
        assert [d.version for d in owed] == list(range(kept + 1, made + 1))
    view = json.loads((await games.view(game_id, None)).body)
    assert view["version"] == made
