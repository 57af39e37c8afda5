"""`make bench`: the running service measured against its own ceiling, with real Redis on loopback.

Prints a table and writes bench-results.json. The load generator runs in this process and reports
its own CPU use, so that a starved server cannot pass for a slow one. It asserts nothing.

This is the runner; the workloads are modules of their own, and none imports it: commands alone
against the ceiling (benchmarks/commands.py); tables followed by push (benchmarks/follow.py):
every seat on its own SSE stream, moving when its stream shows its turn, and the same over the
seat socket (benchmarks/socket_follow.py); how many streams one worker holds while its tables
play slowly, seats' and spectators' (benchmarks/crowd.py); and what a lobby page costs with
100,000 tables (benchmarks/lobby.py); and what two settings cost, the follow workload played by
one checkout served with each in turns (benchmarks/alternate.py): `WRITE_REPLICAS` 0 and 1 on a
Redis with one replica, and metrics off and on (`costs`); how much memory and heartbeat CPU
10,000 idle seat sockets, then 10,000 idle SSE streams, cost one worker (benchmarks/idle.py,
`idle`). `--only
commands|follow|floor|costs|crowd|idle|lobby` runs one alone; `floor` is the follow workload's
move, its pure work in-process (benchmarks/floor.py: `move_floor_us`, beside the CPU a served
move costs; benchmarks/move_profile.py shows where the rest goes).
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
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvloop

from benchmarks import (
    alternate,
    attacks,
    commands,
    crowd,
    engine_cheat,
    engine_thirty_one,
    envs,
    floor,
    follow,
    idle,
    lobby,
    socket_follow,
)
from benchmarks.served import Service, cores_busy, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis


async def measure_follow(
    one: Service, two: Service, redis: EmbeddedRedis, seconds: float
) -> dict[str, Any]:
    """The follow workload (benchmarks/follow.py): 16 tables on one worker, 16 on two, and one
    table on one worker, each over SSE and HTTP (`follow_…`) and over the seat socket
    (`socket_…`, benchmarks/socket_follow.py), in turns (two halves each, as
    `commands.measure` does; the two transports side by side in each configuration, in turn
    first), and the ratios of the socket's figures to HTTP's."""
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


COSTS = {
    "replicas": ({"WRITE_REPLICAS": "0"}, {"WRITE_REPLICAS": "1"}, True),
    "metrics": ({"METRICS": "0"}, {"METRICS": "1"}, False),
}
"""What a setting costs (issue 42): the keys' prefix, the settings off and on, and whether the
bench's Redis has a replica (for `WRITE_REPLICAS=1` to wait for)."""
COST_ROUNDS = 8


async def measure_costs(seconds: float) -> dict[str, Any]:
    """Each of `COSTS`: this checkout served twice, one worker each, with the setting off and
    on, the follow workload (16 tables) played on each in turns, `COST_ROUNDS` rounds of phases
    a quarter of `seconds` long (benchmarks/alternate.py), on a Redis of their own."""
    results: dict[str, Any] = {}
    phase = max(0.5, seconds / 4)
    for prefix, (off, on, replica) in COSTS.items():
        results |= await alternate.figures(
            prefix, off, on, COST_ROUNDS, phase, follow.TABLES, replica
        )
    return results


PHASES = ("commands", "follow", "floor", "costs", "crowd", "idle", "lobby", "envs")


