"""The crowd (issue 14, item 4): how many concurrent streams one service process holds.

`TABLES` two-seat Cheat tables are played by their seats exactly as in benchmarks/follow.py (each
seat on its own SSE stream with its token, moving when its stream shows its turn, with `If-Match`),
but slowly: a seat thinks `THINK_S` on average (`--crowd-think-ms`) before it sends its move, so
that the process is far from saturated and the figure is about the streams it holds rather than
the moves it makes. Each table is also followed by `SPECTATORS` spectators' streams (no token), so
that one worker process (`WORKERS=1`: the service's pid is the worker's) holds
tables × (2 + spectators) streams while the tables play. It is a service of its own, started for
this phase, so that its memory before the streams is not what earlier phases left.

It reports the streams held, the process's resident memory (`VmRSS`) before the streams open and
with them open, the memory a stream costs (the difference over the streams: it includes each
table's fold and its seats' command connections, 2.5 a table beside the streams), moves/s, the
push delay from writing a move to the other seat's stream delivering it and to each spectator's
stream delivering it, and the CPU the generator, the service and Redis took meanwhile. Tables
are dealt and their streams opened `OPENING` tables at a time: a table counts as open when both
seats were shown their hands and every spectator's stream delivered its first event.

uvicorn closes a keep-alive connection idle for 5 s; a seat whose command connection idled 4 s
opens a fresh one first, as a browser would (`crowd_reconnects` counts them; outside the push
delay, which starts when the move is written).

    uv run python -m benchmarks.bench --only crowd [--crowd-tables 500 --crowd-spectators 10]
"""

from __future__ import annotations

import asyncio
import random
import resource
import subprocess
import time
from pathlib import Path
from typing import Any

from benchmarks import follow
from benchmarks.commands import warm_up
from benchmarks.connection import Connection
from benchmarks.served import Service, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis

TABLES = 500
SPECTATORS = 10
THINK_S = 1.5
"""A seat's mean think time: 500 tables make about 500 / (1.5 s + the push delay) moves a second.
A seat thinks from 0.75 to 1.25 times it."""
OPENING = 8
"""Tables dealt, and their streams opened, at once."""
IDLE_S = 4.0
"""A command connection idle this long is replaced before it carries a move: uvicorn closes a
keep-alive connection idle for 5 s. (A seat waits for its turn and thinks 3.75 s at most, and
its connection is fresh when the play starts, so this is rare.)"""


# -- spectators ---------------------------------------------------------------------------------


class Spectator:
    """A stream with no token on one table: it notes when each move reaches it, nothing more.

    It stands in for a `follow.Seat` to `follow.Stream`, which hands it the frames (`event`) and
    tells the table's phase if the stream breaks.
    """

    def __init__(self, table: follow.Table, sent: dict[int, float]) -> None:
        self.table = table
        self.sent = sent
        """When each of the table's recent moves was sent, by the version of its first event."""
        self.delays: list[float] = table.phase.spectator_delays  # type: ignore[attr-defined]
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.opened_at = time.perf_counter()
        self.stream: follow.Stream | None = None

    def event(self, version: int, kind: bytes, data: bytes) -> None:
        if not self.ready.done():
            self.ready.set_result(None)
        at = self.sent.get(version)
        # A move sent before this stream opened reaches it with the backlog: not a push.
        if at is not None and at >= self.opened_at:
            self.delays.append(time.perf_counter() - at)
        if kind.endswith(b".match_ended") and self.stream is not None:
            self.stream.close()

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
        if not self.ready.done():
            self.ready.cancel()


class CrowdSlot(follow.Slot):
    """A `follow.Slot` whose every table is also followed by the phase's spectators."""

    phase: CrowdPhase

    def __init__(self, phase: CrowdPhase) -> None:
        super().__init__(phase)
        self.spectators: list[Spectator] = []

    async def deal(self) -> follow.Table:
        if self.table is not None:  # a table dealt again: its setup connection has long idled
            self._leave()
            self.setup.close()
            self.setup = await Connection(self.phase.port).open()
        table = await super().deal()
        phase = self.phase
        sent = phase.sent_times[table.game_id] = {}
        request = (
            f"GET /v1/games/{table.game_id}/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n"
        ).encode()
        loop = asyncio.get_running_loop()
        for _ in range(phase.spectators):
            spectator = Spectator(table, sent)
            self.spectators.append(spectator)
            _, stream = await loop.create_connection(
                lambda s=spectator: follow.Stream(s),  # type: ignore[arg-type]
                "127.0.0.1",
                phase.port,
            )
            spectator.stream = stream
            stream.transport.write(request)  # type: ignore[union-attr]
        return table

    def _leave(self) -> None:
        """The spectators of the table played here before leave with it."""
        for spectator in self.spectators:
            spectator.close()
        self.spectators = []
        if self.table is not None:
            self.phase.sent_times.pop(self.table.game_id, None)

    def close(self) -> None:
        self._leave()
        super().close()


