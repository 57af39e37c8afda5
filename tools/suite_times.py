"""Time `make test-fast` and `make test` and write what they took into the README.

    python -m tools.suite_times                   # both (make test takes minutes)
    python -m tools.suite_times --only test-fast  # one; the other's figure stays as it was

Each target runs as anyone types it, its output shown as it comes; the README's figure for it —
the text between `<!-- times make TARGET -->` and `<!-- /times -->` — becomes the tests pytest
counted, the wall-clock time, the day, and the machine's cores and load when the run began (the
machine may be shared: the load says how far to trust the time). A target that fails leaves
its figure as it was.
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import subprocess
import sys
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TARGETS = ("test-fast", "test")
SUMMARY = re.compile(r"^=* ?(?P<counts>\d+ (?:passed|failed|skipped|errors?)\b.*) in [\d.]+s")
COUNT = re.compile(r"(?P<n>\d+) (?P<what>passed|failed|skipped|deselected|xfailed|xpassed|errors?)")


def span(target: str) -> re.Pattern[str]:
    """The README's figure for a target, between its markers."""
    return re.compile(rf"(<!-- times make {re.escape(target)} -->)(.*?)(<!-- /times -->)", re.S)


@dataclass(frozen=True)
class Run:
    """One run of a target: what pytest counted, and how long the whole target took."""

    target: str
    counts: dict[str, int]
    seconds: float
    day: datetime.date
    cores: int
    load: float

    def figure(self) -> str:
        """The README's words for this run."""
        done = f"{self.counts.get('passed', 0):,} tests"
        skipped = self.counts.get("skipped", 0)
        aside = f" ({skipped:,} skipped)" if skipped else ""
        return (
            f"{done}{aside} in {duration(self.seconds)} on {self.day.isoformat()} "
            f"({self.cores} cores, load {self.load:.1f} at the start)"
        )


def duration(seconds: float) -> str:
    """`35 s`, or `9 min 41 s` from 100 s on."""
    whole = round(seconds)
    if whole < 100:
        return f"{whole} s"
    return f"{whole // 60} min {whole % 60} s"


def counts(output: str) -> dict[str, int]:
    """What the last pytest summary line in `output` counted (`passed`, `skipped`, ...)."""
    lines = [line for line in output.splitlines() if SUMMARY.match(line.strip())]
    if not lines:
        raise ValueError("no pytest summary line in the output")
    found = SUMMARY.match(lines[-1].strip())
    assert found is not None
    tally: dict[str, int] = {}
    for m in COUNT.finditer(found["counts"]):
        what = "errors" if m["what"].startswith("error") else m["what"]
        tally[what] = int(m["n"])
    return tally


def rewrite(text: str, target: str, figure: str) -> str:
    """`text` with the figure for `target` replaced (its markers must be there, once)."""
    pattern = span(target)
    if len(pattern.findall(text)) != 1:
        raise ValueError(f"the README needs one <!-- times make {target} --> … <!-- /times -->")
    return pattern.sub(lambda m: m[1] + figure + m[3], text)


def measure(target: str) -> Run:
    """Run `make TARGET`, echoing its output; its counts and wall-clock time."""
    load = os.getloadavg()[0]
    started = time.monotonic()
    tail: deque[str] = deque(maxlen=200)
    with subprocess.Popen(
        ["make", target],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        bufsize=1,
    ) as make:
        assert make.stdout is not None
        for line in make.stdout:
            sys.stdout.write(line)
            tail.append(line)
    seconds = time.monotonic() - started
    if make.returncode != 0:
        raise SystemExit(f"make {target} failed ({make.returncode}): the README is unchanged")
    return Run(
        target,
        counts("".join(tail)),
        seconds,
        datetime.date.today(),
        os.cpu_count() or 1,
        load,
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=TARGETS, help="time this target alone")
    args = parser.parse_args(argv)
    for target in [args.only] if args.only else TARGETS:
        run = measure(target)  # each figure written as soon as it is known
        README.write_text(rewrite(README.read_text(), run.target, run.figure()))
        print(f"make {run.target}: {run.figure()}")


if __name__ == "__main__":
    main()
