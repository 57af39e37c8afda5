"""Where a served move's time goes (issue 43): py-spy on a worker under the follow workload,
its samples bucketed by what they were doing, beside the move's floor (benchmarks/floor.py).

One checkout (`--repo`, this one unless told) serves with one worker on a bundled Redis that
keeps no append-only file (benchmarks/served.py: every limit lifted), the worker on a core of
its own where there are two (the generator, Redis and py-spy on the rest; `--no-pin`: where the
scheduler puts them). The follow workload plays `--tables` tables on it over the seat socket
(benchmarks/socket_follow.py; `--transport http`: over SSE and HTTP, benchmarks/follow.py;
both: in turns), `--rounds` phases of `--seconds` each, with `py-spy record --gil` attached to
the worker at `--rate` samples a second (benchmarks/profile_diff.py's `sampled`: py-spy's raw
format, by line, `--native` off; `SAMPLING` says why `--gil`).

Each sample is put in one bucket by its innermost frame of interest (`bucket`), walking out from
the innermost frame: frames of the standard library's other modules (functools, contextlib,
dataclasses' generated `__init__`, logging…) are passed over to their caller, so a sample
counts where the service's code, a library it uses, or the loop spent it. A domain frame counts
by the domain function the application called (the outermost of the domain frames): `view` and
`redact` are views, everything else (decide, evolve, the rules' queries) the rules. A coroutine's
frame at an `await` line is the task switching in or out there: the loop's. py-spy without
`--native` sees no C frame: time in a C extension (msgspec's encoder and decoder, hiredis,
uvloop's transports, the kernel's send and receive under them) counts for the Python frame that
called it; so msgspec's work counts as encoding where the wire module (or json) calls it, and a
write's system call where the framing (or the store's line) calls it. uvloop's own loop, between
callbacks, has no Python frame but the one that runs it (`run`): the loop. The garbage
collector's passes count for whatever allocation set them off.

Each bucket's µs a move is its samples × the sampling interval / the moves made while sampling,
and beside it (`of CPU`) its share of the samples × the worker's CPU a move (/proc): a sampler
counts time the worker waited for a core while holding the GIL (after a write that woke its
reader, mostly), which the CPU does not; the wait is printed (/proc schedstat). The functions
with the most samples of their own (self time, the innermost frame; a coroutine's at an await
apart) follow, and the floor: the same move's pure work in-process, measured by
benchmarks/floor.py with the checkout's code right after the phases.

    uv run python -m benchmarks.move_profile [--repo CHECKOUT] [--transport socket|http ...]
        [--tables 16] [--rounds 3] [--seconds 6] [--rate 400] [--top 5] [--keep DIR]
        [--output move-profile.json] [--no-pin] [--nonblocking] [--no-gil]

py-spy must be allowed to read the worker (as root, or with `ptrace` allowed to the user).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import linecache
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import uvloop

from benchmarks import follow
from benchmarks.alternate import play
from benchmarks.commands import warm_up
from benchmarks.profile_diff import sampled
from benchmarks.served import ROOT, Service
from kronikas.adapters.embedded_redis import EmbeddedRedis

BUCKETS = {
    "rules": "decide/evolve (the domain's rules; a deal's shuffle)",
    "views": "redaction and views (domain view/redact, application session)",
    "encoding": "encoding (msgspec, json, application/wire.py, api/socket_wire.py)",
    "redis": "Redis round trip and script (adapters, redis-py, the script line)",
    "loop": "the loop and task switches (asyncio, uvloop, selectors; a coroutine at an await)",
    "framing": "framing and writes (uvicorn, websockets, wsproto, httptools; the socket's push "
    "and outbox, SSE frames, connections.py)",
    "transport": "the transport's own code (kronikas.api, Litestar)",
    "application": "the rest of the application (folds, commands, appends, …)",
    "other": "other (no frame of interest)",
}
"""The buckets, in the order they are printed, with what each holds."""

FLOOR_BUCKETS = ("rules", "views", "encoding")
"""The buckets that hold the floor's work (benchmarks/floor.py), as the served move does it."""

SAMPLING = ("--gil",)
"""py-spy's options: count only samples where the worker holds the GIL. Without it, a worker
woken from its wait for the network and waiting for a core counts busy in the loop (on a
shared machine, more than its CPU: 1.37 s sampled against 0.72 s of CPU in one test, 0.87 s
with `--gil`). py-spy pauses the worker for each sample (its default, kept): `--nonblocking`
reads it while it runs, and drops a sample whose stack changed under it (13% of them in a
test), most often while Python code runs, not while the worker sits in a system call or waits:
on a quiet machine that run put the rules, views and encoding at half the floor."""

