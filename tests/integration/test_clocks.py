"""Turn clocks and the house, on real service processes sharing one Redis.

A clock that runs out is acted on exactly once however many processes watch it; a process that
dies holding a due table leaves it to another once its lease ends; a restart acts on what fell
due while no process ran; a table of house players alone plays to its end with no request.
Every wait is bounded; the clocks are the shortest a table may have (5 s).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import (
    DEADLINES,
    RedisDeadlines,
    RedisEventLog,
    RedisStores,
)
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.application.clocks import LEASE_MS, Clocks
from kronikas.application.games import Games
from kronikas.application.ports import AppendRequest, AppendResult
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions
from tests.api.tables import Table, Tables, auth
from tests.apps import ENGINES
from tests.conftest import ServiceProcess

TURN_S = 5
"""The shortest clock a table may have."""
LATE_S = 1.5
"""How long after a deadline the house's move may reach a watcher ("about a second": the
processes look every 0.25 s; the rest is slack for this loaded machine)."""


def epoch(rfc3339: str) -> float:
    """An RFC 3339 UTC time as epoch seconds."""
    return datetime.fromisoformat(rfc3339.replace("Z", "+00:00")).timestamp()


@contextlib.contextmanager
def processes(redis_url: str, *logs: Path) -> Iterator[list[ServiceProcess]]:
    """Service processes on one Redis, started side by side (a start takes seconds here), one
    a log; all stopped at the end (SIGTERM; one killed already stays so)."""
    with ThreadPoolExecutor(len(logs)) as pool:
        starts = [pool.submit(ServiceProcess, redis_url, log) for log in logs]
    started = [s.result() for s in starts if s.exception() is None]
    try:
        for s in starts:
            if error := s.exception():
                raise error
        yield started
    finally:
        for service in started:
            service.stop()


@contextlib.asynccontextmanager
async def running(redis_url: str, *logs: Path) -> AsyncIterator[list[ServiceProcess]]:
    """`processes`, started and stopped off the event loop, so that other tasks go on meanwhile."""
    block = processes(redis_url, *logs)
    starting = asyncio.ensure_future(asyncio.to_thread(block.__enter__))
    try:
        started = await asyncio.shield(starting)
    except asyncio.CancelledError:  # they start all the same: stop them
        with contextlib.suppress(Exception):
            await starting
            await asyncio.to_thread(block.__exit__, None, None, None)
        raise
    try:
        yield started
    finally:
        await asyncio.to_thread(block.__exit__, None, None, None)


@pytest.fixture(scope="module")
def pair(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServiceProcess]]:
    """Two service processes on the session's Redis, for the module."""
    logs = tmp_path_factory.mktemp("clocks")
    with processes(redis_url, logs / "a.log", logs / "b.log") as both:
        yield both


@contextlib.contextmanager
def no_errors_logged(
    *services: ServiceProcess, tolerate: Callable[[bytes], bool] = lambda _: False
) -> Iterator[None]:
    """Fails when a service logs an error in the block (the house hides a fault of its strategy
    behind its first legal move, and a clock a fault of acting: only the log tells), but for
    the errors `tolerate` lets through."""
    sizes = [service.log.stat().st_size for service in services]
    yield
    for service, size in zip(services, sizes, strict=True):
        with service.log.open("rb") as log:
            log.seek(size)
            lines = log.read().splitlines()
        errors = [line for line in lines if b'"level": "error"' in line and not tolerate(line)]
        assert not errors, errors[0].decode()[:3000]


async def clients(services: list[ServiceProcess]) -> list[httpx.AsyncClient]:
    return [httpx.AsyncClient(base_url=service.url, timeout=30) for service in services]


async def clocked(tables: Tables, kind: str, seed: int, **options: Any) -> tuple[Table, dict]:
    """A started two-person table with a 5 s clock, and the view at its start."""
    table = await tables.create(kind, {"turn_seconds": TURN_S, **options}, seed=seed)
    await tables.join(table)
    await tables.join(table)
    view = await tables.start(table)
    assert view["deadline"] is not None and view["turn"] is not None, view
    return table, view