class CrowdPhase(follow.Phase):
    """`follow.Phase` with spectators, a think time before each move, and a bounded opening."""

    def __init__(self, port: int, tables: int, spectators: int, think_s: float) -> None:
        super().__init__(port, tables)
        self.spectators = spectators
        self.think_s = think_s
        self.spectator_delays: list[float] = []
        self.sent_times: dict[str, dict[int, float]] = {}
        self.random = random.Random(14)
        self.loop = asyncio.get_running_loop()
        self.idle_since: dict[follow.Commands, float] = {}
        """When each command connection last had an answer (or opened)."""
        self.reconnects = 0
        """Moves that waited for a fresh command connection (the last had idled near timeout)."""

    async def open(self) -> None:
        """Every table dealt, both its seats shown their hands and every spectator's stream its
        first event, `OPENING` tables at a time; no move made yet."""
        limit = asyncio.Semaphore(OPENING)

        async def one() -> None:
            async with limit:
                slot = await CrowdSlot(self).open()
                self.slots.append(slot)
                for commands in slot.commands:
                    self.idle_since[commands] = time.perf_counter()
                table = await slot.deal()
                async with asyncio.timeout(30):
                    await asyncio.gather(table.ready, *(s.ready for s in slot.spectators))

        await asyncio.gather(*(one() for _ in range(self.tables)))

    def go(self) -> None:
        """The first moves spread evenly over two think times, as the later ones are."""
        self.going = True
        pending, self.pending = self.pending, []
        for seat, request, version in pending:
            think = self.think_s * self.random.uniform(0.0, 2.0)
            self.loop.call_later(think, self._move, seat, request, version)

    def send(self, seat: follow.Seat, request: bytes, version: int) -> None:
        if self.stopping or seat.table.over or not self.going:
            super().send(seat, request, version)  # dropped, or kept until `go()`
            return
        think = self.think_s * self.random.uniform(0.75, 1.25)
        self.loop.call_later(think, self._move, seat, request, version)

    def _move(self, seat: follow.Seat, request: bytes, version: int) -> None:
        if self.stopping or seat.table.over:
            return
        commands = seat.commands
        if commands.waiting is None and (
            commands.transport.is_closing()
            or time.perf_counter() - self.idle_since.get(commands, 0.0) > IDLE_S
        ):
            self.spawn(self._reconnect(seat, request, version))
            return
        sent = self.sent_times.get(seat.table.game_id)
        if sent is not None:
            sent[version + 1] = time.perf_counter()
            if len(sent) > 4:
                del sent[next(iter(sent))]
        super().send(seat, request, version)

    async def refresh(self) -> None:
        """A fresh command connection for every seat, `OPENING` tables' at a time: the play
        starts with none near the service's keep-alive timeout."""
        limit = asyncio.Semaphore(OPENING)

        async def one(seat: follow.Seat) -> None:
            async with limit:
                await self._fresh(seat)

        seats = [seat for slot in self.slots if slot.table for seat in slot.table.seats]
        await asyncio.gather(*(one(seat) for seat in seats))

    async def _fresh(self, seat: follow.Seat) -> None:
        """A fresh command connection for the seat, as a browser opens one when its last idled."""
        _, commands = await self.loop.create_connection(
            lambda: follow.Commands(self), "127.0.0.1", self.port
        )
        self.idle_since.pop(seat.commands, None)
        seat.commands.close()
        seat.commands = seat.table.slot.commands[seat.index] = commands
        self.idle_since[commands] = time.perf_counter()

    async def _reconnect(self, seat: follow.Seat, request: bytes, version: int) -> None:
        self.reconnects += 1
        await self._fresh(seat)
        self._move(seat, request, version)

    def answered(self, seat: follow.Seat, status: int, body: bytes) -> None:
        self.idle_since[seat.commands] = time.perf_counter()
        super().answered(seat, status, body)

    async def close(self) -> None:
        # A table being dealt again when the phase ends fails on its closed connection rather
        # than being cancelled while its answer is on the way.
        for slot in self.slots:
            slot.setup.close()
        await super().close()


# -- the process ---------------------------------------------------------------------------------


def raise_fd_limit() -> int:
    """This process's open-file limit raised to its hard limit (a child inherits it); returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def fd_limit(pid: int) -> int:
    """A process's open-file (soft) limit, from /proc/<pid>/limits."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            soft = line.split()[3]
            return 1 << 62 if soft == "unlimited" else int(soft)
    raise RuntimeError(f"no open-file limit in /proc/{pid}/limits")


