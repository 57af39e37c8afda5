"""The change feed's contract (`ChangeFeed`): the appends it hears, whom it wakes, its
generations; kept by the Redis notifier and the memory feed. After it, the Redis notifications
(what an append publishes, the subscriptions) and the memory feed's cut.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis

from kronikas.adapters.event_store import notify_channel
from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from tests.integration.stores import (
    Backend,
    FakeClock,
    RedisBackend,
    Store,
    append,
    events,
    listening,
    new_id,
)

# -- the change feed -------------------------------------------------------------------------------


async def test_the_change_feed_wakes_the_waiters_of_the_game_that_changed(
    backend: Backend, store: Store
) -> None:
    game, other = new_id(), new_id()
    async with backend.feed() as feed:
        async with feed.waiting(game) as waiter, feed.waiting(other) as bystander:
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
            assert not bystander.changed
        async with feed.waiting(game) as waiter:
            await append(store, other, 0, events("a"))
            assert not await waiter.wait(backend.quiet)
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


async def test_a_change_made_as_soon_as_the_waiter_is_handed_out_wakes_it(
    backend: Backend, store: Store
) -> None:
    """No sleep between entering and appending."""
    async with backend.feed() as feed:
        for _ in range(20):
            game = new_id()
            async with feed.waiting(game) as waiter:
                await append(store, game, 0, events("a"))
                assert await waiter.wait(1.0)


async def test_a_waiter_stays_woken_until_cleared_and_wakes_for_this_process_too(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    async with backend.feed() as feed, feed.waiting(game) as waiter:
        await append(store, game, 0, events("a"))
        assert await waiter.wait(1.0)
        assert await waiter.wait(0)
        waiter.clear()
        assert not await waiter.wait(backend.quiet)
        feed.wake(game)  # after an append this process made
        assert await waiter.wait(0)


async def test_the_feed_hands_each_successful_append_to_its_listener_before_waking(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    heard: list[tuple[str, int, list[bytes], bool]] = []
    async with backend.feed() as feed, feed.waiting(game) as waiter:
        feed.listen(lambda g, v, r: heard.append((g, v, r, waiter.changed)))
        generation = feed.generation(game)
        assert generation is not None

        await append(limited, game, 0, events("a"))
        assert await waiter.wait(1.0)
        waiter.clear()
        await append(limited, game, 1, events("b", "c"), token_hash="t")
        assert await waiter.wait(1.0)
        waiter.clear()
        assert heard == [
            (game, 1, events("a"), False),
            (game, 3, events("b", "c"), False),
        ]

        assert (await append(limited, game, 1, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 9, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 3, events("d"), token_hash="t")).version == 4
        assert await waiter.wait(1.0)
        waiter.clear()
        assert (await append(limited, game, 4, events("x"), token_hash="t")).outcome == "limited"
        await append(limited, game, 4, events("e"))
        assert await waiter.wait(1.0)
        assert heard[2:] == [
            (game, 4, events("d"), False),
            (game, 5, events("e"), False),
        ], "a refused append is not heard"
        assert feed.generation(game) == generation, "the feed stayed unbroken"


# -- notifications -------------------------------------------------------------------------------


class Notifications:
    """The versions published about one game, from a pub/sub subscription to its channel."""

    def __init__(self, redis: Redis, game_id: str) -> None:
        self.pubsub: Any = redis.pubsub(ignore_subscribe_messages=True)
        self.channel = notify_channel(game_id)

    async def __aenter__(self) -> Notifications:
        await self.pubsub.subscribe(self.channel)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.pubsub.aclose()

    async def heard(self, quiet: float = 0.3) -> list[str]:
        """The messages published until none has come for `quiet` seconds."""
        seen: list[str] = []
        loop = asyncio.get_running_loop()
        until = loop.time() + quiet
        while (left := until - loop.time()) > 0:
            # None also stands for an ignored subscribe confirmation: keep listening.
            message = await self.pubsub.get_message(timeout=left)
            if message is None:
                continue
            assert message["channel"].decode() == self.channel
            seen.append(message["data"].decode())
            until = loop.time() + quiet
        return seen


async def test_each_successful_append_publishes_its_version_and_its_events(
    on_redis: RedisBackend, redis: Redis
) -> None:
    limited = on_redis.limited()
    game = new_id()
    async with Notifications(redis, game) as notifications:
        await append(limited, game, 0, events("a"))
        await append(limited, game, 1, events("b", "c"), token_hash="t")
        await append(limited, game, 3, events("d"), token_hash="t")
        assert await notifications.heard() == [
            '1\n{"e":"a"}',
            '3\n{"e":"b"}\n{"e":"c"}',
            '4\n{"e":"d"}',
        ]

        assert (await append(limited, game, 1, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 9, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 4, events("x"), token_hash="t")).outcome == "limited"
        assert await notifications.heard() == []


async def subscribers(redis: Redis, game_id: str) -> int:
    channel = notify_channel(game_id)
    return int(dict(await redis.pubsub_numsub(channel))[channel.encode()])


async def test_a_waiter_is_handed_out_once_the_channel_is_subscribed(
    on_redis: RedisBackend, redis: Redis
) -> None:
    """No sleep between entering and appending: the subscription is confirmed on entry."""
    async with listening(redis) as notifier:
        for _ in range(20):
            game = new_id()
            async with notifier.waiting(game) as waiter:
                assert await subscribers(redis, game) == 1
                await append(on_redis.store, game, 0, events("a"))
                assert await waiter.wait(1.0)


async def test_the_notifier_listens_only_to_games_waited_on_and_lets_go_after_a_while(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game, unwatched = new_id(), new_id()
    async with listening(redis, linger_s=0.3) as notifier:
        async with notifier.waiting(game):
            assert notifier.listening_to() == {game}
            assert await subscribers(redis, unwatched) == 0
        assert await subscribers(redis, game) == 1  # it lingers, for the next poll
        async with notifier.waiting(game) as waiter:  # ... which needs no new subscription
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
        for _ in range(100):
            if await subscribers(redis, game) == 0:
                break
            await asyncio.sleep(0.02)
        assert await subscribers(redis, game) == 0
        assert notifier.listening_to() == set()
        async with notifier.waiting(game) as waiter:  # and subscribes again when needed
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


async def test_a_cut_memory_feed_begins_a_new_generation_and_wakes_its_waiters() -> None:
    feed = MemoryChangeFeed()
    game = new_id()
    assert feed.generation(game) is None
    async with feed.waiting(game) as waiter:
        generation = feed.generation(game)
        assert generation is not None
        feed.cut()
        assert await waiter.wait(0)
        assert feed.generation(game) not in (None, generation)


async def test_a_listener_that_fails_ends_the_games_memory_feed_and_the_others_still_hear(
    clock: FakeClock,
) -> None:
    feed = MemoryChangeFeed()
    store = MemoryStores(clock=clock, feeds=[feed])
    game = new_id()
    heard: list[int] = []

    def fails(game_id: str, version: int, records: list[bytes]) -> None:
        raise ValueError("cannot take it")

    feed.listen(fails)
    feed.listen(lambda game_id, version, records: heard.append(version))
    async with feed.waiting(game) as waiter:
        generation = feed.generation(game)
        await append(store, game, 0, events("a"))
        assert await waiter.wait(0)
        assert heard == [1]
        assert feed.generation(game) not in (None, generation)