async def events_after(client: httpx.AsyncClient, table: Table, after: int) -> list[dict]:
    """Every event after `after`, page after page (a bounded number of them)."""
    events: list[dict] = []
    for _ in range(100):
        r = await client.get(f"/v1/games/{table.id}/events", params={"after": after})
        assert r.status_code == 200, r.text
        page = r.json()
        events += page["events"]
        if not page["more"]:
            return events
        after = events[-1]["version"]
    raise AssertionError(f"more than 100 pages of events: {len(events)}")


async def sse_until_move(
    client: httpx.AsyncClient, table: Table, after: int
) -> tuple[list[dict], float]:
    """Stream the table from `after` until an event other than `seat_away` arrives: the events
    and the wall-clock time the last one arrived."""
    received: list[dict] = []
    url = f"/v1/games/{table.id}/stream"
    async with client.stream("GET", url, params={"after": after}) as r:
        assert r.status_code == 200
        data: list[str] = []
        async for line in r.aiter_lines():
            if line.startswith("data:"):
                data.append(line.removeprefix("data:").strip())
            elif line == "" and data:
                received.append(json.loads("\n".join(data)))
                data = []
                if not received[-1]["type"].endswith(".seat_away"):
                    return received, time.time()
    raise AssertionError(f"the stream ended after {received}")


async def poll_until_move(
    client: httpx.AsyncClient, table: Table, after: int
) -> tuple[list[dict], float]:
    """Long-poll the table from `after` (a bounded number of times) until an event other than
    `seat_away` arrives: the events and the wall-clock time the answer came."""
    received: list[dict] = []
    for _ in range(3):
        r = await client.get(
            f"/v1/games/{table.id}/events",
            params={"after": received[-1]["version"] if received else after, "wait": 15},
        )
        assert r.status_code == 200, r.text
        received += r.json()["events"]
        if any(not e["type"].endswith(".seat_away") for e in received):
            return received, time.time()
    raise AssertionError(f"no house move came: {received}")


def assert_one_house_move(events: list[dict], seat: int, after: int) -> None:
    """Exactly `seat_away` for `seat`, then one move of that seat, in one append."""
    assert [e["version"] for e in events] == [after + 1, after + 2], events
    away, move = events
    assert away["type"].endswith(".seat_away") and away["data"]["seat"] == seat, events
    assert move["data"]["seat"] == seat and not move["type"].endswith(".seat_away"), events
    assert away["at"] == move["at"], "the away seat and its move are one append"


async def finish_by_leaving(client: httpx.AsyncClient, table: Table, seat: int) -> None:
    """The person at `seat` leaves: with the other seat away, the house plays the table out
    (the seats it plays move at once, with no clock to wait for)."""
    r = await client.post(
        f"/v1/games/{table.id}/commands", json={"type": "leave"}, headers=auth(table.players[seat])
    )
    assert r.status_code == 200, r.text
    view = await wait_finished(client, table, 60)  # generous: a loaded machine plays slowly
    assert view["status"] == "finished" and view["winners"], view


async def wait_finished(client: httpx.AsyncClient, table: Table, within: float) -> dict:
    """Poll the table until it is finished, for at most `within` seconds."""
    deadline = time.monotonic() + within
    while True:
        r = await client.get(f"/v1/games/{table.id}")
        assert r.status_code == 200, r.text
        view: dict = r.json()
        if view["status"] == "finished" or time.monotonic() > deadline:
            return view
        await asyncio.sleep(0.1)


# -- a clock runs out: the house plays the seat, once ---------------------------------------------


