"""`make bench` keeps working: a short run prints its table and writes every figure (no timing)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
FIGURES = (
    "ceiling_per_s",
    "commands_per_s",
    "ratio",
    "p50_ms",
    "p99_ms",
    "flatness",
    "engine_cheat_per_s",
    "engine_thirty_one_per_s",
    "view_per_s",
    "two_worker_speedup",
)


def test_a_short_benchmark_run_plays_without_a_refusal_and_writes_every_figure(
    tmp_path: Path,
) -> None:
    output = tmp_path / "bench-results.json"
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.bench", "--seconds", "1", "--output", str(output)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    results = json.loads(output.read_text())
    assert {key: results.get(key, 0) > 0 for key in FIGURES} == dict.fromkeys(FIGURES, True)
    assert results["command_errors"] == 0
    assert results["ratio"] == results["commands_per_s"] / results["ceiling_per_s"]
    assert "commands / ceiling" in run.stdout
    assert f"wrote {output}" in run.stdout
