"""A figure, not a test: what a change does, on a machine whose speed drifts, by taking turns.

Two checkouts of the project (`--a` and `--b`, each a directory holding `services/` and
`benchmarks/`, such as a `git worktree` of the commit before a change) serve side by side, one
worker each, against one bundled Redis. The follow workload (benchmarks/follow.py) plays
`--tables` tables on each in turn, `--seconds` at a time, for `--rounds` rounds (A then B, then
B then A); `--workload socket` plays the same tables over the seat socket
(benchmarks/socket_follow.py); `--workload commands` drives commands alone instead (`make
bench`'s commands phase: scripted Cheat and Thirty-One tables on 32 connections, no followers).

The two sides may be one checkout in two environments instead: `--a-env NAME=VALUE` and
`--b-env NAME=VALUE` (each as often as needed) set what each side's service is started with,
and `--replica` gives the bench's Redis one replica (the bundled redis-server too), so that
`WRITE_REPLICAS=1` has one to wait for. Both sides then share the replica: what differs is the
wait, not the replication. `make bench` takes two such figures (its phase `costs`, `figures`).

Minutes apart, this machine's speed can differ by half; seconds apart, far less: the
pairs compare where separate runs cannot (docs/performance.md).

    uv run python -m benchmarks.alternate --a ../before --b . [--rounds 30] [--seconds 1.5]
        [--tables 1] [--workload follow|socket|commands]
    uv run python -m benchmarks.alternate --a-env WRITE_REPLICAS=0 --b-env WRITE_REPLICAS=1 \
        --replica [--rounds 30] [--seconds 1.5] [--tables 1]
    uv run python -m benchmarks.alternate --a-env METRICS=0 --b-env METRICS=1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import statistics
import tempfile
import time
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis import Redis

from benchmarks import commands, follow, socket_follow
from benchmarks.served import Service, cores_busy, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis


@dataclass
class Side:
    """One checkout's phases: each phase's push p50, CPU a move, and every delay."""

    name: str
    latency: str = "push delay"
    """What a phase's delays are: a follower's push delay, or a command's answer."""
    p50_ms: list[float] = field(default_factory=list)
    service_us: list[float] = field(default_factory=list)
    redis_us: list[float] = field(default_factory=list)
    moves_per_s: list[float] = field(default_factory=list)
    redis_calls: list[float] = field(default_factory=list)
    """Each phase's Redis calls the service made a move (the follow workloads)."""
    delays: list[float] = field(default_factory=list)
    problems: int = 0
    """Moves refused and streams or sockets lost (the follow workloads)."""

    def add_commands(self, phase: commands.Measured, seconds: float) -> None:
        """A phase of commands alone: the CPU each party spent a command, their latencies."""
        if not phase.load.latencies:
            raise SystemExit(
                f"no command was answered in a {seconds:g} s phase: give more --seconds"
            )
        done = phase.rate * seconds
        self.p50_ms.append(statistics.median(phase.load.latencies) * 1000)
        self.service_us.append(phase.worker_cpu_s / done * 1e6)
        self.redis_us.append(phase.redis_cpu_s / done * 1e6)
        self.moves_per_s.append(phase.rate)
        self.delays.extend(phase.load.latencies)

    def add(self, phase: follow.Followed) -> None:
        figures = follow.figures([phase], "", follow.script_commands())
        self.p50_ms.append(figures["follow_push_p50_ms"])
        self.service_us.append(figures["follow_service_cpu_us_per_move"])
        self.redis_us.append(figures["follow_redis_cpu_us_per_move"])
        self.moves_per_s.append(figures["follow_moves_per_s"])
        self.redis_calls.append(figures["follow_redis_calls_per_move"])
        self.delays.extend(phase.delays)
        self.problems += figures["follow_refused"] + figures["follow_streams_lost"]

    def p(self, share: float) -> float:
        """The delay, in ms, that `share` of all the phases' delays pooled stay under."""
        pooled = sorted(self.delays) or [0.0]
        return pooled[min(int(len(pooled) * share), len(pooled) - 1)] * 1000

    def line(self) -> str:
        calls = (
            f"Redis calls a move {statistics.median(self.redis_calls):.2f}, "
            if self.redis_calls
            else ""
        )
        refused = f", {self.problems} refused or lost" if self.redis_calls else ""
        return (
            f"{self.name}: {self.latency} p50 {self.p(0.5):.3f} ms, "
            f"p99 {self.p(0.99):.3f} ms (all phases' moves); "
            "medians of the phases: service CPU a move "
            f"{statistics.median(self.service_us):.0f} µs, "
            f"Redis CPU a move {statistics.median(self.redis_us):.1f} µs, {calls}"
            f"{statistics.median(self.moves_per_s):,.0f} moves/s{refused}"
        )


