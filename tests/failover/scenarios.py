"""The failover scenarios (issue 42, item 4), each run whole by `run`: a primary, one replica and
three Sentinels (tests/redis_group.py, `min-replicas-to-write 1`), two service processes that
find the primary through the Sentinels and acknowledge a write once a replica has it
(`WRITE_REPLICAS=1`), tables of both games played to their end by clients that retry with their
keys, a stream and a long-poll following each table — and one fault in the middle of it:

- `primary_killed`: SIGKILL to the primary under load; once the Sentinels have promoted the
  replica, the killed server is started again as its replica, as a supervisor would (with
  `min-replicas-to-write 1` the new primary takes no write until then);
- `primary_paused`: SIGSTOP to the primary until the Sentinels have promoted the replica, then
  SIGCONT: the old primary comes back believing it is one, until a Sentinel demotes it;
- `replica_killed`: SIGKILL to the replica, started again two seconds later.

`run` answers the figures (the write pause, a move's p50/p99 across the failover, acknowledged
commands checked and lost) and every problem the checks found; tests/failover/test_failover.py
asserts there is none, benchmarks/failover.py prints the figures of several runs."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.api.tables import Table, Tables
from tests.conftest import ServiceProcess
from tests.failover import checks
from tests.failover.followers import STREAM_SILENCE_S, Follower, long_poll, stream
from tests.failover.players import Player, Record
from tests.redis_group import RedisGroup

GAMES = [
    ("cheat", 3, {"rounds": 3}),
    ("thirty_one", 3, {}),
    ("cheat", 2, {"rounds": 3}),
    ("thirty_one", 2, {}),
]
"""The tables each scenario plays: both games, two and three seats."""
MOVES_BEFORE = 8
"""Every table has made this many moves when the fault comes (the load it comes under)."""
PACE_S = 0.03
"""A client's pause between moves until the fault is repaired, so that the matches outlast the
failover; then they play on at full speed."""
REPLICA_DOWN_S = 2.0
MATCH_DEADLINE_S = 45.0
"""How long the matches may take in all; beyond it the clients are stopped and it is a problem."""
SERVICE_ENV = {"WRITE_REPLICAS": "1", "WRITE_WAIT_MS": "500", "REDIS_TIMEOUT_MS": "1000"}
"""A replica's confirmation waited for below the store's time-out (calls queue behind a WAIT),
both short so that a failover is answered within seconds."""


@dataclass
class Figures:
    """What one run measured, and what its checks found wrong."""

    scenario: str
    pause_s: float | None = None
    """From the fault to the first move acknowledged on an attempt sent after it."""
    p50_ms: float = 0.0
    p99_ms: float = 0.0
    """A move's time, from its player's first read of the table for it to its 200 (reads,
    refused candidates and retries included), over every move of the run."""
    max_ms: float = 0.0
    moves: int = 0
    in_flight: dict[str, int] = field(default_factory=dict)
    """What the moves in flight when the fault struck were answered."""
    checked: int = 0
    lost: int = 0
    answers: dict[str, int] = field(default_factory=dict)
    errors_logged: int = 0
    """Lines the services logged at level error (printed, not asserted: a stream that ends on
    a failed re-read logs one, and its client resumes without missing anything)."""
    took_s: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds from the run's start to: the group up, the services up, the fault, its repair,
    the matches' end, the checks' end."""
    problems: list[str] = field(default_factory=list)

    def line(self) -> str:
        pause = "-" if self.pause_s is None else f"{self.pause_s:.2f} s"
        return (
            f"{self.scenario}: write pause {pause}, move p50 {self.p50_ms:.0f} ms "
            f"p99 {self.p99_ms:.0f} ms max {self.max_ms:.0f} ms, {self.moves} moves, "
            f"acknowledged checked {self.checked} lost {self.lost}, in flight at the fault "
            f"{self.in_flight}, errors logged {self.errors_logged}, {self.took_s:.1f} s"
        )