_WORKLOADS = {"socket": "socket", "http": "follow"}
"""`--transport` as `alternate.play` names its workload."""

_FRAME = re.compile(r"^(?P<function>.*) \((?P<path>.*?)(?::(?P<line>\d+))?\)$")

_LIBRARIES: tuple[tuple[str, str], ...] = (
    ("/msgspec/", "encoding"),
    ("/json/", "encoding"),
    ("/redis/", "redis"),
    ("/hiredis/", "redis"),
    ("/asyncio/", "loop"),
    ("/uvloop/", "loop"),
    ("/selectors.py", "loop"),
    ("/uvicorn/", "framing"),
    ("/websockets/", "framing"),
    ("/wsproto/", "framing"),
    ("/h11/", "framing"),
    ("/httptools/", "framing"),
    ("/litestar/", "transport"),
    ("/anyio/", "transport"),
)
"""Libraries by a piece of their path, and their bucket (the first that matches)."""

_OURS: tuple[tuple[str, str], ...] = (
    ("adapters/randomness.py", "rules"),
    ("adapters/waiter.py", "application"),
    ("adapters/", "redis"),
    ("application/session.py", "views"),
    ("application/wire.py", "encoding"),
    ("api/socket_wire.py", "encoding"),
    ("api/socket_outbox.py", "framing"),
    ("api/socket_push.py", "framing"),
    ("api/sse.py", "framing"),
    ("api/lane.py", "framing"),
    ("api/ws_protocol.py", "framing"),
    ("api/", "transport"),
    ("connections.py", "framing"),
    ("application/", "application"),
)
"""The service's own files (under `kronikas/`) by a piece of their path, and their bucket;
domain files are bucketed by the function the application called (`_DOMAIN_VIEWS`); any other
file of the service's is the application's. Of the adapters, the deal's shuffle (randomness)
is the rules', and the change feed's waiters (waiter.py: in the process, no Redis) the
application's."""

_DOMAIN_VIEWS = frozenset({"view", "redact", "legal", "legal_moves", "account"})
"""The domain's functions the application calls for what a viewer sees: their frames, and
their callees', are views."""


def frame_of(text: str) -> tuple[str, str, int]:
    """A raw frame, `function (path:line)`, as its function, path and line (0: none); the path
    begins with a slash (py-spy shortens a module's path to below its folder on `sys.path`:
    `kronikas/api/socket.py`, `asyncio/runners.py`)."""
    found = _FRAME.match(text)
    if found is None:
        return text, "", 0
    path = found["path"]
    line = int(found["line"]) if found["line"] else 0
    return found["function"], path if path.startswith("/") else "/" + path, line


class Awaits:
    """Whether a frame's line is an `await` (or `async with`, `async for`), read from the
    sources of the checkout served and of the libraries on this Python's path."""

    def __init__(self, repo: Path) -> None:
        self.roots = [repo.resolve() / "services" / "kronikas" / "src", ROOT]
        self.roots += [Path(entry) for entry in sys.path if entry]
        self.files: dict[str, Path | None] = {}

    def __call__(self, path: str, line: int) -> bool:
        if not line:
            return False
        found = self.files.get(path, ...)
        if found is ...:
            relative = path.lstrip("/")
            found = next((r / relative for r in self.roots if (r / relative).is_file()), None)
            self.files[path] = found
        if found is None:
            return False
        text = linecache.getline(str(found), line).strip()
        return "await " in text or text.startswith(("async with", "async for"))


def _ours(path: str) -> str | None:
    """The service's own file's part below `kronikas/`, or None for any other file."""
    at = path.rfind("/kronikas/")
    if at < 0 or "/site-packages/" in path[at:]:
        return None
    return path[at + len("/kronikas/") :]


def _bucket_of(path: str, function: str) -> str | None:
    """A frame's bucket, or None when it is of no interest (passed over to its caller). The
    domain's frames say "domain": the caller decides."""
    if "kronikas_rules/" in path and "/site-packages/" not in path:
        return "domain"  # the rules package (rules/src/kronikas_rules)
    own = _ours(path)
    if own is not None:
        return next((bucket for piece, bucket in _OURS if own.startswith(piece)), "application")
    if "/benchmarks/" in path:  # the bench app the service mounts (its ceiling route)
        return "transport"
    return next((bucket for piece, bucket in _LIBRARIES if piece in path), None)