def ratio(b: list[float], a: list[float]) -> float:
    """The median of the pairs' B / A."""
    return statistics.median(y / x for x, y in zip(a, b, strict=True) if x)


def replica_of(primary: EmbeddedRedis, data: Path, timeout: float = 20.0) -> EmbeddedRedis:
    """A replica of `primary` (the bundled redis-server, keeping no append-only file either),
    started, once its first sync is done."""
    replica = EmbeddedRedis(
        data, None, "--appendonly", "no", "--replicaof", "127.0.0.1", str(primary.port)
    ).start()
    client = Redis(port=replica.port)
    try:
        deadline = time.monotonic() + timeout
        while client.info("replication").get("master_link_status") != "up":
            if time.monotonic() > deadline:
                replica.stop()
                raise RuntimeError(f"the replica did not sync in {timeout:g} s")
            time.sleep(0.05)
    finally:
        client.close()
    return replica


@contextlib.asynccontextmanager
async def side_by_side(
    a: Path,
    b: Path,
    settings: Mapping[str, Mapping[str, str]] | None = None,
    replica: bool = False,
) -> AsyncIterator[tuple[EmbeddedRedis, dict[str, Service], follow.RedisStats, Path]]:
    """Checkouts `a` and `b` served side by side (as "A" and "B"), one worker each, each with
    its `settings` (by side's name) over the bench's, warmed up, on one bundled Redis that keeps
    no append-only file (with a `replica` of its own when asked); a connection for Redis's
    counts; and a scratch folder."""
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(Path(data) / "primary", None, "--appendonly", "no") as primary,
        contextlib.ExitStack() as running,
    ):
        if replica:
            running.callback(replica_of(primary, Path(data) / "replica").stop)
        trees = {"A": a, "B": b}
        services = {
            name: Service(primary.url, 1, tree.resolve(), settings=(settings or {}).get(name))
            for name, tree in trees.items()
        }
        try:
            for service in services.values():
                await service.ready()
                await commands.warm_up(service.port)
            stats = await follow.RedisStats(primary.port).open()
            try:
                yield primary, services, stats, Path(data)
            finally:
                stats.close()
        finally:
            for service in services.values():
                service.stop()


def turns(rounds: int) -> Iterator[tuple[int, str]]:
    """Each round's sides in turn: A then B, then B then A (the machine drifts)."""
    for turn in range(rounds):
        for name in ("A", "B") if turn % 2 == 0 else ("B", "A"):
            yield turn, name


async def play(
    service: Service,
    redis: EmbeddedRedis,
    stats: follow.RedisStats,
    tables: int,
    seconds: float,
    workload: str,
    around: AbstractAsyncContextManager[object] | None = None,
) -> follow.Followed:
    """One phase of the follow workload on `service` (`workload` "socket": over the seat
    socket), with `around` entered around its counted play (`follow.follow`)."""
    return await follow.follow(
        service.port,
        tables,
        seconds,
        functools.partial(cpu_seconds, service.process.pid),
        functools.partial(cpu_seconds, redis.process.pid if redis.process else 0),
        cores_busy,
        stats,
        socket_follow.SocketPhase if workload == "socket" else follow.Phase,
        around,
    )


async def measure(
    a: Path,
    b: Path,
    rounds: int,
    seconds: float,
    tables: int,
    workload: str = "follow",
    settings: Mapping[str, Mapping[str, str]] | None = None,
    replica: bool = False,
) -> dict[str, Side]:
    """Both sides' phases, taken in turns (`side_by_side` says what the arguments are)."""
    latency = "command latency" if workload == "commands" else "push delay"
    sides = {name: Side(name, latency) for name in ("A", "B")}
    async with side_by_side(a, b, settings, replica) as (redis, services, stats, _):
        redis_pid = redis.process.pid if redis.process else 0
        for _, name in turns(rounds):
            service = services[name]
            if workload == "commands":
                done = await commands.phase(service, redis_pid, seconds)
                sides[name].add_commands(done, seconds)
            else:
                sides[name].add(await play(service, redis, stats, tables, seconds, workload))
    return sides


def described(tree: Path, settings: Mapping[str, str] | None) -> str:
    """A side as the report names it: its checkout, and its settings when it has its own."""
    own = " ".join(f"{name}={value}" for name, value in (settings or {}).items())
    return f"{tree} ({own})" if own else str(tree)


