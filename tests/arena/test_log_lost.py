"""An arena whose log is not the one a process folded — emptied, or a failover that lost its
tail — is folded again from its start by that process: it never answers, nor decides, from
events the log no longer holds (the stale fold of one test's arena once rated a set of its own
into the next test's log)."""

from __future__ import annotations

from redis.asyncio import Redis

from tests.arena.conftest import Client, bearer, queue, register, two_arenas

LOG_KEYS = ("{arena}:log", "{arena}:base", "{arena}:snapshot")


async def status(client: Client, token: str) -> str:
    r = await client.get("/v1/arena/queue?wait=0", headers=bearer(token))
    assert r.status_code == 200, r.text
    answer: str = r.json()["status"]
    return answer


async def test_a_process_folds_a_log_that_lost_its_events_again(
    redis_url: str, redis: Redis
) -> None:
    async with two_arenas(redis_url, arena_fill_s=600) as (a, b):
        first = [await register(a, f"Lost {i}", peer=f"203.0.113.{20 + i}") for i in range(2)]
        for _, token in first:
            await queue(a, token)
        assert [await status(a, token) for _, token in first] == ["waiting", "waiting"]

        await redis.delete(*LOG_KEYS)  # the log's events are gone; the entrants are not
        later = [await register(b, f"Later {i}", peer=f"203.0.113.{30 + i}") for i in range(3)]
        for _, token in later:
            await queue(b, token)  # a new history, longer than the one `a` folded
        assert await redis.llen("{arena}:log") > len(first)

        for client in (a, b):  # both see the log as it is: nobody of the first history waits
            assert [await status(client, token) for _, token in first] == ["idle", "idle"]
            assert [await status(client, t) for _, t in later] == ["waiting"] * 3