def bucket(stack: list[str], awaits: Callable[[str, int], bool] | None = None) -> str:
    """A sample's bucket (`stack`: its frames, outermost first, as py-spy writes them): its
    innermost frame of interest's; for a domain frame, views when the domain function the
    application called (the outermost of that run of domain frames) is one of `_DOMAIN_VIEWS`,
    else the rules. Given `awaits` (`Awaits`), a coroutine's frame at an `await` line counts
    for the loop: the task switching in and out there (a coroutine's own await runs in C: the
    task's step, the future's callbacks), not its own code."""
    frames = [frame_of(text) for text in stack]
    for at in range(len(frames) - 1, -1, -1):
        function, path, line = frames[at]
        found = _bucket_of(path, function)
        if found is None:
            continue
        if awaits is not None and awaits(path, line):
            return "loop"
        if found != "domain":
            return found
        entry = at
        for outer in range(at - 1, -1, -1):
            outer_function, outer_path, _ = frames[outer]
            found = _bucket_of(outer_path, outer_function)
            if found == "domain":
                entry = outer
            elif found is not None:
                break
        called = frames[entry][0].rsplit(".", 1)[-1]  # `Composed.view` → `view`
        return "views" if called in _DOMAIN_VIEWS else "rules"
    return "other"


@dataclass
class Sampled:
    """One transport's phases: the samples by bucket and by function (self time), the moves
    made and the worker's CPU while sampled, and each phase's buckets."""

    buckets: Counter[str] = field(default_factory=Counter)
    own: Counter[str] = field(default_factory=Counter)
    """Samples by their innermost frame (self time), by function; a coroutine's at an `await`
    apart (`… at an await`: its task switching)."""
    moves: int = 0
    cpu_s: float = 0.0
    phases: list[tuple[int, Counter[str], float]] = field(default_factory=list)
    """Each phase's moves, samples by bucket, and worker CPU."""
    problems: list[str] = field(default_factory=list)
    awaits: Callable[[str, int], bool] | None = None
    """Tells an `await` line (`Awaits`), for `bucket`."""
    waited_s: float = 0.0
    """How long the worker waited for a core while sampled (/proc schedstat): py-spy counts
    that time busy, where the worker stood (after a wakeup: the loop; after a write that woke
    its reader: the write)."""

    def add(self, raw: str, moves: int, cpu_s: float) -> None:
        """A phase's samples in py-spy's raw format (`frame;frame;… count`)."""
        found: Counter[str] = Counter()
        for line in raw.splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            frames = stack.split(";")
            found[bucket(frames, self.awaits)] += int(count)
            function, path, at = frame_of(frames[-1])
            switch = self.awaits is not None and self.awaits(path, at)
            name = f"{function} ({path.lstrip('/')}){' at an await' if switch else ''}"
            self.own[name] += int(count)
        self.buckets += found
        self.moves += moves
        self.cpu_s += cpu_s
        self.phases.append((moves, found, cpu_s))

    def us(self, samples: float, rate: int) -> float:
        """µs a move of `samples` samples at `rate` a second."""
        return samples / rate / self.moves * 1e6 if self.moves else 0.0

    def figures(self, rate: int, top: int) -> dict[str, Any]:
        """The buckets' µs a move (sampled, and as a share of the worker's CPU), each phase's,
        the sampled total, the worker's CPU a move and the `top` functions by self time."""
        total = sum(self.buckets.values())
        cpu_us = self.cpu_s / self.moves * 1e6 if self.moves else 0.0
        share = {name: self.buckets[name] / total if total else 0.0 for name in BUCKETS}
        phases = [
            {name: samples[name] / rate / moves * 1e6 if moves else 0.0 for name in BUCKETS}
            for moves, samples, _ in self.phases
        ]
        functions = [
            (name, self.us(n, rate), n / total * cpu_us if total else 0.0)
            for name, n in self.own.most_common(top)
        ]
        return {
            "moves": self.moves,
            "samples": total,
            "sampled_us_per_move": self.us(total, rate),
            "cpu_us_per_move": cpu_us,
            "waited_us_per_move": self.waited_s / self.moves * 1e6 if self.moves else 0.0,
            "buckets_us_per_move": {name: self.us(self.buckets[name], rate) for name in BUCKETS},
            "buckets_cpu_us_per_move": {name: share[name] * cpu_us for name in BUCKETS},
            "phases_us_per_move": phases,
            "top_self": functions,
            "problems": self.problems[:5],
        }


