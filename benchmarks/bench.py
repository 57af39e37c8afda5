"""`make bench`: the running service measured against its own ceiling, with real Redis on loopback.

Prints a table and writes bench-results.json. The load generator runs in this process and reports
its own CPU use, so that a starved server cannot pass for a slow one. It asserts nothing.

Besides commands alone, it measures tables followed by push (benchmarks/follow.py): every seat on
its own SSE stream, moving when its stream shows its turn; how many streams one worker holds while
its tables play slowly, seats' and spectators' (benchmarks/crowd.py); and what a lobby page costs
with 100,000 tables (benchmarks/lobby.py). `--only commands|follow|crowd|lobby` runs one alone.
`--only attacks` runs the attacks of docs/security.md instead (benchmarks/attacks.py, which
`make bench-attacks` runs with its own options: `--before CHECKOUT` compares two codes).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import uvloop

from kronikas.adapters.embedded_redis import EmbeddedRedis, free_port

ROOT = Path(__file__).resolve().parent.parent
CONNECTIONS = 32
_decode = msgspec.json.decode
_encode = msgspec.json.encode


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


def cut_answer(buffer: bytearray) -> tuple[int, bytes] | None:
    """The status and body of the first whole HTTP/1.1 answer in `buffer`, cut out of it; None
    while it has not all arrived (answers here always carry Content-Length)."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(buffer[:end]).lower()
    at = head.find(b"content-length:")
    stop = head.find(b"\r\n", at)
    length = int(head[at + 15 : stop if stop >= 0 else None]) if at >= 0 else 0
    if len(buffer) < end + 4 + length:
        return None
    body = bytes(buffer[end + 4 : end + 4 + length])
    del buffer[: end + 4 + length]
    return int(head[9:12]), body


class Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: just enough client to go fast.

    A protocol rather than a stream pair: the answer is cut out of the bytes as they arrive,
    with no reader task in between, so that the generator spends as little of the machine as it
    can (it shares the cores with the server and Redis).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport
        self.buffer = bytearray()
        self.answer: asyncio.Future[tuple[int, bytes]] | None = None

    async def open(self) -> Connection:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_connection(lambda: self, "127.0.0.1", self.port)
        return self

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.answer is None or (cut := cut_answer(self.buffer)) is None:
            return
        answer, self.answer = self.answer, None
        answer.set_result(cut)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionResetError("the service closed"))

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        answer: msgspec.json.Decoder[Any] | None = None,
    ) -> tuple[int, Any]:
        """One request; the answer decoded by `answer` (only the fields the script reads)."""
        payload = b"" if body is None else _encode(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if payload:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + payload)
        status, data = await self.answer
        if not data:
            return status, None
        if status >= 400 or answer is None:
            return status, _decode(data)
        return status, answer.decode(data)

    def close(self) -> None:
        self.transport.close()


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


# -- orchestration -------------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """CPU time a process and its live children have used so far (Linux /proc; 0 where there
    is none). With `WORKERS=2` the service's process is the supervisor and the workers its
    children."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(int(child)) for child in children)


