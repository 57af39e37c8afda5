"""`make bench-peers` keeps working: a short run plays boardgame.io and both our transports
without a refusal and writes every figure and ratio (no timing). Skipped where Node or npm is
missing; the Node packages come from benchmarks/peers/package-lock.json (`npm ci`, preferring
npm's cache), as `make bench-peers` installs them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.integration.benches import ROOT, bench

PEERS = ROOT / "benchmarks" / "peers"
INSTALLED = PEERS / "node_modules" / ".package-lock.json"


def installed() -> None:
    """benchmarks/peers/node_modules as its lock file says, or the test skipped saying why."""
    npm = shutil.which("npm")
    if shutil.which("node") is None or npm is None:
        pytest.skip("node or npm is not installed: the peers bench needs Node")
    lock = PEERS / "package-lock.json"
    if not INSTALLED.exists() or INSTALLED.stat().st_mtime < lock.stat().st_mtime:
        done = subprocess.run(
            [npm, "ci", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=PEERS,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_a_short_peers_run_plays_every_side_and_writes_the_ratios(tmp_path: Path) -> None:
    installed()
    output = tmp_path / "bench-peers-results.json"
    run = bench(
        "benchmarks.peers",
        *("--rounds", "1", "--seconds", "1", "--warm", "0.5", "--tables", "2", "--workers", "1"),
        *("--table-rounds", "2", "--out", str(output)),
    )
    results = json.loads(output.read_text())
    sides = {(p["side"], p["workers"]): p for p in results["phases"]}
    assert set(sides) == {("bgio", 1), ("socket", 1), ("http", 1)}
    for phase in sides.values():  # every side moved, pushed, and spent server CPU
        assert phase["refused"] == phase["lost"] == 0, phase["problems"]
        assert phase["moves"] > 0 and phase["pushes"] > 0
        assert phase["server_cpu_us_per_move"] >= 0 and phase["push_p50_ms"] > 0
    ours = [row for row in results["summary"] if row["side"] != "bgio"]
    ratios = ("moves_per_s_ratio", "push_p50_ms_ratio")  # a 1 s phase may see no CPU tick
    assert all(row[key] is not None for row in ours for key in ratios)
    assert "ours socket, 1 worker" in run.stdout and "(ours / bgio" in run.stdout