async def primary_killed(group: RedisGroup) -> None:
    """SIGKILL; the killed server is started again as a replica once Sentinel has promoted the
    other (with `min-replicas-to-write 1` the new primary takes writes only then)."""
    old = group.primary()
    group.kill(old)
    await asyncio.to_thread(group.wait_for_new_primary, old)
    await asyncio.to_thread(group.restart_as_replica, old)
    await asyncio.to_thread(group.wait_synced)


async def primary_paused(group: RedisGroup) -> None:
    """SIGSTOP until Sentinel has promoted the replica, then SIGCONT. The old primary comes back
    a primary without replicas (so it refuses writes), and the new one has none until a
    Sentinel demotes the old one — which Redis 6.2's Sentinel does only once it has answered
    for 8 s (`SENTINEL_PUBLISH_PERIOD * 4`), then at its next INFO: writes pause ~10 s more."""
    old = group.primary()
    old.pause()
    try:
        await asyncio.to_thread(group.wait_for_new_primary, old)
    finally:
        old.resume()
    await asyncio.to_thread(group.wait_demoted, old)
    await asyncio.to_thread(group.wait_synced)


async def replica_killed(group: RedisGroup) -> None:
    """SIGKILL to the replica, started again `REPLICA_DOWN_S` later: meanwhile the primary
    refuses writes (it counts a replica gone the moment its connection closes)."""
    replica = group.replicas()[0]
    group.kill(replica)
    await asyncio.sleep(REPLICA_DOWN_S)
    await asyncio.to_thread(group.restart_as_replica, replica)
    await asyncio.to_thread(group.wait_synced)


SCENARIOS: dict[str, Callable[[RedisGroup], Awaitable[None]]] = {
    "primary_killed": primary_killed,
    "primary_paused": primary_paused,
    "replica_killed": replica_killed,
}


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.asynccontextmanager
async def two_services(
    redis_url: str, root: Path, env: dict[str, str]
) -> AsyncIterator[list[ServiceProcess]]:
    """Two service processes on the group, started and stopped side by side (each takes
    seconds)."""
    made = await asyncio.gather(
        *(
            asyncio.to_thread(
                functools.partial(ServiceProcess, redis_url, root / f"service-{name}.log", **env)
            )
            for name in "ab"
        ),
        return_exceptions=True,
    )
    services = [s for s in made if isinstance(s, ServiceProcess)]
    try:
        for failed in made:
            if isinstance(failed, BaseException):
                raise failed
        yield services
    finally:
        await asyncio.gather(*(asyncio.to_thread(s.stop) for s in services))


async def run(scenario: str, root: Path, replicas: int = 1, min_replicas: int = 1) -> Figures:
    """One scenario from a fresh group of Redis servers to its checks (the tests' group: one
    replica, `min-replicas-to-write 1`; the bench may ask for another)."""
    started = time.monotonic()
    group = RedisGroup(root / "redis", replicas=replicas, sentinels=3, min_replicas=min_replicas)
    with group:
        mark = time.monotonic()
        env = SERVICE_ENV | {"REDIS_SENTINELS": group.sentinel_addresses}
        url = "redis:///0"  # the Sentinels name the server
        async with (
            two_services(url, root, env) as (a, b),
            httpx.AsyncClient(base_url=a.url, timeout=10) as ca,
            httpx.AsyncClient(base_url=b.url, timeout=10) as cb,
        ):
            figures = await _play(scenario, group, [ca, cb])
    figures.took_s = time.monotonic() - started
    figures.errors_logged = sum(
        log.read_text(errors="replace").count('"level": "error"')
        for log in root.glob("service-*.log")
    )
    figures.phases = {"group": mark - started} | {k: v - started for k, v in figures.phases.items()}
    return figures


