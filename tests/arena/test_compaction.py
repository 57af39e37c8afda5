"""The arena's log trimmed to a snapshot of its fold: processes racing on a short log, and a
process that starts after the trim, see the same arena."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from tests.arena.conftest import arena_app, bearer, queue, register, two_arenas
from tests.arena.test_matchmaking import seated


async def test_a_trimmed_log_gives_every_process_the_same_arena(
    redis_url: str, redis: Redis
) -> None:
    async with two_arenas(redis_url, arena_compact_every=3) as (a, b):
        apps = [a, b, a]
        entrants = [
            await register(apps[i], f"Trim {i}", peer=f"192.0.2.{150 + i}") for i in range(3)
        ]
        for app, (_, token) in zip(apps, entrants, strict=True):
            await queue(app, token)
        tickets = [await seated(app, token) for app, (_, token) in zip(apps, entrants, strict=True)]
        assert len({(t["table_id"], t["seat"]) for t in tickets}) == 3
        for t in tickets:
            r = await a.post(
                f"/v1/games/{t['table_id']}/commands",
                json={"type": "leave"},
                headers=bearer(t["token"]),
            )
            assert r.status_code == 200, r.text
        for t in tickets:
            for _ in range(600):
                if (await b.get(f"/v1/arena/sets/{t['set_id']}")).status_code == 200:
                    break
                await asyncio.sleep(0.1)
        assert int(await redis.get("{arena}:base") or 0) > 0
        board = (await a.get("/v1/arena/leaderboard?kind=cheat")).json()
        pages = [(await a.get(f"/v1/arena/entrants/{e}")).json() for e, _ in entrants]
        sets = [(await a.get(f"/v1/arena/sets/{t['set_id']}")).json() for t in tickets]
    async with arena_app(redis_url, arena_compact_every=3) as fresh:  # starts from the snapshot
        assert (await fresh.get("/v1/arena/leaderboard?kind=cheat")).json() == board
        for (entrant, _), page in zip(entrants, pages, strict=True):
            assert (await fresh.get(f"/v1/arena/entrants/{entrant}")).json() == page
            assert page["matches"]
        for t, found in zip(tickets, sets, strict=True):
            assert (await fresh.get(f"/v1/arena/sets/{t['set_id']}")).json() == found
    for page in pages:  # each set rated once: one match each
        assert [r["matches"] for r in page["ratings"]] == [1]
    for t in tickets:
        assert await redis.exists(f"{{arena}}:set:{t['set_id']}")