def rss_mib(pid: int) -> float:
    """A process's resident memory (VmRSS), in MiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS in /proc/{pid}/status")


def _quantile(samples: list[float], q: float) -> float:
    return sorted(samples)[min(len(samples) - 1, int(len(samples) * q))] * 1000 if samples else 0.0


async def play(
    port: int,
    pid: int,
    redis: EmbeddedRedis,
    tables: int,
    spectators: int,
    seconds: float,
    think_s: float = THINK_S,
) -> dict[str, Any]:
    """Open the crowd on the service at `port` (process `pid`), play it for `seconds`, and take
    every count around the play; the keys of `bench-results.json`."""
    redis_pid = redis.process.pid if redis.process else 0
    streams = tables * (2 + spectators)
    # Each stream, each seat's command connection and each table's setup connection is a file
    # on both sides of loopback.
    needed = tables * (5 + spectators) + 200
    for who, limit in (("the generator", raise_fd_limit()), ("the service", fd_limit(pid))):
        if limit < needed:
            raise RuntimeError(
                f"{who} may open {limit} files, and {tables} tables with {spectators} spectators "
                f"each need about {needed}: raise `ulimit -n` (RLIMIT_NOFILE)"
            )
    phase = CrowdPhase(port, tables, spectators, think_s)
    stats = await follow.RedisStats(redis.port).open()
    try:
        rss_idle = rss_mib(pid)
        opening = time.perf_counter()
        await phase.open()
        open_s = time.perf_counter() - opening
        await asyncio.sleep(1.0)  # what opening left to do settles
        rss_open = rss_mib(pid)
        await phase.refresh()
        calls0 = await stats.calls()
        service0, redis0 = cpu_seconds(pid), cpu_seconds(redis_pid)
        generator0, wall0 = time.process_time(), time.perf_counter()
        phase.go()
        await asyncio.sleep(seconds)
        rss_playing = rss_mib(pid)
        phase.stop()
        try:
            async with asyncio.timeout(30):
                await phase.done
        except TimeoutError:  # a figure all the same, with what went wrong beside it
            phase.lost.append(f"{phase.in_flight} moves had no answer 30 s after the play")
        wall, generator = time.perf_counter() - wall0, time.process_time() - generator0
        service, store = cpu_seconds(pid) - service0, cpu_seconds(redis_pid) - redis0
        calls = {name: n - calls0.get(name, 0) for name, n in (await stats.calls()).items()}
    finally:
        stats.close()
        await phase.close()
    await asyncio.sleep(0.5)  # the closed streams' goodbyes fall outside the next phase
    rss_streams = max(rss_open, rss_playing)
    # As `follow` counts them: a script call once, and each command sent outside scripts.
    scripted = follow.script_commands()
    sent = sum(n for name, n in calls.items() if name.startswith("eval") or name not in scripted)
    return {
        "crowd_tables": tables,
        "crowd_spectators_per_table": spectators,
        "crowd_think_ms": think_s * 1000,
        "crowd_streams": streams,
        "crowd_open_s": open_s,
        "crowd_rss_mib_idle": rss_idle,
        "crowd_rss_mib_open": rss_open,
        "crowd_rss_mib_playing": rss_playing,
        "crowd_rss_mib_streams": rss_streams,
        "crowd_kib_per_stream": (rss_streams - rss_idle) * 1024 / streams,
        "crowd_moves_per_s": phase.moves / wall,
        "crowd_push_p50_ms": _quantile(phase.delays, 0.5),
        "crowd_push_p99_ms": _quantile(phase.delays, 0.99),
        "crowd_spectator_push_p50_ms": _quantile(phase.spectator_delays, 0.5),
        "crowd_spectator_push_p99_ms": _quantile(phase.spectator_delays, 0.99),
        "crowd_spectator_pushes": len(phase.spectator_delays),
        "crowd_generator_cpu_share": generator / wall,
        "crowd_service_cpu_share": service / wall,
        "crowd_redis_cpu_share": store / wall,
        "crowd_redis_calls_per_move": sent / max(phase.moves, 1),
        "crowd_reconnects": phase.reconnects,
        "crowd_refused": len(phase.refused),
        "crowd_streams_lost": len(phase.lost),
        "crowd_problems": (phase.refused + phase.lost)[:5],
    }


async def measure(
    redis: EmbeddedRedis,
    seconds: float,
    tables: int = TABLES,
    spectators: int = SPECTATORS,
    think_s: float = THINK_S,
) -> dict[str, Any]:
    """The crowd on a fresh one-worker service of its own (so that its memory before the streams
    is not what earlier phases left), warmed up first with a few tables and streams."""
    raise_fd_limit()  # before the service starts: it inherits the limit
    service = Service(redis.url, 1)
    try:
        await service.ready()
        pid = service.process.pid
        await warm_up(service.port)
        await play(service.port, pid, redis, 2, 2, 1.0, think_s=0.05)
        await asyncio.sleep(1.0)
        return await play(service.port, pid, redis, tables, spectators, seconds, think_s)
    finally:
        try:
            service.stop()
        except subprocess.TimeoutExpired:  # thousands of streams may outlast its grace period
            service.process.kill()
            service.process.wait()
