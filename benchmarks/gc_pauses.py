"""The collector's pauses in a served worker (issue 43): each pass's generation and its CPU time.

A push's p99 on this shared machine is mostly the time a worker waits for a core; a pass of the
collector is measured where it runs, by `gc.callbacks`, in the CPU time of its thread (what it
walks, whatever the machine does meanwhile) and in wall time. The bench app records them when
`BENCH_GC_DIR` names a directory (benchmarks/app.py): one JSON line a pass in
`gc-<pid>.jsonl` there, written by a thread every second. `summary` reads them back for a
window of the run (benchmarks/soak.py).
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import threading
import time
from pathlib import Path
from typing import Any

DIRECTORY = "BENCH_GC_DIR"


def record(directory: Path) -> None:
    """Record this process's collector passes into `directory` from now on."""
    passes: list[tuple[float, int, float, float, int]] = []
    started = [0.0, 0.0]

    def timed(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.thread_time()
            return
        wall, cpu = time.perf_counter() - started[0], time.thread_time() - started[1]
        passes.append((time.time(), info["generation"], cpu, wall, info["collected"]))

    def flush() -> None:
        path = directory / f"gc-{os.getpid()}.jsonl"
        while True:
            time.sleep(1.0)
            taken = passes[: len(passes)]
            del passes[: len(taken)]
            if taken:
                with path.open("a") as out:
                    out.writelines(json.dumps(p) + "\n" for p in taken)

    gc.callbacks.append(timed)
    threading.Thread(target=flush, name="gc-pauses", daemon=True).start()


def record_from_env() -> None:
    """`record` into `BENCH_GC_DIR`, when it is set."""
    if directory := os.environ.get(DIRECTORY):
        record(Path(directory))


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(directory: Path, since: float, until: float) -> dict[str, Any]:
    """For each process that recorded passes, those from `since` to `until` (epoch seconds):
    the GC's CPU in all, and by generation the passes, their CPU max/p99/p50 and wall max, in
    ms."""
    found: dict[str, Any] = {}
    for path in sorted(directory.glob("gc-*.jsonl")):
        passes = [json.loads(line) for line in path.read_text().splitlines()]
        passes = [p for p in passes if since <= p[0] < until]
        if not passes:
            continue
        figures: dict[str, Any] = {"cpu_s": round(sum(p[2] for p in passes), 3)}
        for generation in (0, 1, 2):
            cpu = [p[2] * 1000 for p in passes if p[1] == generation]
            if cpu:
                figures[f"gen{generation}"] = {
                    "passes": len(cpu),
                    "cpu_ms_max": round(max(cpu), 1),
                    "cpu_ms_p99": round(_q(cpu, 0.99), 1),
                    "cpu_ms_p50": round(statistics.median(cpu), 2),
                    "wall_ms_max": round(max(p[3] * 1000 for p in passes if p[1] == generation), 1),
                }
        found[path.stem.removeprefix("gc-")] = figures
    return found