async def run(
    seconds: float,
    quick: bool,
    only: str | None = None,
    crowd_tables: int = 500,
    crowd_spectators: int = 10,
    crowd_think_ms: float = 1500,
    lobby_tables: int = 100_000,
) -> dict[str, Any]:
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
                await commands.warm_up(service.port)
            if "commands" in phases:
                results |= await commands.measure(*services, redis_pid, seconds)
            if "follow" in phases:
                results |= await measure_follow(*services, redis, seconds)
        # The crowd on a one-worker service of its own (benchmarks/crowd.py).
        if "crowd" in phases:
            results |= await crowd.measure(
                redis, seconds, crowd_tables, crowd_spectators, crowd_think_ms / 1000
            )
        if "idle" in phases:  # 10,000 idle sockets, then streams, on services of their own
            results |= await idle.measure(redis, 3 * seconds)
    if "costs" in phases:  # on Redis servers of their own
        results |= await measure_costs(seconds)
    if "lobby" in phases:  # on a Redis of its own, filled with `lobby_tables` tables
        results |= await lobby.figures(lobby_tables)
    if "floor" in phases:  # the follow workload's move, its pure work in this process
        results |= floor.figures(3 if quick else floor.REPEATS)
        if results.get("socket_service_cpu_us_per_move"):
            served = results["socket_service_cpu_us_per_move"]
            results["socket_floor_ratio"] = served / results["move_floor_us"]
    if "envs" in phases:  # the environments in this process, the engines' figures beside them
        results |= envs.figures(1.0 if quick else min(3.0, seconds))
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


def cost_rows(prefix: str, title: str, off: str, on: str) -> list[tuple[str, str, str, str]]:
    """The table's rows for one of `COSTS`: each figure off, on, and on / off."""
    rows = []
    for i, (figure, label, fmt) in enumerate(
        (
            ("moves_per_s", "moves/s", "{:,.0f}"),
            ("service_cpu_us_per_move", "CPU a move costs the service, µs", "{:.0f}"),
            ("redis_cpu_us_per_move", "CPU a move costs Redis, µs", "{:.1f}"),
            ("redis_calls_per_move", "Redis calls the service makes a move", "{:.2f}"),
            ("push_p50_ms", "push delay p50, ms", "{:.2f}"),
            ("push_p99_ms", "push delay p99, ms", "{:.2f}"),
        )
    ):
        first = f"{title}, in turns: {label}" if i == 0 else f"  {label}"
        rows += [
            (f"{prefix}_{figure}_off", f"{first}, {off}", fmt, ""),
            (f"{prefix}_{figure}_on", f"    {on}", fmt, ""),
            (f"{prefix}_{figure}_ratio", f"    {on} / {off}", "{:.3f}", "—"),
        ]
    return rows


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
    *envs.ROWS,
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
    ("move_floor_us", "the follow move's floor: its pure work in-process, µs", "{:.1f}", "—"),
    ("move_floor_decide_us", "  decide, µs", "{:.1f}", ""),
    ("move_floor_evolve_us", "  evolve, µs", "{:.1f}", ""),
    ("move_floor_views_us", "  the two seats' views, µs", "{:.1f}", ""),
    ("move_floor_events_us", "  the events redacted for each seat, enveloped, µs", "{:.1f}", ""),
    ("move_floor_encode_us", "  the views' and envelopes' JSON, µs", "{:.1f}", ""),
    ("move_floor_glue_us", "  the rest (records, Seen, Sight, the fold), µs", "{:.1f}", ""),
    ("socket_floor_ratio", "  the socket's service CPU a move / the floor", "{:.1f}", "—"),
    *(
        row
        for prefix, title, off, on in (
            ("replicas", "WRITE_REPLICAS 0 and 1 (a replica), 16 tables", "=0", "=1"),
            ("metrics", "METRICS off and on, 16 tables", "off", "on"),
        )
        for row in cost_rows(prefix, title, off, on)
    ),
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
    *idle.ROWS,
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
        "the follow move's floor in-process, only what WRITE_REPLICAS=1 and metrics cost "
        "(costs), only the crowd (streams one process holds), only the idle connections or "
        "only the lobby; `attacks`: "
        "docs/security.md's",
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
    for prefix in COSTS:
        if results.get(f"{prefix}_problems"):
            print(f"  {prefix}: refused or lost: {results[f'{prefix}_problems']}")
    if results.get("crowd_problems"):
        print(f"  crowd: refused or lost: {results['crowd_problems']}")
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(f"  (load generator CPU in all: {usage.ru_utime + usage.ru_stime:.1f} s)")
    Path(args.output).write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
