"""The commands workload: two-seat tables played by a script over keep-alive connections.

`make bench`'s commands phase (benchmarks/bench.py runs it): the ceiling (a bare append route,
mounted by benchmarks/app.py), scripted Cheat and Thirty-One tables on 32 connections with no
followers, views read in a loop, and flatness (a command on a table past move 1,000 against one
near move 10). benchmarks/alternate.py drives its `phase` alone; every workload warms a fresh
service up with `warm_up`.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from benchmarks.connection import Connection
from benchmarks.served import Service, cores_busy, cpu_seconds

CONNECTIONS = 32


class _Hand(msgspec.Struct):
    hand: list[str] = []


class _CheatPart(msgspec.Struct):
    window_open: bool = False


class _ThirtyOnePart(msgspec.Struct):
    phase: str = ""
    table: list[str] = []


class View(msgspec.Struct):
    """The fields of a view that the scripts read (msgspec skips the rest unparsed)."""

    version: int
    status: str
    turn: int | None = None
    me: _Hand | None = None
    cheat: _CheatPart | None = None
    thirty_one: _ThirtyOnePart | None = None


class _Event(msgspec.Struct):
    type: str


class Moved(msgspec.Struct):
    version: int
    events: list[_Event]
    game: View


class Version(msgspec.Struct):
    version: int


_VIEW = msgspec.json.Decoder(View)
_MOVED = msgspec.json.Decoder(Moved)
_VERSION = msgspec.json.Decoder(Version)


@dataclass
class Load:
    """Requests and latencies of one measured phase."""

    latencies: list[float] = field(default_factory=list)
    errors: int = 0


async def drive(
    port: int,
    seconds: float,
    worker: Callable[[Connection, Load, Callable[[], bool]], Awaitable[None]],
    connections: int = CONNECTIONS,
) -> tuple[float, Load, float]:
    """Run `connections` workers for `seconds`; returns (requests/s, load, generator CPU share)."""
    load = Load()
    conns = [await Connection(port).open() for _ in range(connections)]
    deadline = time.perf_counter() + seconds
    cpu0, wall0 = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker(c, load, lambda: time.perf_counter() < deadline) for c in conns))
    cpu, wall = time.process_time() - cpu0, time.perf_counter() - wall0
    for c in conns:
        c.close()
    return len(load.latencies) / wall, load, cpu / wall


async def timed(load: Load, call: Awaitable[tuple[int, Any]]) -> tuple[int, Any]:
    started = time.perf_counter()
    status, body = await call
    if status >= 400:
        load.errors += 1
    else:
        load.latencies.append(time.perf_counter() - started)
    return status, body


# -- the ceiling ---------------------------------------------------------------------------------


async def ceiling_worker(conn: Connection, load: Load, going: Callable[[], bool]) -> None:
    game = os.urandom(8).hex()
    version = 0
    while going():
        call = conn.request("POST", f"/bench/append/{game}?v={version}", answer=_VERSION)
        _, body = await timed(load, call)
        version = body.version


# -- scripted tables -----------------------------------------------------------------------------


class Scripted:
    """A two-seat table played by a script that always knows a legal move from the answers."""

    def __init__(self, conn: Connection, kind: str, load: Load | None) -> None:
        self.conn, self.kind, self.load = conn, kind, load
        self.tokens: list[str] = []
        self.hands: list[list[str]] = [[], []]
        self.view = View(version=0, status="open")
        self.table_id = ""
        self.swaps = 0

    async def setup(self) -> None:
        options = {"rounds": 100} if self.kind == "cheat" else {"lives": 10}
        _, created = await self.conn.request(
            "POST", "/v1/games", {"kind": self.kind, "options": options}
        )
        self.table_id, host = created["game"]["id"], created["host_token"]
        self.tokens = []
        for name in ("A", "B"):
            _, joined = await self.conn.request(
                "POST", f"/v1/games/{self.table_id}/players", {"name": name}
            )
            self.tokens.append(joined["token"])
        await self.conn.request("POST", f"/v1/games/{self.table_id}/start", token=host)
        for seat in (0, 1):
            await self.refresh(seat)

    async def refresh(self, seat: int) -> None:
        """Learn a seat's new hand (after a deal), from its own view."""
        _, view = await self.conn.request(
            "GET", f"/v1/games/{self.table_id}", token=self.tokens[seat], answer=_VIEW
        )
        self.hands[seat] = view.me.hand
        self.view = view

    def next_command(self) -> tuple[int, dict[str, Any]]:
        view, seat = self.view, self.view.turn
        if seat is None:
            raise RuntimeError(f"no turn in a playing table: {view}")
        if view.cheat is not None:
            if view.cheat.window_open and not self.hands[1 - seat]:
                return seat, {"type": "accept"}
            return seat, {"type": "play", "cards": [self.hands[seat][0]]}
        if view.thirty_one is None:
            raise RuntimeError(f"neither game's part in the view: {view}")
        phase = view.thirty_one.phase
        if phase == "dealer_choice":
            return seat, {"type": "keep"}
        if phase == "last_circuit":
            return seat, {"type": "pass"}
        self.swaps += 1
        if self.swaps % 12 == 0:
            return seat, {"type": "show"}
        give, take = self.hands[seat][0], view.thirty_one.table[0]
        return seat, {"type": "swap", "give": give, "take": take}

    async def move(self) -> bool:
        """One command; False when the match is over."""
        seat, command = self.next_command()
        call = self.conn.request(
            "POST", f"/v1/games/{self.table_id}/commands", command, self.tokens[seat], _MOVED
        )
        status, body = await (timed(self.load, call) if self.load else call)
        if status != 200:
            raise RuntimeError(f"scripted command refused: {status} {body} for {command}")
        self.view = body.game
        self.hands[seat] = self.view.me.hand
        if self.view.status == "finished":
            return False
        if any(e.type.endswith(".round_dealt") for e in body.events):
            # The mover's new hand came with the answer; the other seat has to look.
            await self.refresh(1 - seat)
        return True


