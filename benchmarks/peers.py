"""A figure, not a test: the follow workload beside boardgame.io, in one sitting (bench-peers).

boardgame.io 0.50 (benchmarks/peers/boardgameio/: its own `Server`, in memory,
`NODE_ENV=production`) serves a two-seat game of one card a turn; this checkout's service
(`benchmarks.served.Service`, every limit lifted, one worker and two) serves the same tables as
Cheat, on a bundled redis-server that keeps no append-only file (as benchmarks/alternate.py; `--aof`
keeps one, written every second, as the service's own embedded Redis does). One Node load
generator (benchmarks/peers/generator.js) plays each side in turn: bgio with its own socket.io
client, ours over the seat socket (`ws`) and over HTTP+SSE (`undici`), the same moves as
benchmarks/follow.py and socket_follow.py. A round plays every side once at each table count, the
order rotating from round to round; the report gives each side's medians over the rounds, and
ours / bgio as the median of the rounds' ratios. benchmarks/peers/README.md says how each side is
measured and what is not equal.

    uv run python -m benchmarks.peers [--rounds 4] [--seconds 4] [--tables 16 --tables 1]
        [--workers 1 --workers 2] [--transport socket --transport http]
        [--pin split|generator|none] [--replica] [--aof] [--table-rounds 100]
        [--out bench-peers-results.json]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.alternate import replica_of
from benchmarks.commands import warm_up
from benchmarks.served import ROOT, Service, cores_busy, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis

PEERS = ROOT / "benchmarks" / "peers"
FIGURES = ("moves_per_s", "server_cpu_us_per_move", "push_p50_ms", "push_p99_ms")
"""The figures compared, ours / bgio."""


# -- the servers ---------------------------------------------------------------------------------


@dataclass
class Target:
    """A server one phase plays on: how the generator reaches it, and the CPU it has spent."""

    name: str
    """`bgio`, `socket` or `http`: the generator's `--target`."""
    workers: int
    port: int
    cpu: Callable[[], tuple[float, float]]
    """CPU seconds so far: (the server's own processes, its Redis)."""
    pids: Callable[[], list[int]] = list
    """The server's processes and its Redis's, for their resident memory."""

    @property
    def label(self) -> str:
        if self.name == "bgio":
            return "bgio (one process)"
        return f"ours {self.name}, {self.workers} worker{'s' if self.workers > 1 else ''}"


