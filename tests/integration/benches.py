"""Running a benchmark script as its README shows it, for the tests that run one briefly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench(
    module: str, *arguments: str, timeout: float = 240, ok: bool = True
) -> subprocess.CompletedProcess[str]:
    """`python -m <module> <arguments>` at the repository's root, its output kept; with `ok`,
    a run that failed fails the test with the ends of its output."""
    run = subprocess.run(
        [sys.executable, "-m", module, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if ok:
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-4000:]
    return run