async def run_out_clocks(
    services: list[ServiceProcess], redis: Redis, kinds: list[str]
) -> list[Table]:
    """Tables of `kinds` whose first clock runs out at about the same time, each watched by a
    stream on one process and a long-poll on the other: each gets one house move in time."""
    ca, cb = await clients(services)
    made: list[tuple[Table, dict]] = []
    try:
        # Tables made on either process; each table's seat on turn then stays silent.
        for i, kind in enumerate(kinds):
            made.append(await clocked(Tables((ca, cb)[i % 2]), kind, seed=40 + i))
        watchers = [
            asyncio.gather(
                sse_until_move((ca, cb)[i % 2], table, view["version"]),
                poll_until_move((cb, ca)[i % 2], table, view["version"]),
            )
            for i, (table, view) in enumerate(made)
        ]
        seen = await asyncio.wait_for(asyncio.gather(*watchers), TURN_S + 4)
        await asyncio.sleep(0.5)  # a second house move, were there one, would be in by now
        for (table, view), ((streamed, sse_at), (polled, poll_at)) in zip(made, seen, strict=True):
            seat, deadline = view["turn"], epoch(view["deadline"])
            for events in (streamed, polled, *[await events_after(c, table, 0) for c in (ca, cb)]):
                assert_one_house_move(events[-2:], seat, view["version"])
                assert events[-1]["version"] == view["version"] + 2
            move_at = epoch(polled[-1]["at"])
            assert deadline <= move_at + 0.005, "the house moved before the clock ran out"
            for arrived in (sse_at, poll_at):
                assert arrived - deadline < LATE_S, f"the move came {arrived - deadline:.2f} s late"
            for c in (ca, cb):
                r = await c.get(f"/v1/games/{table.id}")
                after = r.json()
                assert after["version"] == view["version"] + 2
                assert [p["away"] for p in after["players"]] == [
                    p["seat"] == seat for p in after["players"]
                ]
                # The next clock is the other person's, from the house's move.
                assert after["turn"] != seat and after["deadline"] is not None
                assert epoch(after["deadline"]) == pytest.approx(move_at + TURN_S, abs=0.002)
            score = await redis.zscore(DEADLINES, table.id)
            assert score == pytest.approx((move_at + TURN_S) * 1000, abs=2)
        for i, (table, view) in enumerate(made):
            await finish_by_leaving((ca, cb)[i % 2], table, 1 - view["turn"])
        return [table for table, _ in made]
    except BaseException:
        # A table left with a clock would be taken again by every later process on this Redis.
        if made:
            await redis.zrem(DEADLINES, *[table.id for table, _ in made])
        raise
    finally:
        await ca.aclose()
        await cb.aclose()


async def test_clocks_run_out_and_the_house_moves_once_on_two_processes(
    pair: list[ServiceProcess], redis: Redis
) -> None:
    made: list[Table] = []
    with no_errors_logged(*pair):
        made += await run_out_clocks(pair, redis, ["thirty_one", "cheat", "thirty_one", "cheat"])


async def test_the_cheat_house_plays_a_seat_whose_player_left_without_a_fault(
    pair: list[ServiceProcess],
) -> None:
    ca, cb = await clients(pair)
    try:
        tables = Tables(ca)
        table = await tables.ready("cheat", 2, seed=81)
        leaver = (await tables.view(table))["turn"]
        with no_errors_logged(*pair):
            r = await tables.send(table, leaver, {"type": "leave"})
            assert r.status_code == 200, r.text
            events = r.json()["events"]
            assert events[0]["type"] == "cheat.player_left"
            assert events[1]["type"] == "cheat.cards_played" and events[1]["data"]["seat"] == leaver
    finally:
        await ca.aclose()
        await cb.aclose()


# -- processes die or are gone --------------------------------------------------------------------


async def wait_for_move(client: httpx.AsyncClient, table: Table, after: int, within: float) -> list:
    """The events after `after` once a house move is among them (long-polls, bounded)."""
    deadline = time.monotonic() + within
    received: list[dict] = []
    while time.monotonic() < deadline:
        wait = max(0.1, min(5.0, deadline - time.monotonic()))
        r = await client.get(
            f"/v1/games/{table.id}/events",
            params={"after": received[-1]["version"] if received else after, "wait": wait},
        )
        assert r.status_code == 200, r.text
        received += r.json()["events"]
        if any(not e["type"].endswith(".seat_away") for e in received):
            return received
    raise AssertionError(f"no house move within {within} s: {received}")


