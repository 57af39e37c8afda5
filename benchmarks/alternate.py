"""A figure, not a test: what a change does, on a machine whose speed drifts, by taking turns.

Two checkouts of the project (`--a` and `--b`, each a directory holding `services/` and
`benchmarks/`, such as a `git worktree` of the commit before a change) serve side by side, one
worker each, against one bundled Redis. The follow workload (benchmarks/follow.py) plays
`--tables` tables on each in turn, `--seconds` at a time, for `--rounds` rounds (A then B, then
B then A); `--workload socket` plays the same tables over the seat socket
(benchmarks/socket_follow.py); `--workload commands` drives commands alone instead (`make
bench`'s commands phase: scripted Cheat and Thirty-One tables on 32 connections, no followers).

Minutes apart, this machine's speed can differ by half; seconds apart, far less: the
pairs compare where separate runs cannot (docs/performance.md).

    uv run python -m benchmarks.alternate --a ../before --b . [--rounds 30] [--seconds 1.5]
        [--tables 1] [--workload follow|socket|commands]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import statistics
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path

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
    delays: list[float] = field(default_factory=list)

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
        self.delays.extend(phase.delays)

    def line(self) -> str:
        pooled = sorted(self.delays) or [0.0]
        return (
            f"{self.name}: {self.latency} p50 {pooled[len(pooled) // 2] * 1000:.3f} ms, "
            f"p99 {pooled[int(len(pooled) * 0.99)] * 1000:.3f} ms (all phases' moves); "
            "medians of the phases: service CPU a move "
            f"{statistics.median(self.service_us):.0f} µs, "
            f"Redis CPU a move {statistics.median(self.redis_us):.1f} µs, "
            f"{statistics.median(self.moves_per_s):,.0f} moves/s"
        )


def ratio(b: list[float], a: list[float]) -> float:
    """The median of the pairs' B / A."""
    return statistics.median(y / x for x, y in zip(a, b, strict=True) if x)


@contextlib.asynccontextmanager
async def side_by_side(
    a: Path, b: Path
) -> AsyncIterator[tuple[EmbeddedRedis, dict[str, Service], follow.RedisStats, Path]]:
    """Checkouts `a` and `b` served side by side (as "A" and "B"), one worker each, warmed up,
    on one bundled Redis that keeps no append-only file; a connection for Redis's counts; and a
    scratch folder."""
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        trees = {"A": a, "B": b}
        services = {name: Service(redis.url, 1, tree.resolve()) for name, tree in trees.items()}
        try:
            for service in services.values():
                await service.ready()
                await commands.warm_up(service.port)
            stats = await follow.RedisStats(redis.port).open()
            try:
                yield redis, services, stats, Path(data)
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


async def alternate(
    a: Path, b: Path, rounds: int, seconds: float, tables: int, workload: str = "follow"
) -> str:
    latency = "command latency" if workload == "commands" else "push delay"
    sides = {name: Side(name, latency) for name in ("A", "B")}
    async with side_by_side(a, b) as (redis, services, stats, _):
        redis_pid = redis.process.pid if redis.process else 0
        for _, name in turns(rounds):
            service = services[name]
            if workload == "commands":
                done = await commands.phase(service, redis_pid, seconds)
                sides[name].add_commands(done, seconds)
            else:
                sides[name].add(await play(service, redis, stats, tables, seconds, workload))
    one, two = sides["A"], sides["B"]
    faster = sum(y < x for x, y in zip(one.p50_ms, two.p50_ms, strict=True))
    return "\n".join(
        [
            f"A = {a}, B = {b}: {rounds} rounds of {seconds:g} s, "
            + ("commands alone" if workload == "commands" else f"{tables} table(s) each")
            + (" over the seat socket" if workload == "socket" else ""),
            one.line(),
            two.line(),
            f"B / A, the median of the pairs: {one.latency} p50 "
            f"{ratio(two.p50_ms, one.p50_ms):.3f} "
            f"(B lower in {faster} pairs of {rounds}), service CPU a move "
            f"{ratio(two.service_us, one.service_us):.3f}, Redis CPU a move "
            f"{ratio(two.redis_us, one.redis_us):.3f}",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="the checkout to compare against")
    parser.add_argument("--b", type=Path, default=Path("."), help="the checkout compared")
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--tables", type=int, default=1)
    parser.add_argument("--workload", choices=["follow", "socket", "commands"], default="follow")
    args = parser.parse_args()
    print(
        asyncio.run(
            alternate(args.a, args.b, args.rounds, args.seconds, args.tables, args.workload)
        )
    )


if __name__ == "__main__":
    main()