def tables_worker(kind_of: Callable[[], str]) -> Callable[..., Awaitable[None]]:
    async def worker(conn: Connection, load: Load, going: Callable[[], bool]) -> None:
        while going():
            table = Scripted(conn, kind_of(), load)
            await table.setup()
            # At least one move a table: on a slow machine a short phase can end during the
            # set-up (six requests, not counted), and a phase that counted no command has no
            # figures.
            while await table.move() and going():
                pass

    return worker


async def reads_worker(conn: Connection, load: Load, going: Callable[[], bool]) -> None:
    table = Scripted(conn, "thirty_one", None)
    await table.setup()
    path, token = f"/v1/games/{table.table_id}", table.tokens[0]
    while going():
        await timed(load, conn.request("GET", path, token=token, answer=_VIEW))


async def flatness(port: int) -> tuple[float, float, float]:
    """Median command latency on a table past move 1,000 and on one near move 10, and the ratio.

    The two tables take turns, one command each, so that both see the same machine.
    """
    conn = await Connection(port).open()
    long, young = Scripted(conn, "cheat", None), Scripted(conn, "cheat", None)
    await long.setup()
    moves = 0
    while moves < 1000:
        moves += 1
        if not await long.move():
            raise RuntimeError("the long match ended early")
    await young.setup()
    for _ in range(10):
        await young.move()
    samples: dict[int, list[float]] = {0: [], 1: []}
    for _ in range(100):
        for side, table in enumerate((young, long)):
            started = time.perf_counter()
            await table.move()
            samples[side].append(time.perf_counter() - started)
    conn.close()
    early, late = statistics.median(samples[0]), statistics.median(samples[1])
    return early * 1000, late * 1000, late / early


async def warm_up(port: int) -> None:
    """A second of scripted Cheat tables on 8 connections: a fresh service's first moves pay for
    imports and caches that no phase should count."""
    await drive(port, 1.0, tables_worker(lambda: "cheat"), 8)


# -- one measured phase -------------------------------------------------------------------------