def schedstat(pid: int) -> tuple[float, float]:
    """Seconds process `pid`'s threads have run, and waited on a run queue for a core, so far
    (/proc/<pid>/task/<tid>/schedstat; zeros where there is none)."""
    ran = waited = 0
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError, ValueError):
                fields = (task / "schedstat").read_text().split()
                ran, waited = ran + int(fields[0]), waited + int(fields[1])
    return ran / 1e9, waited / 1e9


@contextlib.asynccontextmanager
async def watched(
    pid: int, inner: AbstractAsyncContextManager[object], waits: list[float]
) -> AsyncIterator[None]:
    """`inner` entered; the seconds process `pid` waited for a core meanwhile appended to
    `waits` on leaving."""
    _, before = schedstat(pid)
    async with inner:
        yield
    waits.append(schedstat(pid)[1] - before)


def pin(pid: int, cores: set[int]) -> None:
    """Every thread of process `pid` on `cores`."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            os.sched_setaffinity(int(task.name), cores)


def cores_for_worker() -> tuple[set[int], set[int]] | None:
    """A core of its own for the worker (the last this process may use), and the rest for the
    generator, Redis and py-spy; None with fewer than two."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return None
    return {cores[-1]}, set(cores[:-1])


async def profile(
    repo: Path,
    transports: list[str],
    tables: int,
    rounds: int,
    seconds: float,
    rate: int,
    keep: Path | None,
    pinned: bool = True,
    options: tuple[str, ...] = SAMPLING,
) -> dict[str, Sampled]:
    """`rounds` phases of each transport, in turns, on one worker of `repo`, each sampled with
    py-spy's `options`; `pinned`: the worker on a core of its own (`cores_for_worker`), where
    there are two."""
    awaits = Awaits(repo)
    found = {name: Sampled(awaits=awaits) for name in transports}
    split = cores_for_worker() if pinned else None
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(Path(data) / "redis", None, "--appendonly", "no") as redis,
    ):
        service = Service(redis.url, 1, repo.resolve())
        try:
            await service.ready()
            if split is not None:
                own, rest = split
                pin(service.process.pid, own)
                pin(os.getpid(), rest)  # the generator, and py-spy started from it
                if redis.process is not None:
                    pin(redis.process.pid, rest)
            await warm_up(service.port)
            stats = await follow.RedisStats(redis.port).open()
            try:
                for turn in range(rounds):
                    for name in transports if turn % 2 == 0 else transports[::-1]:
                        output = Path(data) / f"{name}-{turn}.txt"
                        pid = service.process.pid
                        waits: list[float] = []
                        attached = watched(
                            pid, sampled(pid, rate, output, "py-spy", options), waits
                        )
                        phase = await play(
                            service, redis, stats, tables, seconds, _WORKLOADS[name], attached
                        )
                        found[name].problems += phase.refused + phase.lost
                        found[name].add(output.read_text(), phase.moves, phase.service_cpu_s)
                        found[name].waited_s += sum(waits)
                        if keep is not None:
                            keep.mkdir(parents=True, exist_ok=True)
                            shutil.copy(output, keep / f"{name}-round{turn + 1}.txt")
            finally:
                stats.close()
        finally:
            service.stop()
    return found


def floor_of(repo: Path, repeats: int = 7) -> dict[str, float] | str:
    """The floor (benchmarks/floor.py) with `repo`'s service code, in a process of its own;
    why not, when that code cannot run it."""
    env = dict(os.environ)
    if repo.resolve() != ROOT:
        paths = [repo.resolve() / "services" / "kronikas" / "src", ROOT]
        env["PYTHONPATH"] = os.pathsep.join(str(path) for path in paths)
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.floor", "--json", "--repeats", str(repeats)],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "it failed"
    figures: dict[str, float] = json.loads(done.stdout)
    return figures


