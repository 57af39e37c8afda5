"""A figure, not a test: Redis failing over under two service processes, `--runs` times each
scenario of tests/failover/scenarios.py (the primary killed, the primary paused, a replica
killed), with every check the tests make. Prints, for each run and then for each scenario, the
write pause (from the fault to the first move acknowledged on an attempt sent after it), a
move's p50/p99/max across the failover (from its client's first read for that turn to its
200: reads, refused candidates and retries with the same key included),
the acknowledged commands checked against the logs and how many of them were lost (must be 0),
what the requests were answered, and how many error lines the services logged. Exits 1 when a
check found a problem.

    uv run python -m benchmarks.failover [--runs 3] [--scenario primary_killed ...] [--replicas 2]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from tests.failover.scenarios import SCENARIOS, Figures, run
from tests.redis_group import can_start


def summary(name: str, runs: list[Figures]) -> str:
    pauses = [f.pause_s for f in runs if f.pause_s is not None]
    p99s = [f.p99_ms for f in runs]
    pause = f"median {statistics.median(pauses):.2f} s, max {max(pauses):.2f} s" if pauses else "-"
    return (
        f"{name} ({len(runs)} runs): write pause {pause}; move p99 median "
        f"{statistics.median(p99s):.0f} ms, max {max(p99s):.0f} ms; max move "
        f"{max(f.max_ms for f in runs):.0f} ms; acknowledged checked "
        f"{sum(f.checked for f in runs)}, lost {sum(f.lost for f in runs)}; problems "
        f"{sum(len(f.problems) for f in runs)}; errors logged {sum(f.errors_logged for f in runs)}"
    )


async def main(runs: int, scenarios: list[str], replicas: int) -> int:
    results: dict[str, list[Figures]] = {name: [] for name in scenarios}
    for i in range(runs):
        for name in scenarios:
            root = Path(tempfile.mkdtemp(prefix=f"failover-{name}-"))
            figures = await run(name, root, replicas)
            results[name].append(figures)
            print(f"run {i + 1}: {figures.line()}", flush=True)
            print(f"  answers: {figures.answers}", flush=True)
            for problem in figures.problems:
                print(f"  PROBLEM: {problem}", flush=True)
            if figures.problems:  # the services' and the servers' logs, to read
                print(f"  logs kept in {root}", flush=True)
            else:
                shutil.rmtree(root, ignore_errors=True)
    print()
    for name, runs_of in results.items():
        print(summary(name, runs_of))
    return 1 if any(f.problems or f.lost for fs in results.values() for f in fs) else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scenario", action="append", choices=list(SCENARIOS))
    parser.add_argument(
        "--replicas",
        type=int,
        default=1,
        help="replicas in the group (the tests' 1; with 2, as docker-compose's profile, a new "
        "primary has a replica at once)",
    )
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as probe:
        if why := can_start(Path(probe)):
            sys.exit(f"cannot run: {why}")
    chosen = arguments.scenario or list(SCENARIOS)
    sys.exit(asyncio.run(main(arguments.runs, chosen, arguments.replicas)))
