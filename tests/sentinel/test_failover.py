"""The service finds its primary through Sentinel (`REDIS_SENTINELS`, no server in `REDIS_URL`)
and follows it across a failover without a restart: a graceful one (`SENTINEL FAILOVER`) and a
primary killed (SIGKILL). Moves made meanwhile are answered honestly (2xx, 409/412, 503 — never a
500), later moves are applied on the new primary, and a follower of the table is given every
later version once, in order, with no gap."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx
import pytest

from kronikas import metrics
from kronikas.api.app import create_app
from tests.api.tables import Tables
from tests.apps import ENGINES, TEST_HOST, settings
from tests.conftest import serving
from tests.metrics.scrapes import scrape, total
from tests.redis_group import MASTER, RedisGroup, ask, can_start
from tests.sentinel.helpers import (
    Follower,
    Moves,
    graceful_failover,
    in_thread,
    keep_moving,
    long_poll,
    moved_once,
    running,
    stream,
    version_of,
)

IN_FLIGHT = 6
"""Tables played at once while the primary moves."""


@pytest.fixture
def group(tmp_path: Path) -> Iterator[RedisGroup]:
    if reason := can_start(tmp_path):
        pytest.skip(reason)
    with RedisGroup(tmp_path / "redis", replicas=1, sentinels=3) as group:
        yield group


def sentinels(group: RedisGroup) -> tuple[tuple[str, int], ...]:
    return tuple(("127.0.0.1", s.port) for s in group.sentinels)


@contextlib.asynccontextmanager
async def tasks(*coroutines: object) -> AsyncIterator[list[asyncio.Task[None]]]:
    running = [asyncio.ensure_future(c) for c in coroutines]  # type: ignore[arg-type]
    try:
        yield running
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)


# WRITE_REPLICAS=1 is the failover part's (tests/failover/): here a follower may be shown a
# version twice after a failover, from part replicas' read cap (notes42/sentinel.md).
@pytest.mark.parametrize("write_replicas", [0])
async def test_an_app_follows_a_graceful_failover(
    group: RedisGroup, monkeypatch: pytest.MonkeyPatch, write_replicas: int
) -> None:
    switches: list[int] = []
    monkeypatch.setattr(metrics, "primary_switch", lambda: switches.append(1))
    options = settings(
        "", redis_sentinels=sentinels(group), redis_timeout_s=1.0, write_replicas=write_replicas
    )
    app = create_app(options, games=ENGINES)
    rng = random.Random(42)
    moves = Moves()
    async with (
        running(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=f"http://{TEST_HOST}", timeout=30
        ) as http,
    ):
        tables = Tables(http)
        played = [await tables.ready("cheat", 2, {"rounds": 20}, seed=i) for i in range(IN_FLIGHT)]
        watched = played[0]
        for _ in range(5):
            await moved_once(http, watched, rng, moves, within=5)
        follower = Follower(await version_of(http, watched))
        old = group.primary()
        async with tasks(
            long_poll(http, watched, follower),
            *(keep_moving(http, t, random.Random(i), moves) for i, t in enumerate(played)),
        ):
            await asyncio.sleep(0.3)
            asked = time.monotonic()
            new = await in_thread(graceful_failover, group)
            assert new.port != old.port
            await moved_once(http, watched, rng, moves, within=15)
            paused = time.monotonic() - asked
            for _ in range(4):
                await moved_once(http, watched, rng, moves, within=15)
            await asyncio.sleep(0.3)
        final = await version_of(http, watched)
        await follower_reaches(http, watched, follower, final)
    assert moves.dishonest() == {}, moves.answers
    assert follower.gapless(), follower.seen
    assert await in_thread(new.role) == b"master"
    assert switches == [1]  # counted once, though both lines and the pool moved
    print(
        f"\ngraceful failover (WRITE_REPLICAS={write_replicas}): a move applied {paused:.2f} s "
        f"after SENTINEL FAILOVER; {moves}"
    )


async def follower_reaches(http: object, table: object, follower: Follower, version: int) -> None:
    """The follower, still following, is given up to `version`."""
    async with tasks(long_poll(http, table, follower)):  # type: ignore[arg-type]
        await follower.reached(version)


# WRITE_REPLICAS=1 is the failover part's (tests/failover/): here a follower may be shown a
# version twice after a failover, from part replicas' read cap (notes42/sentinel.md).
@pytest.mark.parametrize("write_replicas", [0])
async def test_a_process_follows_its_primary_killed(
    group: RedisGroup, tmp_path: Path, write_replicas: int
) -> None:
    rng = random.Random(7)
    moves = Moves()
    env = {
        "REDIS_SENTINELS": group.sentinel_addresses,
        "WRITE_REPLICAS": str(write_replicas),
        "METRICS": "1",
    }
    with serving("", tmp_path / "service.log", **env) as s:
        pid = s.process.pid
        async with httpx.AsyncClient(base_url=s.url, timeout=30) as http:
            tables = Tables(http)
            played = [
                await tables.ready("thirty_one", 3, {"lives": 10}, seed=i) for i in range(IN_FLIGHT)
            ]
            watched = played[0]
            for _ in range(5):
                await moved_once(http, watched, rng, moves, within=5)
            follower = Follower(await version_of(http, watched))
            async with tasks(
                stream(s.url, watched, follower),
                *(keep_moving(http, t, random.Random(i), moves) for i, t in enumerate(played)),
            ):
                await follower.reached(await version_of(http, watched))
                old = group.primary()
                group.kill(old)
                killed = time.monotonic()
                new = await in_thread(group.wait_for_new_primary, old)
                # As a supervisor would: the new primary has no replica until then.
                await in_thread(group.restart_as_replica, old)
                await moved_once(http, watched, rng, moves, within=20)
                paused = time.monotonic() - killed
                for _ in range(4):
                    await moved_once(http, watched, rng, moves, within=15)
                final = await version_of(http, watched)
                await follower.reached(final)
            assert s.process.poll() is None and s.process.pid == pid  # no restart
            for _ in range(50):  # counts reach the scrape within a second or so
                _, samples = await scrape(s.url)
                if total(samples, "kronikas_primary_switches_total"):
                    break
                await asyncio.sleep(0.1)
            assert total(samples, "kronikas_primary_switches_total") == 1
    assert moves.dishonest() == {}, moves.answers
    assert follower.gapless(), follower.seen
    assert new.role() == b"master"
    print(
        f"\nprimary killed (WRITE_REPLICAS={write_replicas}): a move applied {paused:.2f} s "
        f"after the SIGKILL; {moves}"
    )


async def test_the_servers_password_and_database_come_from_redis_url(group: RedisGroup) -> None:
    for server in group.servers:
        assert ask(server.port, "config", "set", "masterauth", "s3cret") == b"OK"
        assert ask(server.port, "config", "set", "requirepass", "s3cret") == b"OK"
    for sentinel in group.sentinels:
        said = ask(sentinel.port, "sentinel", "set", MASTER, "auth-pass", "s3cret")
        assert said == b"OK", said
    app = create_app(
        settings("redis://:s3cret@/3", redis_sentinels=sentinels(group)), games=ENGINES
    )
    rng = random.Random(3)
    moves = Moves()
    async with (
        running(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=f"http://{TEST_HOST}", timeout=30
        ) as http,
    ):
        table = await Tables(http).ready("cheat", 2, {"rounds": 20}, seed=3)
        await moved_once(http, table, rng, moves, within=5)
        old = group.primary()
        # A failover keeps only what the replica has taken (WRITE_REPLICAS=0 waits for none).
        await in_thread(group.wait_caught_up, "-a", "s3cret", "--no-auth-warning")
        said = ask(group.sentinels[0].port, "sentinel", "failover", MASTER)
        assert said == b"OK", said
        for _ in range(300):  # (the group's own wait asks the servers, without the password)
            if (await in_thread(group.primary)).port != old.port:
                break
            await asyncio.sleep(0.05)
        assert group.primary().port != old.port
        await moved_once(http, table, rng, moves, within=15)
    keys = ask(group.primary().port, "-a", "s3cret", "-n", "3", "--no-auth-warning", "dbsize")
    assert int(keys) > 0  # the tables are in database 3
    assert moves.dishonest() == {}, moves.answers