async def killed_while_acting(redis_url: str, logs: Path) -> None:
    """One table whose taker died holding it (the lease `due` gave it), and one whose deadline
    falls as a process is killed: the survivor acts on both, each once."""
    redis = Redis.from_url(redis_url)
    try:
        async with (
            running(redis_url, logs / "a.log", logs / "b.log") as (a, b),
            httpx.AsyncClient(base_url=a.url, timeout=30) as ca,
            httpx.AsyncClient(base_url=b.url, timeout=30) as cb,
        ):
            held, held_view = await clocked(Tables(ca), "thirty_one", seed=51)
            # What a process that took the table at its deadline and died leaves: the lease.
            due = epoch(held_view["deadline"]) * 1000
            assert await redis.zscore(DEADLINES, held.id) == pytest.approx(due, abs=1)
            assert await redis.zadd(DEADLINES, {held.id: due + LEASE_MS}, xx=True, ch=True)
            killed, killed_view = await clocked(Tables(ca), "thirty_one", seed=52)
            deadline = epoch(killed_view["deadline"])
            await asyncio.sleep(max(0.0, deadline - time.time() - 0.02))
            a.stop(signal.SIGKILL)
            assert a.process.returncode == -signal.SIGKILL
            moved = await wait_for_move(cb, killed, killed_view["version"], LEASE_MS / 1000 + 3)
            assert_one_house_move(moved, killed_view["turn"], killed_view["version"])
            assert epoch(moved[-1]["at"]) - deadline < LEASE_MS / 1000 + 1.5
            await asyncio.sleep(0.5)  # a second house move, were there one, would be in
            assert len(await events_after(cb, killed, killed_view["version"])) == 2
            # The lease holds the table until it ends; then the survivor takes it.
            moved = await wait_for_move(cb, held, held_view["version"], LEASE_MS / 1000 + 4)
            assert_one_house_move(moved, held_view["turn"], held_view["version"])
            acted = epoch(moved[-1]["at"]) - due / 1000
            assert LEASE_MS / 1000 - 0.05 <= acted < LEASE_MS / 1000 + 1.5, acted
            await asyncio.sleep(0.5)
            assert len(await events_after(cb, held, held_view["version"])) == 2
    finally:
        await redis.aclose()


async def restarted(redis_url: str, logs: Path) -> None:
    """Every process stops; the deadlines fall due while none runs; one starts and acts on them
    at once."""
    async with (
        running(redis_url, logs / "first.log") as (first,),
        httpx.AsyncClient(base_url=first.url, timeout=30) as client,
    ):
        made = [await clocked(Tables(client), "thirty_one", seed=60 + i) for i in range(2)]
    last = max(epoch(view["deadline"]) for _, view in made)
    await asyncio.sleep(max(0.0, last - time.time() + 0.5))
    redis = Redis.from_url(redis_url)
    try:
        for table, view in made:  # the deadlines wait in the store, untouched
            due = epoch(view["deadline"]) * 1000
            assert await redis.zscore(DEADLINES, table.id) == pytest.approx(due, abs=1)
    finally:
        await redis.aclose()
    spawned = time.time()
    async with running(redis_url, logs / "again.log") as (again,):
        ready = time.time()
        async with httpx.AsyncClient(base_url=again.url, timeout=30) as client:
            for table, view in made:
                moved = await wait_for_move(client, table, view["version"], 5)
                assert_one_house_move(moved, view["turn"], view["version"])
                # Made by the new process (nothing acted while none ran), as soon as it ran.
                assert spawned <= epoch(moved[-1]["at"]) < ready + 1.0, (spawned, ready, moved)


async def test_a_process_killed_while_acting_leaves_it_to_another_and_a_restart_acts_at_once(
    own_redis: EmbeddedRedis, tmp_path: Path
) -> None:
    """Two scenarios, each on a Redis of its own with no other process, run side by side (each
    mostly waits: for a clock, a lease, a process to start)."""
    with EmbeddedRedis(tmp_path / "other-redis") as other:
        async with asyncio.TaskGroup() as both:  # one failing stops the other
            both.create_task(killed_while_acting(own_redis.url, tmp_path))
            both.create_task(restarted(other.url, tmp_path))