def report(
    sides: dict[str, Side],
    a: str,
    b: str,
    rounds: int,
    seconds: float,
    what: str,
) -> str:
    """The two sides' lines, and the pairs compared (B / A)."""
    one, two = sides["A"], sides["B"]
    faster = sum(y < x for x, y in zip(one.p50_ms, two.p50_ms, strict=True))
    calls = (
        f", Redis calls a move {ratio(two.redis_calls, one.redis_calls):.3f}"
        if one.redis_calls
        else ""
    )
    return "\n".join(
        [
            f"A = {a}, B = {b}: {rounds} rounds of {seconds:g} s, {what}",
            one.line(),
            two.line(),
            f"B / A, the median of the pairs: {one.latency} p50 "
            f"{ratio(two.p50_ms, one.p50_ms):.3f} "
            f"(B lower in {faster} pairs of {rounds}), service CPU a move "
            f"{ratio(two.service_us, one.service_us):.3f}, Redis CPU a move "
            f"{ratio(two.redis_us, one.redis_us):.3f}, moves/s "
            f"{ratio(two.moves_per_s, one.moves_per_s):.3f}{calls}; "
            f"{one.latency} p99, all phases' moves pooled: "
            f"{two.p(0.99) / (one.p(0.99) or 1):.3f}",
        ]
    )


async def alternate(
    a: Path,
    b: Path,
    rounds: int,
    seconds: float,
    tables: int,
    workload: str = "follow",
    settings: Mapping[str, Mapping[str, str]] | None = None,
    replica: bool = False,
) -> str:
    sides = await measure(a, b, rounds, seconds, tables, workload, settings, replica)
    what = ("commands alone" if workload == "commands" else f"{tables} table(s) each") + (
        " over the seat socket" if workload == "socket" else ""
    )
    if replica:
        what += ", the bench's Redis with one replica"
    settings = settings or {}
    return report(
        sides,
        described(a, settings.get("A")),
        described(b, settings.get("B")),
        rounds,
        seconds,
        what,
    )


async def figures(
    prefix: str,
    off: Mapping[str, str],
    on: Mapping[str, str],
    rounds: int,
    seconds: float,
    tables: int,
    replica: bool = False,
) -> dict[str, Any]:
    """`make bench`'s keys for this checkout served with `off` and with `on` in turns, the
    follow workload on `tables` tables: `{prefix}_{figure}_off`, `..._on`, and their ratio
    (`{prefix}_{figure}_ratio`: the median of the pairs' on / off; for p99, of the pooled
    p99s), and `{prefix}_problems`: moves refused, streams lost."""
    here = Path(".")
    settings = {"A": off, "B": on}
    sides = await measure(here, here, rounds, seconds, tables, "follow", settings, replica)
    a, b = sides["A"], sides["B"]
    results: dict[str, Any] = {}
    for figure, values in (
        ("moves_per_s", lambda s: s.moves_per_s),
        ("service_cpu_us_per_move", lambda s: s.service_us),
        ("redis_cpu_us_per_move", lambda s: s.redis_us),
        ("redis_calls_per_move", lambda s: s.redis_calls),
        ("push_p50_ms", lambda s: s.p50_ms),
    ):
        results[f"{prefix}_{figure}_off"] = statistics.median(values(a))
        results[f"{prefix}_{figure}_on"] = statistics.median(values(b))
        results[f"{prefix}_{figure}_ratio"] = ratio(values(b), values(a))
    results[f"{prefix}_push_p99_ms_off"] = a.p(0.99)
    results[f"{prefix}_push_p99_ms_on"] = b.p(0.99)
    results[f"{prefix}_push_p99_ms_ratio"] = b.p(0.99) / (a.p(0.99) or 1)
    results[f"{prefix}_problems"] = a.problems + b.problems
    return results


def setting(text: str) -> tuple[str, str]:
    """`NAME=VALUE`, as `--a-env` and `--b-env` take it."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"not NAME=VALUE: {text!r}")
    return name, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--a", type=Path, default=Path("."), help="the checkout to compare against (this one)"
    )
    parser.add_argument("--b", type=Path, default=Path("."), help="the checkout compared")
    for side in ("a", "b"):
        parser.add_argument(
            f"--{side}-env",
            type=setting,
            action="append",
            default=[],
            metavar="NAME=VALUE",
            help=f"a setting of side {side.upper()}'s service (as often as needed)",
        )
    parser.add_argument("--replica", action="store_true", help="give the bench's Redis one replica")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--workload", choices=["follow", "socket", "commands"], default="follow")
    args = parser.parse_args()
    settings = {"A": dict(args.a_env), "B": dict(args.b_env)}
    print(
        asyncio.run(
            alternate(
                args.a,
                args.b,
                args.rounds,
                args.seconds,
                args.tables,
                args.workload,
                settings,
                args.replica,
            )
        )
    )


if __name__ == "__main__":
    main()