async def _play(scenario: str, group: RedisGroup, clients: list[httpx.AsyncClient]) -> Figures:
    figures = Figures(scenario)
    figures.phases["services"] = time.monotonic()
    record = Record()
    tables = [await Tables(clients[0]).ready(k, n, o, seed=None) for k, n, o in GAMES]
    players = [Player(clients, t, record, seed) for seed, t in enumerate(tables)]
    followers = [f for t in tables for f in (Follower(t.id, "stream"), Follower(t.id, "long-poll"))]
    following = [
        asyncio.create_task(
            stream(clients[0], f, record) if f.how == "stream" else long_poll(clients[1], f, record)
        )
        for f in followers
    ]
    for player in players:
        player.pace_s = PACE_S
    playing = [asyncio.create_task(p.play()) for p in players]
    found = checks.Found()
    try:
        while min(p.moves for p in players) < MOVES_BEFORE and not all(t.done() for t in playing):
            await asyncio.sleep(0.01)
        await _moves_in_flight(record)
        figures.phases["fault"] = at = time.monotonic()
        await SCENARIOS[scenario](group)
        figures.phases["repaired"] = time.monotonic()
        for player in players:
            player.pace_s = 0.0
        done, late = await asyncio.wait(playing, timeout=MATCH_DEADLINE_S)
        for task in late:
            task.cancel()
            found.problem("a client did not finish its match in time")
        for task in done:
            if task.exception() is not None:
                found.problem(f"a client failed: {task.exception()!r}")
        figures.phases["played"] = time.monotonic()
        await _check(found, group, clients, tables, followers, record)
        for task, follower in zip(following, followers, strict=True):
            if task.done() and not task.cancelled() and task.exception() is not None:
                found.problem(f"{follower.table_id} {follower.how} failed: {task.exception()!r}")
    finally:
        for task in [*playing, *following]:
            task.cancel()
        for task in [*playing, *following]:
            with contextlib.suppress(BaseException):
                await task
    figures.phases["checked"] = time.monotonic()
    after = [d for d in record.acknowledged if d.last_sent >= at]
    figures.pause_s = min(d.answered for d in after) - at if after else None
    times = [(d.answered - d.began) * 1000 for d in record.acknowledged]
    figures.p50_ms, figures.p99_ms = percentile(times, 0.5), percentile(times, 0.99)
    figures.max_ms = max(times, default=0.0)
    figures.moves = len(record.acknowledged)
    for sent, answered, said in record.attempts:
        if sent <= at <= answered:
            figures.in_flight[said] = figures.in_flight.get(said, 0) + 1
    figures.checked, figures.lost, figures.problems = found.checked, found.lost, found.problems
    figures.answers = dict(sorted(record.answers.items()))
    return figures


async def _moves_in_flight(record: Record, n: int = 2, timeout: float = 2.0) -> None:
    """Until `n` moves are on their way (so that the fault strikes some in flight), or a while."""
    deadline = time.monotonic() + timeout
    while record.in_flight < n and time.monotonic() < deadline:
        await asyncio.sleep(0.0005)


async def _check(
    found: checks.Found,
    group: RedisGroup,
    clients: list[httpx.AsyncClient],
    tables: list[Table],
    followers: list[Follower],
    record: Record,
) -> None:
    """Once the matches are over: the followers catch up with the last version, then every
    check runs on the logs as the servers and the services hold them."""
    checks.check_answers(found, record)
    try:
        last = await checks.check_finished(found, clients[0], tables)
    except checks.Unreadable as e:
        found.problem(f"the tables cannot be read after the failover: {e}")
        last = {}
    for follower in followers:
        follower.stop_at(last.get(follower.table_id, 0))
    waits = [asyncio.create_task(f.reached.wait()) for f in followers]
    await asyncio.wait(waits, timeout=STREAM_SILENCE_S + 5)
    for task in waits:
        task.cancel()
    await asyncio.to_thread(group.wait_synced)
    copies = await asyncio.to_thread(checks.raw_logs, group, tables)
    primary = group.primary().port
    checks.check_raw(found, primary, copies)
    logs: dict[tuple[str, int | None], list[dict[str, Any]]] = {}
    try:
        logs = await checks.check_api(found, clients, tables, copies[primary])
    except checks.Unreadable as e:
        found.problem(f"the logs cannot be read through the services: {e}")
    checks.check_acknowledged(found, record.acknowledged, copies[primary], logs)
    checks.check_followers(found, followers, logs)