def cores_busy() -> tuple[float, float]:
    """Busy and total CPU time of the whole machine so far, in clock ticks (Linux /proc/stat)."""
    try:
        ticks = [int(t) for t in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except OSError:
        return 0.0, 0.0
    idle = ticks[3] + ticks[4]  # idle and iowait
    return float(sum(ticks) - idle), float(sum(ticks))


class Service:
    def __init__(
        self, redis_url: str, workers: int, source: Path = ROOT, ws: str | None = None
    ) -> None:
        """The service of the checkout at `source` (this one unless told); `ws`, its
        WebSocket implementation (`SOCKET_IMPLEMENTATION`), when not the default."""
        self.port = free_port()
        env = os.environ | {
            "REDIS_URL": redis_url,
            "PORT": str(self.port),
            "WORKERS": str(workers),
            "LOG_LEVEL": "WARNING",
            "RATE_LIMIT_PER_S": "100000",
            "RATE_LIMIT_BURST": "100000",
            "OPEN_LIMIT_PER_MIN": "1000000",
            # The crowd opens 6,000 streams from this one address, on one worker.
            "READ_LIMIT_PER_S": "1000000",
            "READ_LIMIT_BURST": "1000000",
            "ADDRESS_LIMIT_PER_S": "1000000",
            "ADDRESS_LIMIT_BURST": "1000000",
            "STREAMS_PER_TOKEN": "1000000",
            "STREAMS_PER_ADDRESS": "1000000",
            "MAX_CONNECTIONS": "1000000",
            "CONNECTIONS_PER_ADDRESS": "1000000",
            "KRONIKAS_APP": "benchmarks.app:create_bench_app",
        }
        if ws is not None:
            env["SOCKET_IMPLEMENTATION"] = ws
        if source != ROOT:  # another checkout's code and bench app, ahead of the installed one
            paths = [source / "services" / "kronikas" / "src", source]
            env["PYTHONPATH"] = os.pathsep.join(str(path) for path in paths)
        self.log = Path(tempfile.gettempdir()) / f"kronikas-bench-{self.port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kronikas.serve"], env=env, cwd=source,
                stdout=log, stderr=subprocess.STDOUT,
            )  # fmt: skip

    async def ready(self) -> None:
        for _ in range(300):
            try:
                conn = await Connection(self.port).open()
                status, _ = await conn.request("GET", "/v1/ready")
                conn.close()
                if status == 200:
                    return
            except OSError:
                pass
            await asyncio.sleep(0.1)
        raise RuntimeError(f"the service did not start: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(20)


@dataclass
class Commands:
    """The scripted tables' phase: its rate, latencies, and the CPU each party spent."""

    rate: float
    load: Load
    generator_cpu: float
    worker_cpu_s: float
    redis_cpu_s: float
    cores_busy: float
    """The share of all the machine's cores that were busy, whoever used them."""


async def commands(service: Service, redis_pid: int, seconds: float) -> Commands:
    kinds = iter(["cheat", "thirty_one"] * 10_000)
    server0, redis0 = cpu_seconds(service.process.pid), cpu_seconds(redis_pid)
    busy0, all0 = cores_busy()
    rate, load, cpu = await drive(service.port, seconds, tables_worker(kinds.__next__))
    busy1, all1 = cores_busy()
    return Commands(
        rate,
        load,
        cpu,
        cpu_seconds(service.process.pid) - server0,
        cpu_seconds(redis_pid) - redis0,
        (busy1 - busy0) / (all1 - all0) if all1 > all0 else 0.0,
    )


def _costs(phases: list[Commands], seconds: float) -> tuple[float, float, float]:
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
    phases: list[Commands] = []
    twos: list[Commands] = []
    half = seconds / 2
    for _ in range(2):
        rate, _, cpu = await drive(one.port, half, ceiling_worker)
        ceilings.append((rate, cpu))
        phases.append(await commands(one, redis_pid, half))
        twos.append(await commands(two, redis_pid, half))
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


async def measure_follow(
    one: Service, two: Service, redis: EmbeddedRedis, seconds: float
) -> dict[str, Any]:
    """The follow workload (benchmarks/follow.py): 16 tables on one worker, 16 on two, and one
    table on one worker, each over SSE and HTTP (`follow_…`) and over the seat socket
    (`socket_…`, benchmarks/socket_follow.py), in turns (two halves each, as `measure` does;
    the two transports side by side in each configuration, in turn first), and the ratios of
    the socket's figures to HTTP's."""
    from benchmarks import follow, socket_follow

    redis_pid = redis.process.pid if redis.process else 0
    stats = await follow.RedisStats(redis.port).open()
    runs: list[tuple[str, Service, int]] = [
        ("", one, follow.TABLES),
        ("_2w", two, follow.TABLES),
        ("_1t", one, 1),
    ]
    transports: list[tuple[str, Callable[[int, int], follow.Phase]]] = [
        ("follow", follow.Phase),
        ("socket", socket_follow.SocketPhase),
    ]
    phases: dict[tuple[str, str], list[follow.Followed]] = {
        (workload, suffix): [] for workload, _ in transports for suffix, _, _ in runs
    }
    try:
        for half in range(2):
            for suffix, service, tables in runs:
                for workload, kind in transports if half == 0 else transports[::-1]:
                    pid = service.process.pid
                    phases[workload, suffix].append(
                        await follow.follow(
                            service.port,
                            tables,
                            seconds / 2,
                            functools.partial(cpu_seconds, pid),
                            functools.partial(cpu_seconds, redis_pid),
                            cores_busy,
                            stats,
                            kind,
                        )
                    )
    finally:
        stats.close()
    scripted = follow.script_commands()
    results: dict[str, Any] = {}
    for (workload, suffix), done in phases.items():
        results |= follow.figures(done, suffix, scripted, workload)
    for figure, key in SOCKET_RATIOS.items():
        http = results[f"follow_{figure}"]
        results[key] = results[f"socket_{figure}"] / http if http else 0.0
    return results


SOCKET_RATIOS = {
    "service_cpu_us_per_move": "socket_service_cpu_ratio",
    "redis_calls_per_move": "socket_redis_calls_ratio",
    "redis_cpu_us_per_move": "socket_redis_cpu_ratio",
    "push_p50_ms_1t": "socket_push_p50_ratio_1t",
}
"""The issue's targets for the seat socket (issue 27): its figure over HTTP's, in one run."""


PHASES = ("commands", "follow", "crowd", "lobby")


async def run(
    seconds: float,
    quick: bool,
    only: str | None = None,
    crowd_tables: int = 500,
    crowd_spectators: int = 10,
    crowd_think_ms: float = 1500,
    lobby_tables: int = 100_000,
) -> dict[str, Any]:
    from benchmarks import crowd, engine_cheat, engine_thirty_one, lobby

    phases = {only} if only else set(PHASES)
    results: dict[str, Any] = {}
    # The crowd's service inherits this process's open-file limit: raise it before any starts.
    crowd.raise_fd_limit()
    # Redis keeps no append-only file here: its rewrites (a forked child every 10–20 s under
    # this load) would land on one phase or another at random. Production Redis should keep one.
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        redis_pid = redis.process.pid if redis.process else 0
        # Both services run throughout; the one not being driven idles. Each is stopped even
        # when the other fails to start.
        with contextlib.ExitStack() as running:
            services = []
            for workers in (1, 2) if phases & {"commands", "follow"} else ():
                service = Service(redis.url, workers)
                running.callback(service.stop)
                services.append(service)
            for service in services:
                await service.ready()
                await drive(service.port, 1.0, tables_worker(lambda: "cheat"), 8)
            if "commands" in phases:
                results |= await measure(*services, redis_pid, seconds)
            if "follow" in phases:
                results |= await measure_follow(*services, redis, seconds)
        # The crowd on a one-worker service of its own (benchmarks/crowd.py).
        if "crowd" in phases:
            results |= await crowd.measure(
                redis, seconds, crowd_tables, crowd_spectators, crowd_think_ms / 1000
            )
    if "lobby" in phases:  # on a Redis of its own, filled with `lobby_tables` tables
        results |= await lobby.figures(lobby_tables)
    if "commands" not in phases:
        return results
    results["two_worker_speedup"] = (
        results["commands_per_s_two_workers"] / results["commands_per_s"]
    )
    results["ratio"] = results["commands_per_s"] / results["ceiling_per_s"]
    engine_seconds = 1.0 if quick else min(3.0, seconds)
    results["engine_cheat_per_s"] = engine_cheat.measure(engine_seconds)
    results["engine_thirty_one_per_s"] = engine_thirty_one.measure(engine_seconds)
    return results


ROWS = [
    ("ceiling_per_s", "ceiling: bare EVALSHA append route, req/s (1 worker)", "{:,.0f}", "—"),
    ("commands_per_s", "commands over HTTP, both games, 32 conns, /s (1 worker)", "{:,.0f}", "—"),
    ("ratio", "commands / ceiling", "{:.2f}", "—"),
    ("p50_ms", "command latency p50, ms", "{:.1f}", "—"),
    ("p99_ms", "command latency p99, ms", "{:.1f}", "≤ 25"),
    ("flatness", "command cost at move ~1,000 / move ~10", "{:.2f}", "≤ 1.1"),
    ("view_per_s", "GET view, req/s (1 worker)", "{:,.0f}", "—"),
    ("commands_per_s_two_workers", "commands /s with 2 workers", "{:,.0f}", "—"),
    ("two_worker_speedup", "2 workers / 1 worker", "{:.2f}", "—"),
    ("two_worker_bound", "  at most, on the cores Redis and the generator leave", "{:.2f}", ""),
    ("two_worker_server_cpu_per_command_us", "  CPU a command costs 2 workers, µs", "{:.0f}", ""),
    ("two_worker_cores_busy", "  the machine's cores busy with 2 workers", "{:.0%}", ""),
    ("engine_cheat_per_s", "Cheat engine in-process, commands/s", "{:,.0f}", "≥ 50,000"),
    ("engine_thirty_one_per_s", "Thirty-One engine in-process, commands/s", "{:,.0f}", "≥ 50,000"),
    ("commands_generator_cpu", "load generator CPU share during commands", "{:.0%}", "< 100%"),
    ("server_cpu_per_command_us", "CPU a command costs: the worker, µs", "{:.0f}", ""),
    ("generator_cpu_per_command_us", "  the load generator, µs", "{:.0f}", ""),
    ("redis_cpu_per_command_us", "  Redis, µs", "{:.0f}", ""),
    ("cores_busy", "  the machine's cores busy with 1 worker", "{:.0%}", ""),
    ("follow_moves_per_s", "follow: 16 tables, an SSE stream a seat, moves/s", "{:,.0f}", "—"),
    ("follow_push_p50_ms", "  push delay to the other seat p50, ms", "{:.2f}", "—"),
    ("follow_push_p99_ms", "  push delay to the other seat p99, ms", "{:.2f}", "—"),
    ("follow_service_cpu_us_per_move", "  CPU a move costs the service, µs", "{:.0f}", "≤ 300"),
    ("follow_redis_cpu_us_per_move", "  CPU a move costs Redis, µs", "{:.0f}", "≤ 50"),
    ("follow_redis_calls_per_move", "  Redis calls the service makes a move", "{:.2f}", "≤ 1.5"),
    ("follow_redis_commands_per_move", "  commands Redis runs a move", "{:.1f}", "—"),
    ("follow_generator_cpu_us_per_move", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("follow_generator_cpu_share", "  the generator's share of a core", "{:.0%}", ""),
    ("follow_cores_busy", "  the machine's cores busy", "{:.0%}", ""),
    ("follow_others_cores", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("follow_moves_per_s_2w", "follow, 2 workers: moves/s", "{:,.0f}", "all there is"),
    ("follow_push_p50_ms_2w", "  push delay p50, ms", "{:.2f}", "—"),
    ("follow_push_p99_ms_2w", "  push delay p99, ms", "{:.2f}", "—"),
    ("follow_service_cpu_us_per_move_2w", "  CPU a move costs the service, µs", "{:.0f}", "—"),
    ("follow_redis_cpu_us_per_move_2w", "  CPU a move costs Redis, µs", "{:.0f}", "—"),
    ("follow_redis_calls_per_move_2w", "  Redis calls the service makes a move", "{:.2f}", "—"),
    ("follow_redis_commands_per_move_2w", "  commands Redis runs a move", "{:.1f}", "—"),
    ("follow_generator_cpu_us_per_move_2w", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("follow_generator_cpu_share_2w", "  the generator's share of a core", "{:.0%}", ""),
    ("follow_cores_busy_2w", "  the machine's cores busy", "{:.0%}", ""),
    ("follow_others_cores_2w", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("follow_moves_per_s_1t", "follow, 1 table (1 worker): moves/s", "{:,.0f}", "—"),
    ("follow_push_p50_ms_1t", "  push delay p50, ms", "{:.2f}", "≤ 0.4"),
    ("follow_push_p99_ms_1t", "  push delay p99, ms", "{:.2f}", "≤ 1.5"),
    ("follow_service_cpu_us_per_move_1t", "  CPU a move costs the service, µs", "{:.0f}", "—"),
    ("follow_redis_cpu_us_per_move_1t", "  CPU a move costs Redis, µs", "{:.0f}", "—"),
    ("follow_redis_calls_per_move_1t", "  Redis calls the service makes a move", "{:.2f}", "—"),
    ("follow_redis_commands_per_move_1t", "  commands Redis runs a move", "{:.1f}", "—"),
    ("follow_generator_cpu_us_per_move_1t", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("follow_others_cores_1t", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("socket_moves_per_s", "socket: 16 tables, a seat socket a seat, moves/s", "{:,.0f}", "—"),
    ("socket_push_p50_ms", "  push delay to the other seat p50, ms", "{:.2f}", "—"),
    ("socket_push_p99_ms", "  push delay to the other seat p99, ms", "{:.2f}", "—"),
    ("socket_service_cpu_us_per_move", "  CPU a move costs the service, µs", "{:.0f}", "—"),
    ("socket_service_cpu_ratio", "    socket / HTTP (follow, same run)", "{:.2f}", "≤ 0.55"),
    ("socket_redis_cpu_us_per_move", "  CPU a move costs Redis, µs", "{:.0f}", "—"),
    ("socket_redis_cpu_ratio", "    socket / HTTP", "{:.2f}", "≤ 1.0"),
    ("socket_redis_calls_per_move", "  Redis calls the service makes a move", "{:.2f}", "—"),
    ("socket_redis_calls_ratio", "    socket / HTTP", "{:.2f}", "≤ 1.0"),
    ("socket_redis_commands_per_move", "  commands Redis runs a move", "{:.1f}", "—"),
    ("socket_generator_cpu_us_per_move", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("socket_generator_cpu_share", "  the generator's share of a core", "{:.0%}", ""),
    ("socket_cores_busy", "  the machine's cores busy", "{:.0%}", ""),
    ("socket_others_cores", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("socket_moves_per_s_2w", "socket, 2 workers: moves/s", "{:,.0f}", "—"),
    ("socket_push_p50_ms_2w", "  push delay p50, ms", "{:.2f}", "—"),
    ("socket_push_p99_ms_2w", "  push delay p99, ms", "{:.2f}", "—"),
    ("socket_service_cpu_us_per_move_2w", "  CPU a move costs the service, µs", "{:.0f}", "—"),
    ("socket_redis_cpu_us_per_move_2w", "  CPU a move costs Redis, µs", "{:.0f}", "—"),
    ("socket_redis_calls_per_move_2w", "  Redis calls the service makes a move", "{:.2f}", "—"),
    ("socket_redis_commands_per_move_2w", "  commands Redis runs a move", "{:.1f}", "—"),
    ("socket_generator_cpu_us_per_move_2w", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("socket_generator_cpu_share_2w", "  the generator's share of a core", "{:.0%}", ""),
    ("socket_cores_busy_2w", "  the machine's cores busy", "{:.0%}", ""),
    ("socket_others_cores_2w", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("socket_moves_per_s_1t", "socket, 1 table (1 worker): moves/s", "{:,.0f}", "—"),
    ("socket_push_p50_ms_1t", "  push delay p50, ms", "{:.2f}", "—"),
    ("socket_push_p50_ratio_1t", "    socket / HTTP", "{:.2f}", "≤ 0.7"),
    ("socket_push_p99_ms_1t", "  push delay p99, ms", "{:.2f}", "—"),
    ("socket_service_cpu_us_per_move_1t", "  CPU a move costs the service, µs", "{:.0f}", "—"),
    ("socket_redis_cpu_us_per_move_1t", "  CPU a move costs Redis, µs", "{:.0f}", "—"),
    ("socket_redis_calls_per_move_1t", "  Redis calls the service makes a move", "{:.2f}", "—"),
    ("socket_redis_commands_per_move_1t", "  commands Redis runs a move", "{:.1f}", "—"),
    ("socket_generator_cpu_us_per_move_1t", "  CPU a move costs the generator, µs", "{:.0f}", ""),
    ("socket_others_cores_1t", "  cores other programs took meanwhile", "{:.2f}", "~0"),
    ("crowd_streams", "crowd: streams one worker holds (seats' and spectators')", "{:,.0f}", "—"),
    ("crowd_tables", "  tables, two seats each, played by their seats", "{:,.0f}", ""),
    ("crowd_spectators_per_table", "  spectators' streams on each table", "{:,.0f}", ""),
    ("crowd_think_ms", "  a seat's mean think time before it moves, ms", "{:,.0f}", ""),
    ("crowd_open_s", "  seconds to deal the tables and open their streams", "{:.1f}", ""),
    ("crowd_rss_mib_idle", "  the worker's memory (RSS) before the streams, MiB", "{:.1f}", ""),
    ("crowd_rss_mib_streams", "  with the streams open, while they play, MiB", "{:.1f}", ""),
    ("crowd_kib_per_stream", "  memory a stream costs, KiB", "{:.1f}", "—"),
    ("crowd_moves_per_s", "  moves/s", "{:,.0f}", ""),
    ("crowd_push_p50_ms", "  push delay to the other seat p50, ms", "{:.2f}", "—"),
    ("crowd_push_p99_ms", "  push delay to the other seat p99, ms", "{:.2f}", "—"),
    ("crowd_spectator_push_p50_ms", "  push delay to a spectator p50, ms", "{:.2f}", "—"),
    ("crowd_spectator_push_p99_ms", "  push delay to a spectator p99, ms", "{:.2f}", "—"),
    ("crowd_service_cpu_share", "  the worker's share of a core", "{:.0%}", ""),
    ("crowd_redis_cpu_share", "  Redis's share of a core", "{:.0%}", ""),
    ("crowd_redis_calls_per_move", "  Redis calls the service makes a move", "{:.2f}", ""),
    ("crowd_generator_cpu_share", "  the generator's share of a core", "{:.0%}", ""),
    ("lobby_tables", "lobby: tables behind it, both kinds, every status", "{:,.0f}", ""),
    ("lobby_page_ms_all_first", "  a page of 20 of every table, ms", "{:.2f}", "—"),
    ("lobby_page_ms_all_offset_1000", "  the same at offset 1,000, ms", "{:.2f}", "—"),
    (
        "lobby_page_ms_open_thirty_one_first",
        "  a page of open Thirty-One tables, ms",
        "{:.2f}",
        "—",
    ),
    ("lobby_page_ms_open_thirty_one_offset_1000", "  the same at offset 1,000, ms", "{:.2f}", "—"),
    ("lobby_page_ms_open_thirty_one_past_end", "  the same past the end, ms", "{:.2f}", "—"),
    (
        "lobby_commands_per_page_open_thirty_one_offset_1000",
        "  Redis commands for that page at offset 1,000",
        "{:.0f}",
        "—",
    ),
    (
        "lobby_old_page_ms_open_thirty_one_offset_1000",
        "  the lobby before (one set, filtered in Python), ms",
        "{:.2f}",
        "",
    ),
    ("lobby_write_ms_create", "  creating a table, with its lobby entry, ms", "{:.2f}", ""),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0, help="length of each phase")
    parser.add_argument("--quick", action="store_true", help="3 s phases, for a smoke run")
    parser.add_argument("--output", default="bench-results.json")
    parser.add_argument(
        "--only",
        choices=(*PHASES, "attacks"),
        help="only the commands (ceiling, commands, reads, flatness, engines), only follow, only "
        "the crowd (streams one process holds) or only the lobby; `attacks`: docs/security.md's",
    )
    parser.add_argument("--crowd-tables", type=int, default=500, help="tables in the crowd")
    parser.add_argument(
        "--crowd-spectators", type=int, default=10, help="spectators' streams on each table"
    )
    parser.add_argument(
        "--crowd-think-ms",
        type=float,
        default=1500,
        help="a crowd's seat's mean think time before it moves (sets the crowd's moves/s)",
    )
    parser.add_argument(
        "--lobby-tables", type=int, default=100_000, help="tables behind the lobby's pages"
    )
    args = parser.parse_args()
    if args.only == "attacks":
        from benchmarks import attacks

        result = attacks.summary(asyncio.run(attacks.measure(attacks.ATTACKS, None, 1)))
        print(attacks.table(result))
        Path(args.output).write_text(json.dumps({"attacks": result}, indent=2) + "\n")
        print(f"wrote {args.output}")
        return 0
    seconds = 3.0 if args.quick else args.seconds
    print(f"measuring on {os.cpu_count()} cores, {seconds:.0f} s a phase …", flush=True)
    # The load generator runs on uvloop, as the service does: it spends less of the machine.
    results = uvloop.run(
        run(
            seconds,
            args.quick,
            args.only,
            args.crowd_tables,
            args.crowd_spectators,
            args.crowd_think_ms,
            args.lobby_tables,
        )
    )
    width = max(len(r[1]) for r in ROWS)
    for key, label, fmt, target in ROWS:
        if key in results:
            print(f"  {label:<{width}}  {fmt.format(results[key]):>10}  {target}")
    for workload in ("follow", "socket"):
        for suffix in ("", "_2w", "_1t"):
            if f"{workload}_redis_per_move{suffix}" in results:
                each = results[f"{workload}_redis_per_move{suffix}"]
                print(
                    f"  {workload}{suffix or ' (16 tables, 1 worker)'}: Redis commands a move: "
                    + ", ".join(f"{name} {n:g}" for name, n in each.items())
                )
            problems = results.get(f"{workload}_problems{suffix}")
            if problems:
                print(f"  {workload}{suffix}: refused or lost: {problems}")
    if results.get("crowd_problems"):
        print(f"  crowd: refused or lost: {results['crowd_problems']}")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  (load generator CPU in all: {usage.ru_utime + usage.ru_stime:.1f} s)")
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
