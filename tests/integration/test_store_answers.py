"""The stored answers' contract (`StoredAnswers`), kept by Redis and in memory."""

from __future__ import annotations

from redis.asyncio import Redis

from tests.integration.stores import (
    RedisBackend,
    Store,
    new_id,
)


async def test_a_kept_answer_is_read_back_for_its_game_and_key_until_it_expires(
    store: Store,
) -> None:
    game, other = new_id(), new_id()
    await store.answers.keep_answer(game, "k", b'{"version": 2}', 60)
    assert await store.answers.answer_of(game, "k") == b'{"version": 2}'
    assert await store.answers.answer_of(game, "j") is None
    assert await store.answers.answer_of(other, "k") is None
    await store.answers.keep_answer(game, "short", b"x", 0)  # at least a second, never for ever
    assert await store.answers.answer_of(game, "short") == b"x"


async def test_a_kept_answer_lives_the_time_it_is_given(
    on_redis: RedisBackend, redis: Redis
) -> None:
    game = new_id()
    await on_redis.store.answers.keep_answer(game, "k", b"answer", 3600)
    assert 3595 <= await redis.ttl(f"kr:{{{game}}}:replay:k") <= 3600
