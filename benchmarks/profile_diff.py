"""A differential profile: which functions make one checkout's move dearer than another's.

Two checkouts (`--a` and `--b`, as benchmarks/alternate.py takes them) serve side by side, one
worker each, on one bundled Redis. The follow workload (benchmarks/follow.py; `--workload
socket`: over the seat socket) plays `--tables` tables on each in turn for `--rounds` rounds (A
then B, then B then A), with `py-spy record` attached to the worker being played at `--rate`
samples a second. A function's share of a side's samples, times that side's service CPU a move
over the same phases, is what it costs a move; the tables list the files and the functions whose
cost changed most from A to B, by their own time and then with their callees.

Beside each difference: `±`, twice its sampling error (from the sample counts alone), and in
how many rounds B spent more. Shares, not seconds, are compared, so a machine slower in one round
than the next moves both sides' figures alike; py-spy pauses the worker for each sample, which
costs both sides alike. What no round-to-round figure shows is how two processes of the same
code differ for the whole run (where each runs, what it waits for): run it once with the same
checkout on both sides (`--a . --b .`) to see that floor before reading a difference. A row only
one side has (code added or removed) stands clear of it.

`--sampler perf` samples with Linux `perf` instead: CPU time only (py-spy also counts the time
a worker waits for a core, where it was stopped), by the interpreter's C functions and the
kernel's, flat (no callees): where py-spy says a write got dearer, perf says whether the kernel
did.

    uv run python -m benchmarks.profile_diff --a ../before --b . [--workload follow|socket]
        [--tables 16] [--rounds 4] [--seconds 8] [--rate 500] [--sampler py-spy|perf]
        [--top 20] [--keep DIR]

Either sampler must be allowed to read the worker (as root, or with `ptrace` and perf events
allowed to the user); `--keep DIR` keeps each phase's samples (py-spy's raw format: one stack a
line, which flamegraph tools read).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import re
import shutil
import signal
import sys
from collections import Counter
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks import follow
from benchmarks.alternate import play, side_by_side, turns

_LINE = re.compile(r":\d+\)$")


@dataclass
class Profile:
    """Samples of one side: each function's own (`self`) and with its callees (`total`), each
    file's own, and the service CPU and moves of the phases they were taken in."""

    own: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    files: Counter[str] = field(default_factory=Counter)
    samples: int = 0
    cpu_s: float = 0.0
    moves: int = 0

    def add(self, raw: str, cpu_s: float, moves: int) -> None:
        """A phase's samples in py-spy's raw format (`frame;frame;… count`, frames as
        `function (path:line)`), its service CPU and its moves."""
        for line in raw.splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            n = int(count)
            frames = [_LINE.sub(")", frame) for frame in stack.split(";")]
            self.samples += n
            self.own[frames[-1]] += n
            self.files[_file(frames[-1])] += n
            for frame in set(frames):
                self.total[frame] += n
        self.cpu_s += cpu_s
        self.moves += moves

    def us_a_move(self, samples: int) -> float:
        """What `samples` of this side's samples cost a move, in µs of the service's CPU."""
        if not self.samples or not self.moves:
            return 0.0
        return samples / self.samples * self.cpu_s / self.moves * 1e6

    def error(self, samples: int) -> float:
        """One standard error of `us_a_move(samples)`, from counting alone (Poisson)."""
        return self.us_a_move(1) * math.sqrt(samples) if samples else self.us_a_move(1)


def _file(frame: str) -> str:
    """The file of a frame, `function (path)` → `path`."""
    return frame.rsplit(" (", 1)[-1].rstrip(")")


def _tool(name: str) -> str:
    """`name`'s executable: beside this Python (py-spy, installed by `make install`), or on PATH."""
    found = Path(sys.executable).with_name(name)
    if found.exists():
        return str(found)
    which = shutil.which(name)
    if which is None:
        raise SystemExit(f"{name} is not installed")
    return which


_PERF_ROW = re.compile(r"^\s+[\d.]+%\s+(\d+)\s+(\S+)\s+\[.\]\s+(.+?)\s*$")