@dataclass
class Measured:
    """The scripted tables' phase: its rate, latencies, and the CPU each party spent."""

    rate: float
    load: Load
    generator_cpu: float
    worker_cpu_s: float
    redis_cpu_s: float
    cores_busy: float
    """The share of all the machine's cores that were busy, whoever used them."""


async def phase(service: Service, redis_pid: int, seconds: float) -> Measured:
    """Scripted Cheat and Thirty-One tables on `CONNECTIONS` connections for `seconds`."""
    kinds = iter(["cheat", "thirty_one"] * 10_000)
    server0, redis0 = cpu_seconds(service.process.pid), cpu_seconds(redis_pid)
    busy0, all0 = cores_busy()
    rate, load, cpu = await drive(service.port, seconds, tables_worker(kinds.__next__))
    busy1, all1 = cores_busy()
    return Measured(
        rate,
        load,
        cpu,
        cpu_seconds(service.process.pid) - server0,
        cpu_seconds(redis_pid) - redis0,
        (busy1 - busy0) / (all1 - all0) if all1 > all0 else 0.0,
    )


def _costs(phases: list[Measured], seconds: float) -> tuple[float, float, float]:
    """CPU one command cost the service's workers, Redis and the generator, in seconds."""
    done = sum(p.rate * seconds for p in phases)
    worker_s = sum(p.worker_cpu_s for p in phases) / done
    redis_s = sum(p.redis_cpu_s for p in phases) / done
    generator_s = statistics.mean(p.generator_cpu / p.rate for p in phases)
    return worker_s, redis_s, generator_s


async def measure(one: Service, two: Service, redis_pid: int, seconds: float) -> dict[str, Any]:
    """Ceiling, commands with one worker and commands with two in turns (two halves each, so
    that a slow spell of the machine falls on all three), then reads and flatness."""
    results: dict[str, Any] = {}
    ceilings: list[tuple[float, float]] = []
    phases: list[Measured] = []
    twos: list[Measured] = []
    half = seconds / 2
    for _ in range(2):
        rate, _, cpu = await drive(one.port, half, ceiling_worker)
        ceilings.append((rate, cpu))
        phases.append(await phase(one, redis_pid, half))
        twos.append(await phase(two, redis_pid, half))
    results["ceiling_per_s"] = statistics.mean(r for r, _ in ceilings)
    results["ceiling_generator_cpu"] = statistics.mean(c for _, c in ceilings)
    # CPU a command costs the worker, the generator and Redis: two workers can go at most as
    # fast as the cores left over by the other two allow.
    worker_s, redis_s, generator_s = _costs(phases, half)
    results["server_cpu_per_command_us"] = worker_s * 1e6
    results["generator_cpu_per_command_us"] = generator_s * 1e6
    results["redis_cpu_per_command_us"] = redis_s * 1e6
    results["cores_busy"] = statistics.mean(p.cores_busy for p in phases)
    if worker_s > 0:
        share = worker_s / (worker_s + generator_s + redis_s)
        results["two_worker_bound"] = min(2.0, (os.cpu_count() or 1) * share)
    lat = sorted(t for p in phases for t in p.load.latencies)
    results["commands_per_s"] = statistics.mean(p.rate for p in phases)
    results["commands_generator_cpu"] = statistics.mean(p.generator_cpu for p in phases)
    results["p50_ms"] = lat[len(lat) // 2] * 1000
    results["p99_ms"] = lat[int(len(lat) * 0.99)] * 1000
    results["command_errors"] = sum(p.load.errors for p in phases + twos)
    results["commands_per_s_two_workers"] = statistics.mean(p.rate for p in twos)
    # Does a second worker make each command dearer, or does the machine run out of cores?
    results["two_worker_server_cpu_per_command_us"] = _costs(twos, half)[0] * 1e6
    results["two_worker_cores_busy"] = statistics.mean(p.cores_busy for p in twos)
    rate, _, cpu = await drive(one.port, seconds, reads_worker)
    results["view_per_s"], results["view_generator_cpu"] = rate, cpu
    early, late, ratio = await flatness(one.port)
    results["flatness_move_10_ms"], results["flatness_move_1000_ms"] = early, late
    results["flatness"] = ratio
    return results