# -- the house alone ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "options", "seats"),
    [
        pytest.param("cheat", {"rounds": 2}, 3, id="cheat-3"),
        pytest.param("cheat", {}, 2, id="cheat-2"),
        pytest.param("thirty_one", {"lives": 10}, 3, id="thirty_one-3"),
        pytest.param("thirty_one", {"lives": 3}, 2, id="thirty_one-2"),
    ],
)
async def test_a_table_of_house_players_plays_to_its_end_by_itself(
    pair: list[ServiceProcess], redis: Redis, kind: str, options: dict[str, Any], seats: int
) -> None:
    ca, cb = await clients(pair)
    try:
        tables = Tables(ca)
        table = await tables.create(kind, options, seed=70 + seats)
        for i in range(seats):
            r = await ca.post(
                f"/v1/games/{table.id}/house-players",
                json={"name": f"H{i}"},
                headers=auth(table.host),
            )
            assert r.status_code == 201, r.text
            assert "token" not in r.json()
        with no_errors_logged(*pair):
            await tables.start(table)
            # No request after the start: what the start did not play, the clocks play (Cheat's
            # house seats make more moves than one request may; Thirty-One's fit in the start).
            view = await wait_finished(cb, table, 30)
        assert view["status"] == "finished", f"stuck at version {view['version']}"
        assert view["winners"] and view["deadline"] is None
        assert all(p["house"] and not p["away"] for p in view["players"])
        events = await events_after(cb, table, 0)
        assert [e["version"] for e in events] == list(range(1, view["version"] + 1))
        assert events[-1]["type"] == f"{kind}.match_ended"
        assert view == await Tables(ca).view(table)
        for _ in range(50):  # the clock settles the table out of the deadlines after its append
            if await redis.zscore(DEADLINES, table.id) is None:
                break
            await asyncio.sleep(0.1)
        assert await redis.zscore(DEADLINES, table.id) is None
    finally:
        await ca.aclose()
        await cb.aclose()


class Armed(RedisDeadlines):
    """The deadlines on Redis, noting that one was armed."""

    armed = False

    async def arm(self, game_id: str, due_ms: int) -> None:
        await super().arm(game_id, due_ms)
        self.armed = True


class LookBeforeAppend(RedisEventLog):
    """An event log whose first append after a deadline is armed lets another process's clocks
    look for due tables first: what happens when a tick lands between a request's arm and its
    append (it does, now and then, with every process looking four times a second)."""

    other: Clocks | None = None

    def __init__(self, stores: RedisStores, deadlines: Armed) -> None:
        super().__init__(stores.scripts, stores.lobby, 100_000, 100_000)
        self.deadlines = deadlines

    async def append(self, request: AppendRequest) -> AppendResult:
        if self.deadlines.armed and self.other is not None:
            self.deadlines.armed = False
            await self.other.tick()
        return await super().append(request)


async def test_a_clock_that_looks_between_a_starts_arm_and_its_append_loses_no_deadline(
    own_redis: EmbeddedRedis,
) -> None:
    redis = Redis.from_url(own_redis.url)
    settings = Settings(
        rate_per_s=100_000, rate_burst=100_000, address_per_s=100_000, address_burst=100_000
    )
    feeds = [Notifier(redis), Notifier(redis)]
    for feed in feeds:
        feed.start()
    try:
        stores = RedisStores(redis, 100_000, 100_000)
        armed = stores.deadlines = Armed(stores.scripts)
        looking = stores.log = LookBeforeAppend(stores, armed)
        starter = Games(stores, feeds[0], for_table, settings, ENGINES)
        looking.other = Games(
            RedisStores(redis, 100_000, 100_000), feeds[1], for_table, settings, ENGINES
        ).clocks
        # Twenty rounds of two house seats take more than one request's 100 house moves (32
        # cards a round, at most 4 a play): the start leaves the rest to the clocks, at once.
        created = json.loads(await starter.create("cheat", CheatOptions(rounds=20), seed=72))
        game_id, host = created["game"]["id"], created["host_token"]
        for name in ("H0", "H1"):
            await starter.seat_house(game_id, host, name)
        armed.armed = False  # the seats armed nothing; only the start's deadline matters
        await starter.start(game_id, host)
        view = json.loads((await starter.view(game_id, None)).body)
        assert view["status"] == "playing" and view["deadline"] is not None
        assert await redis.zscore(DEADLINES, game_id) is not None, "the table's deadline is lost"
    finally:
        for feed in feeds:
            await feed.stop()
        await redis.aclose()