def perf_samples(report: str) -> str:
    """`perf report --sort dso,sym -n` as py-spy's raw format: one frame a line, `symbol
    (object) count` (perf sees the interpreter's C functions and the kernel's, not Python's)."""
    rows = (_PERF_ROW.match(line) for line in report.splitlines())
    return "".join(f"{row[3]} ({row[2]}) {row[1]}\n" for row in rows if row)


@contextlib.asynccontextmanager
async def sampled(
    pid: int, rate: int, output: Path, sampler: str, options: Sequence[str] = ("--function",)
) -> AsyncIterator[None]:
    """A sampler attached to process `pid` while inside; its samples written to `output` in
    py-spy's raw format. py-spy sees Python's functions, and counts a sample wherever the worker
    is stopped (waiting for a core too); `perf` counts CPU time only, by C function and kernel
    function. `options`: py-spy's (by function, not line; benchmarks/move_profile.py asks for
    lines, `--nonblocking` and `--gil`, and says what they change)."""
    if sampler == "perf":
        recorded = output.with_suffix(".perf")
        command = ["record", "-e", "cpu-clock", "-F", str(rate), "-p", str(pid)]
        process = await asyncio.create_subprocess_exec(
            _tool("perf"), *command, "-o", str(recorded),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
    else:
        command = ["record", "--pid", str(pid), "--rate", str(rate), "--format", "raw"]
        command += options
        process = await asyncio.create_subprocess_exec(
            _tool("py-spy"), *command, "--output", str(output),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )  # fmt: skip
        assert process.stdout is not None
        said = await process.stdout.readline()  # "py-spy> Sampling process …" once attached
        if b"Sampling" not in said:
            rest = await process.stdout.read()
            await process.wait()
            raise RuntimeError(f"py-spy did not attach: {(said + rest).decode()[-2000:]}")
    try:
        yield
    finally:
        process.send_signal(signal.SIGINT)  # it writes what it sampled, and exits
        said, _ = await process.communicate()
        if sampler == "perf":
            report = await asyncio.create_subprocess_exec(
                _tool("perf"), "report", "-i", str(recorded), "--stdio", "--sort", "dso,sym", "-n",
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
            )  # fmt: skip
            text, _ = await report.communicate()
            output.write_text(perf_samples(text.decode(errors="replace")))
        if not output.exists():
            raise RuntimeError(f"{sampler} wrote nothing: {said.decode()[-2000:]}")


async def profile(
    a: Path,
    b: Path,
    rounds: int,
    seconds: float,
    tables: int,
    rate: int,
    workload: str,
    keep: Path | None,
    sampler: str = "py-spy",
) -> tuple[dict[str, Profile], list[dict[str, Profile]]]:
    """Each side's samples over all rounds, and each round's (for the rounds' agreement)."""
    sides = {"A": Profile(), "B": Profile()}
    each: list[dict[str, Profile]] = []
    async with side_by_side(a, b) as (redis, services, stats, data):
        for turn, name in turns(rounds):
            if turn == len(each):
                each.append({"A": Profile(), "B": Profile()})
            service = services[name]
            output = data / f"{name}-{turn}.txt"
            attached = sampled(service.process.pid, rate, output, sampler)
            phase = await play(service, redis, stats, tables, seconds, workload, attached)
            if phase.refused or phase.lost:
                print(f"  {name}, round {turn + 1}: {(phase.refused + phase.lost)[:3]}")
            raw = output.read_text()
            for profiled in (sides[name], each[turn][name]):
                profiled.add(raw, phase.service_cpu_s, phase.moves)
            if keep is not None:
                keep.mkdir(parents=True, exist_ok=True)
                shutil.copy(output, keep / f"{name}-round{turn + 1}.txt")
    return sides, each


def _rows(
    key: str, top: int, sides: dict[str, Profile], each: list[dict[str, Profile]]
) -> list[str]:
    """The `top` names of `key` (own, total or files) whose cost a move changed most."""
    a, b = sides["A"], sides["B"]
    counts_a, counts_b = getattr(a, key), getattr(b, key)
    delta = {
        name: b.us_a_move(counts_b[name]) - a.us_a_move(counts_a[name])
        for name in set(counts_a) | set(counts_b)
        # not the frames under every sample (the loop's own, `main`…): their change is the whole
        if counts_a[name] < 0.99 * a.samples or counts_b[name] < 0.99 * b.samples
    }
    rows = []
    for name in sorted(delta, key=lambda n: -abs(delta[n]))[:top]:
        na, nb = counts_a[name], counts_b[name]
        noise = 2 * math.hypot(a.error(na), b.error(nb))
        more = sum(
            r["B"].us_a_move(getattr(r["B"], key)[name])
            > r["A"].us_a_move(getattr(r["A"], key)[name])
            for r in each
        )
        only = " (B only)" if not na else " (A only)" if not nb else ""
        rows.append(
            f"  {a.us_a_move(na):8.2f} {b.us_a_move(nb):8.2f} {delta[name]:+8.2f} "
            f"±{noise:5.2f} {more:>3}/{len(each)}  {name}{only}"
        )
    return rows


def report(
    a: Path,
    b: Path,
    sides: dict[str, Profile],
    each: list[dict[str, Profile]],
    top: int,
    rate: int,
    callees: bool = True,
) -> str:
    cpu = {name: p.cpu_s / max(p.moves, 1) * 1e6 for name, p in sides.items()}
    pairs = sorted(
        (r["B"].cpu_s / max(r["B"].moves, 1)) / (r["A"].cpu_s / max(r["A"].moves, 1))
        for r in each
        if r["A"].cpu_s and r["B"].cpu_s
    )
    head = "        A        B      B−A   ±2σ  B more  "
    lines = [
        f"A = {a}, B = {b}: {len(each)} rounds",
        *(
            f"{name}: service CPU a move {cpu[name]:.1f} µs over {p.moves:,} moves, "
            f"{p.samples:,} samples"
            for name, p in sides.items()
        ),
        f"B / A service CPU a move: pooled {cpu['B'] / cpu['A'] if cpu['A'] else 0:.3f}, "
        f"pairs {', '.join(f'{x:.3f}' for x in pairs)}",
        *(
            f"{name}: the sampler saw the worker busy "
            f"{p.samples / rate / max(p.moves, 1) * 1e6:.0f} µs a move, against {cpu[name]:.0f} µs "
            "of CPU"
            for name, p in sides.items()
        ),
        "(py-spy's busy beyond the CPU is time spent waiting for a core, counted where the worker "
        "was stopped, mostly in its writes: on a busy machine, the write rows are that unsure)",
        "",
        "own time by file:",
        head + "file",
        *_rows("files", top, sides, each),
        "",
        "own time by function:",
        head + "function",
        *_rows("own", top, sides, each),
    ]
    if callees:  # perf's samples here are flat: a function's own time only
        lines += ["", "with callees, by function:", head + "function"]
        lines += _rows("total", top, sides, each)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="the checkout to compare against")
    parser.add_argument("--b", type=Path, default=Path("."), help="the checkout compared")
    parser.add_argument("--workload", choices=["follow", "socket"], default="follow")
    parser.add_argument("--tables", type=int, default=follow.TABLES)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rate", type=int, default=500, help="samples a second")
    parser.add_argument(
        "--sampler",
        choices=["py-spy", "perf"],
        default="py-spy",
        help="py-spy: Python's functions; perf: CPU time only, by C and kernel function",
    )
    parser.add_argument("--top", type=int, default=20, help="rows in each table")
    parser.add_argument("--keep", type=Path, help="a folder for each phase's raw samples")
    args = parser.parse_args()
    sides, each = asyncio.run(
        profile(
            args.a,
            args.b,
            args.rounds,
            args.seconds,
            args.tables,
            args.rate,
            args.workload,
            args.keep,
            args.sampler,
        )
    )
    print(report(args.a, args.b, sides, each, args.top, args.rate, args.sampler == "py-spy"))


if __name__ == "__main__":
    main()