def report(
    repo: Path,
    figures: dict[str, dict[str, Any]],
    floor: dict[str, float] | str,
    tables: int,
    rounds: int,
    seconds: float,
    rate: int,
) -> str:
    lines = [
        f"{repo.resolve()}: one worker, {tables} table(s), {rounds} phase(s) of {seconds:g} s "
        f"each transport, py-spy at {rate} Hz (no --native: C time counts for its Python caller)"
    ]
    for name, found in figures.items():
        lines += [
            "",
            f"{name}: {found['moves']:,} moves, {found['samples']:,} samples; the worker's CPU "
            f"{found['cpu_us_per_move']:.1f} µs a move, its wait for a core "
            f"{found['waited_us_per_move']:.1f} µs a move; sampled busy "
            f"{found['sampled_us_per_move']:.1f} µs a move",
            f"  {'µs a move':>10} {'of CPU':>8}  {'phases':<20} bucket",
        ]
        for key, title in BUCKETS.items():
            each = ", ".join(f"{p[key]:.0f}" for p in found["phases_us_per_move"])
            lines.append(
                f"  {found['buckets_us_per_move'][key]:10.1f} "
                f"{found['buckets_cpu_us_per_move'][key]:8.1f}  {each:<20} {title}"
            )
        lines.append(f"  the {len(found['top_self'])} functions with the most self time:")
        lines += [
            f"  {us:10.1f} {of_cpu:8.1f}  {function}" for function, us, of_cpu in found["top_self"]
        ]
        if found["problems"]:
            lines.append(f"  refused or lost: {found['problems']}")
    lines.append("")
    if isinstance(floor, str):
        lines.append(f"move floor: not measured with that code ({floor})")
    else:
        parts = ", ".join(
            f"{name} {floor[f'move_floor_{name}_us']:.1f}"
            for name in ("decide", "evolve", "views", "events", "encode", "glue")
        )
        lines.append(
            f"move floor (benchmarks/floor.py, in-process): {floor['move_floor_us']:.1f} µs a "
            f"move ({parts})"
        )
        for name, found in figures.items():
            whole, least = found["cpu_us_per_move"], floor["move_floor_us"]
            served = sum(found["buckets_cpu_us_per_move"][key] for key in FLOOR_BUCKETS)
            lines.append(
                f"  {name}: the worker's CPU a move, {whole:.1f} µs, is {whole / least:.1f}× the "
                f"floor; {whole - least:.1f} µs beyond it. The floor's work as served (rules, "
                f"views, encoding): {served:.1f} µs of CPU"
            )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument(
        "--transport",
        choices=list(_WORKLOADS),
        action="append",
        help="the seats' transport (again for both, in turns); default: socket",
    )
    parser.add_argument("--tables", type=int, default=follow.TABLES)
    parser.add_argument("--rounds", type=int, default=3, help="phases of each transport")
    parser.add_argument("--seconds", type=float, default=6.0, help="length of a phase")
    parser.add_argument("--rate", type=int, default=400, help="samples a second (250–500)")
    parser.add_argument("--top", type=int, default=5, help="functions listed by self time")
    parser.add_argument("--keep", type=Path, help="a folder for each phase's raw samples")
    parser.add_argument("--output", type=Path, help="the figures as JSON, here")
    parser.add_argument(
        "--floor-repeats", type=int, default=7, help="passes of the floor's moves (median)"
    )
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="leave the worker where the scheduler puts it (by default it has a core of its own)",
    )
    parser.add_argument(
        "--nonblocking",
        action="store_true",
        help="py-spy reads the worker without pausing it (it drops samples of running code)",
    )
    parser.add_argument(
        "--no-gil",
        dest="gil",
        action="store_false",
        help="count samples without the GIL too (a worker woken and waiting for a core)",
    )
    args = parser.parse_args()
    transports = args.transport or ["socket"]
    options = tuple(
        option
        for option, kept in (("--nonblocking", args.nonblocking), ("--gil", args.gil))
        if kept
    )
    sampled_ = uvloop.run(
        profile(
            args.repo,
            transports,
            args.tables,
            args.rounds,
            args.seconds,
            args.rate,
            args.keep,
            args.pin,
            options,
        )
    )
    figures = {name: found.figures(args.rate, args.top) for name, found in sampled_.items()}
    floor = floor_of(args.repo, args.floor_repeats)
    print(report(args.repo, figures, floor, args.tables, args.rounds, args.seconds, args.rate))
    if args.output is not None:
        whole = {"repo": str(args.repo.resolve()), "rate": args.rate, "transports": figures}
        args.output.write_text(json.dumps(whole | {"floor": floor}, indent=2) + "\n")


if __name__ == "__main__":
    main()