class Bgio:
    """boardgame.io's server (benchmarks/peers/boardgameio/server.js) on a port the system
    picks as it listens (its ready line says which): a port chosen ahead could be taken by
    another program first."""

    def __init__(self, env: dict[str, str]) -> None:
        self.process = subprocess.Popen(
            ["node", "boardgameio/server.js", "0"],
            cwd=PEERS,
            env=os.environ | {"NODE_ENV": "production"} | env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line.startswith("ready"):
            self.stop()
            raise RuntimeError(f"boardgame.io did not start: {line}{self.process.stdout.read()}")
        self.port = int(line.split()[1])

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def pinning(how: str) -> tuple[set[int] | None, str]:
    """Where the generator runs (None: anywhere), having moved this process (and so the servers
    it starts next) off its core when `how` is "split"; and a sentence saying so."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if how == "none":
        return None, "nothing pinned"
    if len(cores) < 2:
        return None, f"nothing pinned: {len(cores) or 'an unknown number of'} core(s) here"
    generator = {cores[-1]}
    if how == "generator":
        return generator, f"the generator pinned to core {cores[-1]}, the servers anywhere"
    os.sched_setaffinity(0, set(cores[:-1]))
    return generator, (
        f"the generator pinned to core {cores[-1]}, the servers to core(s) "
        f"{','.join(map(str, cores[:-1]))}"
    )


@contextlib.asynccontextmanager
async def servers(
    workers: list[int],
    transports: list[str],
    replica: bool,
    aof: bool,
    bgio_env: dict[str, str],
) -> AsyncIterator[list[Target]]:
    """bgio, and our service with each count of `workers` (on one bundled Redis, with a replica
    when asked and `WRITE_REPLICAS=1` then), started and warmed up: the targets, ours over each
    of `transports`."""
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(
            Path(data) / "primary", None, *(() if aof else ("--appendonly", "no"))
        ) as redis,
        contextlib.ExitStack() as running,
    ):
        store = [redis.process.pid if redis.process else 0]
        if replica:
            copy = replica_of(redis, Path(data) / "replica")
            running.callback(copy.stop)
            store.append(copy.process.pid if copy.process else 0)
        settings = {"WRITE_REPLICAS": "1"} if replica else {}
        bgio = Bgio(bgio_env)
        running.callback(bgio.stop)
        services = {n: Service(redis.url, n, settings=settings) for n in workers}
        for service in services.values():
            running.callback(service.stop)
        for service in services.values():
            await service.ready()
            await warm_up(service.port)

        def ours(pid: int) -> Callable[[], tuple[float, float]]:
            return lambda: (cpu_seconds(pid), sum(cpu_seconds(p) for p in store))

        def family(pid: int) -> Callable[[], list[int]]:
            return lambda: [*processes(pid), *store]

        targets = [
            Target(
                "bgio",
                1,
                bgio.port,
                lambda: (cpu_seconds(bgio.process.pid), 0.0),
                lambda: [bgio.process.pid],
            )
        ]
        for n, service in services.items():
            for name in transports:
                pid = service.process.pid
                targets.append(Target(name, n, service.port, ours(pid), family(pid)))
        yield targets


def processes(pid: int) -> list[int]:
    """A process and its live children, all the way down (Linux /proc)."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return []
    return [pid, *(p for child in children for p in processes(int(child)))]


def resident_mb(pids: list[int]) -> float:
    """The processes' resident memory together, in MiB (Linux /proc; 0 for one gone)."""
    total = 0
    for pid in pids:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            continue
        total += next(
            (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0
        )
    return total / 1024


# -- one phase -----------------------------------------------------------------------------------


async def phase(
    target: Target, tables: int, seconds: float, table_rounds: int, generator_cores: set[int] | None
) -> dict[str, Any]:
    """`tables` tables played on `target` for `seconds` by a fresh generator: its figures, and
    the servers' CPU around the play."""
    command = ["node", "generator.js", "--target", target.name, "--port", str(target.port)]
    command += ["--tables", str(tables), "--seconds", str(seconds), "--rounds", str(table_rounds)]
    process = await asyncio.create_subprocess_exec(
        *command,
        cwd=PEERS,
        env=os.environ | {"NODE_ENV": "production"},
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        preexec_fn=(lambda: os.sched_setaffinity(0, generator_cores)) if generator_cores else None,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        async with asyncio.timeout(60):
            said = await process.stdout.readline()
        if said.strip() != b"ready":
            raise RuntimeError(f"the generator said {said!r} (its errors above)")
        own0, store0, busy0 = *target.cpu(), cores_busy()
        process.stdin.write(b"go\n")
        async with asyncio.timeout(seconds + 60):
            said = await process.stdout.readline()
        own1, store1, busy1 = *target.cpu(), cores_busy()
        found: dict[str, Any] = json.loads(said)
        process.stdin.write(b"close\n")
        await process.stdin.drain()
        async with asyncio.timeout(15):
            await process.wait()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    moves = max(found["moves"], 1)
    wall = found["wall_s"]
    ticks = os.sysconf("SC_CLK_TCK")
    others = (busy1[0] - busy0[0]) / ticks - (own1 - own0) - (store1 - store0)
    return found | {
        "side": target.name,
        "workers": target.workers,
        "service_cpu_us_per_move": (own1 - own0) / moves * 1e6,
        "redis_cpu_us_per_move": (store1 - store0) / moves * 1e6,
        "server_cpu_us_per_move": (own1 - own0 + store1 - store0) / moves * 1e6,
        "cores_busy": (busy1[0] - busy0[0]) / (busy1[1] - busy0[1]) if busy1[1] > busy0[1] else 0,
        "others_cores": max(0.0, others - found["generator_cpu_s"]) / wall if wall else 0.0,
        "server_rss_mb": resident_mb(target.pids()),
    }


# -- the rounds ----------------------------------------------------------------------------------


def turns(
    targets: list[Target], tables: list[int], rounds: int
) -> Iterator[tuple[int, int, Target]]:
    """Each round: every target at each table count, the targets' order rotated by one a round
    (bgio, ours-socket, ours-http, …; then ours-socket, ours-http, …, bgio)."""
    for turn in range(rounds):
        shift = turn % len(targets)
        order = targets[shift:] + targets[:shift]
        for count in tables:
            for target in order:
                yield turn, count, target


@dataclass
class Results:
    """Every phase measured, and what the run was."""

    setup: dict[str, Any]
    phases: list[dict[str, Any]] = field(default_factory=list)

    def of(self, tables: int, side: str, workers: int) -> list[dict[str, Any]]:
        return [
            p
            for p in self.phases
            if p["tables"] == tables and p["side"] == side and p["workers"] == workers
        ]

    def summary(self) -> list[dict[str, Any]]:
        """Each configuration's medians, and ours / bgio: the median of the rounds' ratios."""
        rows = []
        keys = sorted({(p["tables"], p["side"], p["workers"]) for p in self.phases}, key=_order)
        for tables, side, workers in keys:
            mine = self.of(tables, side, workers)
            theirs = {p["round"]: p for p in self.of(tables, "bgio", 1)}
            row: dict[str, Any] = {"tables": tables, "side": side, "workers": workers}
            row["rounds"] = len(mine)
            for key in (*FIGURES, "service_cpu_us_per_move", "redis_cpu_us_per_move"):
                row[key] = statistics.median(p[key] for p in mine)
            for key in ("generator_cpu_share", "others_cores"):
                row[key] = statistics.median(p[key] for p in mine)
            row["problems"] = sum(p["refused"] + p["lost"] for p in mine)
            row["server_rss_mb_max"] = max(p["server_rss_mb"] for p in mine)
            if side != "bgio":
                for key in FIGURES:
                    pairs = [
                        p[key] / theirs[p["round"]][key]
                        for p in mine
                        if p["round"] in theirs and theirs[p["round"]][key]
                    ]
                    row[f"{key}_ratio"] = statistics.median(pairs) if pairs else None
            rows.append(row)
        return rows


def _order(key: tuple[int, str, int]) -> tuple[int, int, int, str]:
    tables, side, workers = key
    return (-tables, side != "bgio", workers, "socket" if side == "http" else "http")


def report(results: Results) -> str:
    setup = results.setup
    lines = [
        f"{setup['rounds']} round(s) of {setup['seconds']:g} s a phase, the order rotating; "
        f"{setup['pinning']}; {setup['table_rounds']} rounds a table on both sides"
        + (", ours with WRITE_REPLICAS=1 and a local replica" if setup["replica"] else "")
        + (", Redis with its append-only file" if setup["aof"] else ""),
        "medians of the rounds; (ours / bgio, the median of the rounds' ratios). Server CPU: "
        "bgio's one process; ours, service + Redis (service / Redis in brackets). Memory: "
        "resident, bgio's process; ours, the service's and Redis's (Redis holds all our tables).",
    ]
    tables = None
    for row in results.summary():
        if row["tables"] != tables:
            tables = row["tables"]
            lines.append(f"{tables} table(s):")

        def ratio(key: str, row: dict[str, Any] = row) -> str:
            value = row.get(f"{key}_ratio")
            return f" ({value:.2f}×)" if value is not None else ""

        label = Target(row["side"], row["workers"], 0, lambda: (0.0, 0.0)).label
        split = (
            f" [{row['service_cpu_us_per_move']:.0f} / {row['redis_cpu_us_per_move']:.0f}]"
            if row["side"] != "bgio"
            else ""
        )
        lines.append(
            f"  {label:<24} {row['moves_per_s']:>7,.0f} moves/s{ratio('moves_per_s'):<9} "
            f"server CPU {row['server_cpu_us_per_move']:>4.0f} µs a move"
            f"{ratio('server_cpu_us_per_move'):<9}{split:<12} push p50 {row['push_p50_ms']:.2f} ms"
            f"{ratio('push_p50_ms'):<9} p99 {row['push_p99_ms']:.2f} ms{ratio('push_p99_ms'):<9}"
            f" generator {row['generator_cpu_share']:.0%} of a core, other programs "
            f"{row['others_cores']:.2f} cores, servers' memory at most "
            f"{row['server_rss_mb_max']:.0f} MiB"
            + (f", {row['problems']} refused or lost" if row["problems"] else "")
        )
    busy = statistics.median(p["others_cores"] for p in results.phases) if results.phases else 0
    if busy > 0.25:
        lines.append(
            f"other programs kept {busy:.2f} cores busy in the median phase: the machine was "
            "shared, its absolute figures are suspect; the ratios, taken in turns, less so"
        )
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> Results:
    generator_cores, pinned = pinning(args.pin)
    bgio_env = {"BGIO_DELTA": "1"} if args.bgio_delta else {}
    results = Results(
        {
            "rounds": args.rounds,
            "seconds": args.seconds,
            "tables": args.tables,
            "workers": args.workers,
            "transports": args.transport,
            "table_rounds": args.table_rounds,
            "pinning": pinned,
            "replica": args.replica,
            "aof": args.aof,
            "bgio_delta": args.bgio_delta,
            "cores": os.cpu_count(),
            "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
    )
    async with servers(args.workers, args.transport, args.replica, args.aof, bgio_env) as targets:
        for target in targets:  # a warm-up for each, at the first table count, not counted
            await phase(target, args.tables[0], args.warm, args.table_rounds, generator_cores)
        for turn, tables, target in turns(targets, args.tables, args.rounds):
            found = await phase(target, tables, args.seconds, args.table_rounds, generator_cores)
            found["round"] = turn
            results.phases.append(found)
            print(
                f"round {turn + 1}, {tables} table(s), {target.label}: "
                f"{found['moves_per_s']:,.0f} moves/s, "
                f"server CPU {found['server_cpu_us_per_move']:.0f} µs a move, "
                f"push p50 {found['push_p50_ms']:.2f} ms",
                flush=True,
            )
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=4.0, help="a phase's play")
    parser.add_argument("--warm", type=float, default=2.0, help="each side's warm-up phase")
    parser.add_argument("--tables", type=int, action="append", help="default: 16, then 1")
    parser.add_argument("--workers", type=int, action="append", help="ours; default: 1, then 2")
    parser.add_argument(
        "--transport",
        choices=["socket", "http"],
        action="append",
        help="ours; default: socket, then http",
    )
    parser.add_argument(
        "--pin",
        choices=["split", "generator", "none"],
        default="split",
        help="split: the generator on the last core, the servers on the others (default); "
        "generator: the generator on the last core, the servers anywhere",
    )
    parser.add_argument("--replica", action="store_true", help="ours: WRITE_REPLICAS=1, a replica")
    parser.add_argument("--aof", action="store_true", help="Redis keeps its append-only file")
    parser.add_argument(
        "--table-rounds", type=int, default=100, help="rounds a table (a match) on both sides"
    )
    parser.add_argument("--bgio-delta", action="store_true", help="bgio's deltaState: patches")
    parser.add_argument("--out", type=Path, default=Path("bench-peers-results.json"))
    args = parser.parse_args()
    args.tables = args.tables or [16, 1]
    args.workers = args.workers or [1, 2]
    args.transport = args.transport or ["socket", "http"]
    if shutil.which("node") is None:
        sys.exit("node not found: the peers bench needs Node 20 (and npm ci in benchmarks/peers)")
    if not (PEERS / "node_modules").is_dir():
        sys.exit("benchmarks/peers/node_modules is missing: run `make bench-peers` (npm ci)")
    results = asyncio.run(run(args))
    text = report(results)
    print(text)
    args.out.write_text(
        json.dumps(
            {"setup": results.setup, "summary": results.summary(), "phases": results.phases},
            indent=2,
        )
        + "\n"
    )
    print(f"written to {args.out}")


if __name__ == "__main__":
    main()
