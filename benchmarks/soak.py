"""The soak (issue 43, item 4): 2,000 seats playing over seat sockets for half an hour.

`--seats` / 2 two-seat Cheat tables (1,000 by default, each of 1 to 3 rounds) are played on a
service of two workers (`WORKERS=2`, every limit lifted: benchmarks/served.py) and a bundled
Redis, each seat on its own seat socket exactly as in benchmarks/socket_follow.py (it learns its
turn from what its socket pushes and moves with `if_match`), but slowly: a seat thinks 1–2 s
(1.5 s on average) before each move, so that the machine is far from saturated and what is
measured is what time does to the service, not its ceiling. The tables begin over a round's
length (`SoakPhase.go`), so that they end a few at a time from the first window on. A table that
ends is replaced by a
new one (a fresh table dealt in its slot, its seats on fresh sockets), so finished tables pile up
in Redis as they do in production, each with the keys' time to live of a finished game
(`FINISHED_GAME_TTL_S`).

Every `--sample-s` it takes moves/s, the push delay (writing a move to the other seat's socket
delivering it) p50/p99, the resident memory of each process (the two workers, the supervisor,
Redis, this generator) and Redis's own `used_memory`, and their CPU; each worker records its
collector's passes (benchmarks/gc_pauses.py). At the end: the push p99 of the first and the last
five minutes (a sixth of the run each when it is shorter than 30 minutes) and their ratio
(target ≤ 1.2); each process's memory growth from the end of that first window (the warm-up) to
the end (target < 5%), and over the second half (each worker holds up to 4,096 tables' folds,
application/folds.py, finished ones among them: the cache fills in the first six or seven
minutes, and until then it is the workers' largest growth); Redis's memory per finished table
(its growth over the tables finished meanwhile, and `MEMORY USAGE` of a sample of finished
tables' keys); whether every finished table's keys carry a TTL, and which keys in Redis carry
none; each worker's GC passes in the first and last windows and in all (`soak_gc_first`,
`_last`, `_all`: by generation, the passes and their CPU max/p99/p50 in ms, as the thread's CPU
time, which the machine's load does not stretch). The figures are printed and written to
`soak-results.json`, with PNG plots of moves/s, push delay and memory over time beside it
(`soak-results-moves.png`, `-push.png`, `-memory.png`).

The load generator is one process: callbacks on `asyncio.Protocol`s and websockets' sans-IO
client, no task or future a move (socket_follow.py); its CPU share is reported.

    make soak                        # 30 minutes
    make soak ARGS="--minutes 3"     # shorter
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

import uvloop
from redis.asyncio import Redis

from benchmarks import follow, gc_pauses, socket_follow
from benchmarks.commands import warm_up
from benchmarks.connection import Connection
from benchmarks.crowd import raise_fd_limit, rss_mib
from benchmarks.served import Service, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.scripts import game_keys

SEATS = 2_000
MINUTES = 30.0
THINK_S = 1.5
"""A seat's mean think time before each move: it thinks from 2/3 to 4/3 of it, at random (1–2 s
by default)."""
ROUNDS = 2
"""Rounds a Cheat table plays on average (a round of two seats playing a card a turn is about 33
moves, some 50 s at 1.5 s a move): each table plays from 1 to 2 × ROUNDS - 1 rounds, at random,
so that tables end, and are replaced, all the time rather than all together."""
WINDOW_S = 300.0
"""The first and last windows compared (five minutes; a sixth of a shorter run)."""
OPENING = 8
"""Tables dealt at once while the soak opens."""
MOVES_A_ROUND = 33
"""About how many moves a round of two seats takes (a card a turn)."""
KEPT_FINISHED = 200
"""Finished tables whose ids are kept, for the TTL check and `MEMORY USAGE`."""


def workers_of(pid: int) -> list[int]:
    """The service's workers: the supervisor's children that multiprocessing spawned (not its
    resource tracker), from /proc."""
    try:
        children = [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []
    found = []
    for child in children:
        try:
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                found.append(child)
        except OSError:
            continue
    return sorted(found)


def _q(samples: list[float], q: float) -> float:
    """A quantile, in ms."""
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


# -- the generator --------------------------------------------------------------------------------


class SoakSeat(socket_follow.SocketSeat):
    """A socket seat that tells the phase when its table's match ended."""

    def event(self, version: int, kind: bytes, data: bytes) -> None:
        if kind == b"cheat.match_ended" and not self.table.over:
            phase = self.table.phase
            assert isinstance(phase, SoakPhase)
            phase.ended(self.table.game_id)
        super().event(version, kind, data)


class SoakSlot(socket_follow.SocketSlot):
    """A place for one table at a time; each table is dealt on a connection of its own, closed
    once it is dealt (a table plays for minutes, longer than the server keeps an idle
    connection)."""

    async def open(self) -> SoakSlot:
        return self

    async def deal(self) -> follow.Table:
        self.setup = await Connection(self.phase.port).open()
        try:
            table, tokens = await self.seated()
        finally:
            self.setup.close()
        port = self.phase.port
        seats = [SoakSeat(table, index, token, port) for index, token in enumerate(tokens)]
        table.seats.extend(seats)
        loop = asyncio.get_running_loop()
        for seat in seats:
            await loop.create_connection(lambda s=seat.socket: s, "127.0.0.1", port)
        return table

    async def seated(self) -> tuple[follow.Table, list[str]]:
        """A new table of the phase's rounds, created, joined by two players and started."""
        conn, phase = self.setup, self.phase
        assert isinstance(phase, SoakPhase)
        rounds = phase.random.randint(1, 2 * phase.rounds - 1)
        options = {"kind": "cheat", "options": {"rounds": rounds}}
        status, created = await conn.request("POST", "/v1/games", options)
        if status != 201:
            raise RuntimeError(f"create refused: {status} {created}")
        game_id, host = created["game"]["id"], created["host_token"]
        table = self.table = follow.Table(phase, self, game_id)
        tokens = []
        for name in ("A", "B"):
            path = f"/v1/games/{game_id}/players"
            status, joined = await conn.request("POST", path, {"name": name})
            if status != 201:
                raise RuntimeError(f"join refused: {status} {joined}")
            tokens.append(joined["token"])
        status, started = await conn.request("POST", f"/v1/games/{game_id}/start", token=host)
        if status != 200:
            raise RuntimeError(f"start refused: {status} {started}")
        return table, tokens

    def close(self) -> None:
        if self.table is not None:
            self.table.over = True
            for seat in self.table.seats:
                if seat.stream is not None:
                    seat.stream.close()


class SoakPhase(socket_follow.SocketPhase):
    """The socket follow workload with a think time before each move, tables dealt
    `OPENING` at a time, and the tables that ended counted."""

    def __init__(
        self, port: int, tables: int, rounds: int = ROUNDS, think_s: float = THINK_S
    ) -> None:
        super().__init__(port, tables)
        self.rounds = rounds
        self.think = (think_s * 2 / 3, think_s * 4 / 3)
        self.loop = asyncio.get_running_loop()
        self.random = random.Random(43)
        self.finished = 0
        self.finished_ids: collections.deque[str] = collections.deque(maxlen=KEPT_FINISHED)

    def slot(self) -> follow.Slot:
        return SoakSlot(self)

    async def open(self) -> None:
        limit = asyncio.Semaphore(OPENING)

        async def one() -> follow.Table:
            async with limit:
                slot = await self.slot().open()
                self.slots.append(slot)
                return await slot.deal()

        tables = await asyncio.gather(*(one() for _ in range(self.tables)))
        async with asyncio.timeout(60):
            await asyncio.gather(*(t.ready for t in tables))

    def ended(self, game_id: str) -> None:
        self.finished += 1
        self.finished_ids.append(game_id)

    def go(self) -> None:
        """The tables' first moves spread over a round's length (`MOVES_A_ROUND` think times),
        so that tables end, and new ones are dealt, as they will later: a few at a time. Begun
        together, the tables of one round ended together (313 within ten seconds, 50 s in) and
        their replacements were dealt together, waves that the first window's p99 measured
        and no later one has."""
        self.going = True
        pending, self.pending = self.pending, []
        spread = MOVES_A_ROUND * (self.think[0] + self.think[1]) / 2
        starts: dict[int, float] = {}
        for seat, request, version in pending:
            start = starts.setdefault(id(seat.table), self.random.uniform(0.0, spread))
            delay = start + self.random.uniform(0.0, self.think[1])
            self.loop.call_later(delay, self._move, seat, request, version)

    def send(self, seat: follow.Seat, request: bytes, version: int) -> None:
        if self.stopping or seat.table.over or not self.going:
            super().send(seat, request, version)  # dropped, or kept until `go()`
            return
        think = self.random.uniform(*self.think)
        self.loop.call_later(think, self._move, seat, request, version)

    def _move(self, seat: follow.Seat, request: bytes, version: int) -> None:
        if not self.stopping and not seat.table.over:
            super().send(seat, request, version)


# -- the samples --------------------------------------------------------------------------------


class Sampler:
    """Every `every` seconds: the play's rate and push delays since the last sample, and each
    process's memory and CPU."""

    def __init__(
        self, phase: SoakPhase, service: Service, redis: EmbeddedRedis, client: Redis, window: float
    ) -> None:
        self.phase, self.service, self.client, self.window = phase, service, client, window
        self.redis_pid = redis.process.pid if redis.process else 0
        self.samples: list[dict[str, Any]] = []
        self.first: list[float] = []
        """The push delays of the first window."""
        self.last: collections.deque[tuple[float, list[float]]] = collections.deque()
        """The push delays of the samples of the last window (so far)."""
        self.start = time.perf_counter()
        self.moves = phase.moves
        self.cpu = self._cpu()
        self.at = self.start

    def _cpu(self) -> dict[str, float]:
        cpu = {f"worker {i + 1}": cpu_seconds(p) for i, p in enumerate(self.workers())}
        cpu["redis"] = cpu_seconds(self.redis_pid)
        cpu["generator"] = time.process_time()
        return cpu

    def workers(self) -> list[int]:
        return workers_of(self.service.process.pid)

    async def take(self) -> dict[str, Any]:
        now = time.perf_counter()
        t = now - self.start
        wall = now - self.at
        phase = self.phase
        delays, phase.delays = phase.delays, []
        if t <= self.window:
            self.first += delays
        self.last.append((t, delays))
        while self.last and self.last[0][0] < t - self.window:
            self.last.popleft()
        rss = {f"worker {i + 1}": rss_mib(p) for i, p in enumerate(self.workers())}
        rss["supervisor"] = rss_mib(self.service.process.pid)
        rss["redis"] = rss_mib(self.redis_pid)
        rss["generator"] = rss_mib(_own_pid())
        memory = await self.client.info("memory")
        cpu = self._cpu()
        shares = {name: (cpu[name] - self.cpu.get(name, cpu[name])) / wall for name in cpu}
        sample = {
            "t_s": round(t, 2),
            "moves_per_s": (phase.moves - self.moves) / wall,
            "pushes": len(delays),
            "push_p50_ms": _q(delays, 0.5),
            "push_p99_ms": _q(delays, 0.99),
            "rss_mib": {name: round(v, 2) for name, v in rss.items()},
            "redis_used_mib": memory["used_memory"] / 2**20,
            "cpu_share": {name: round(v, 4) for name, v in shares.items()},
            "finished_tables": phase.finished,
        }
        self.samples.append(sample)
        self.moves, self.cpu, self.at = phase.moves, cpu, now
        return sample


def _own_pid() -> int:
    return os.getpid()


# -- Redis: memory per finished table, and TTLs ------------------------------------------------


async def ttl_check(client: Redis, finished: list[str], ttl_s: int) -> dict[str, Any]:
    """The TTL of every key of the finished tables kept (each should have one, about `ttl_s`),
    their `MEMORY USAGE`, and the keys in all of Redis that have no TTL, by kind."""
    ttls: list[int] = []
    usage: list[int] = []
    missing = 0
    for game_id in finished:
        keys = list(game_keys(game_id).values())
        async with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.ttl(key)
                pipe.memory_usage(key)
            answers = await pipe.execute()
        table = 0
        for ttl, used in zip(answers[::2], answers[1::2], strict=True):
            if ttl == -2:  # no such key (a table with no auth hash, say)
                continue
            if ttl < 0:
                missing += 1
            ttls.append(ttl)
            table += used or 0
        usage.append(table)
    persistent: collections.Counter[str] = collections.Counter()
    keys_seen = 0
    async for key in client.scan_iter(count=1000):
        keys_seen += 1
        if await client.ttl(key) == -1:
            name = key.decode() if isinstance(key, bytes) else str(key)
            persistent[name.split("}")[-1] if "}" in name else name.rsplit(":", 1)[0]] += 1
    return {
        "finished_tables_checked": len(finished),
        "finished_keys_without_ttl": missing,
        "finished_ttl_min_s": min(ttls) if ttls else None,
        "finished_ttl_max_s": max(ttls) if ttls else None,
        "finished_ttl_expected_s": ttl_s,
        "finished_table_key_kib": statistics.mean(usage) / 1024 if usage else None,
        "redis_keys": keys_seen,
        "redis_keys_without_ttl": dict(persistent.most_common(12)),
    }


# -- the run ------------------------------------------------------------------------------------


async def soak(
    seats: int,
    minutes: float,
    rounds: int = ROUNDS,
    sample_s: float | None = None,
    ttl_s: int = 7 * 24 * 3600,
    think_s: float = THINK_S,
) -> dict[str, Any]:
    """The soak, on a bundled Redis and a two-worker service of its own; its figures."""
    seconds = minutes * 60
    window = WINDOW_S if seconds >= 6 * WINDOW_S else seconds / 6
    every = sample_s or min(10.0, max(1.0, seconds / 90))
    raise_fd_limit()  # before the service starts: it inherits it
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        passes = Path(data) / "gc"
        passes.mkdir()
        settings = {"FINISHED_GAME_TTL_S": str(ttl_s), gc_pauses.DIRECTORY: str(passes)}
        service = Service(redis.url, 2, settings=settings)
        client = Redis(port=redis.port)
        try:
            await service.ready()
            await warm_up(service.port)
            phase = SoakPhase(service.port, seats // 2, rounds, think_s)
            opening = time.perf_counter()
            await phase.open()
            open_s = time.perf_counter() - opening
            sampler = Sampler(phase, service, redis, client, window)
            phase.go()
            began = time.time()
            deadline = sampler.start + seconds
            while (left := deadline - time.perf_counter()) > 0:
                await asyncio.sleep(min(every, left))
                sample = await sampler.take()
                print(
                    f"  {sample['t_s']:7.0f} s  {sample['moves_per_s']:6.0f} moves/s  push p99 "
                    f"{sample['push_p99_ms']:6.1f} ms  workers "
                    + " ".join(
                        f"{v:.0f}" for k, v in sample["rss_mib"].items() if k.startswith("w")
                    )
                    + f" MiB  Redis {sample['redis_used_mib']:.1f} MiB  "
                    f"{sample['finished_tables']} tables finished",
                    flush=True,
                )
            phase.stop()
            ended = time.time()
            await asyncio.sleep(1.5)  # the workers write their last passes down
            collector = {
                f"soak_gc_{name}": gc_pauses.summary(passes, since, until)
                for name, since, until in (
                    ("first", began, began + window),
                    ("last", ended - window, ended),
                    ("all", began, ended),
                )
            }
            try:
                async with asyncio.timeout(30):
                    await phase.done
            except TimeoutError:
                phase.lost.append(f"{phase.in_flight} moves had no answer 30 s after the play")
            checked = await ttl_check(client, list(phase.finished_ids), ttl_s)
            await phase.close()
        finally:
            await client.aclose()
            try:
                service.stop()
            except subprocess.TimeoutExpired:
                service.process.kill()
                service.process.wait()
    return summary(sampler, phase, seconds, window, open_s) | checked | collector


def growth_since(samples: list[dict[str, Any]], since_s: float) -> dict[str, float | None]:
    """Each process's memory growth from the samples at `since_s` (three, averaged) to the last
    three, as a fraction."""
    start = [s for s in samples if s["t_s"] >= since_s][:3] or samples[-3:]
    end = samples[-3:]
    growth: dict[str, float | None] = {}
    for name in samples[-1]["rss_mib"]:
        before = statistics.mean(s["rss_mib"].get(name, 0.0) for s in start)
        after = statistics.mean(s["rss_mib"].get(name, 0.0) for s in end)
        growth[name] = round(after / before - 1, 4) if before else None
    return growth


def summary(
    sampler: Sampler, phase: SoakPhase, seconds: float, window: float, open_s: float
) -> dict[str, Any]:
    """The run's figures from its samples."""
    samples = sampler.samples
    first = _q(sampler.first, 0.99)
    last = _q([d for _, delays in sampler.last for d in delays], 0.99)
    warm = [s for s in samples if s["t_s"] >= window][:3] or samples[-3:]
    end = samples[-3:]
    growth = growth_since(samples, window)
    used_before = statistics.mean(s["redis_used_mib"] for s in warm)
    used_after = statistics.mean(s["redis_used_mib"] for s in end)
    finished = samples[-1]["finished_tables"] - warm[0]["finished_tables"]
    shares = {
        name: statistics.mean(s["cpu_share"][name] for s in samples if name in s["cpu_share"])
        for name in samples[-1]["cpu_share"]
    }
    return {
        "soak_seats": phase.tables * 2,
        "soak_tables": phase.tables,
        "soak_rounds": phase.rounds,
        "soak_think_s": phase.think,
        "soak_minutes": seconds / 60,
        "soak_window_s": window,
        "soak_open_s": open_s,
        "soak_moves": phase.moves,
        "soak_moves_per_s": sum(s["moves_per_s"] for s in samples) / len(samples),
        "soak_push_p99_ms_first": first,
        "soak_push_p99_ms_last": last,
        "soak_push_p99_ratio": last / first if first else None,
        "soak_rss_growth": growth,
        "soak_rss_growth_second_half": growth_since(samples, samples[-1]["t_s"] / 2),
        "soak_rss_mib_warm": {
            n: round(statistics.mean(s["rss_mib"][n] for s in warm), 2) for n in growth
        },
        "soak_rss_mib_end": {
            n: round(statistics.mean(s["rss_mib"][n] for s in end), 2) for n in growth
        },
        "soak_redis_used_mib_warm": used_before,
        "soak_redis_used_mib_end": used_after,
        "soak_finished_tables": samples[-1]["finished_tables"],
        "soak_finished_after_warm_up": finished,
        "soak_redis_kib_per_finished_table": (used_after - used_before) * 1024 / finished
        if finished > 0
        else None,
        "soak_cpu_share": {n: round(v, 4) for n, v in shares.items()},
        "soak_generator_cpu_share": shares.get("generator", 0.0),
        "soak_refused": len(phase.refused),
        "soak_lost": len(phase.lost),
        "soak_problems": (phase.refused + phase.lost)[:5],
        "soak_samples": samples,
    }


def draw(results: dict[str, Any], stem: Path) -> list[str]:
    """Moves/s, push delay and memory over time, each a PNG named after `stem`."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    samples = results["soak_samples"]
    minutes = [s["t_s"] / 60 for s in samples]
    window = results["soak_window_s"] / 60
    written = []

    def save(figure: Any, axes: Any, name: str, ylabel: str, title: str) -> None:
        axes.axvspan(0, window, color="grey", alpha=0.12, label="first window (warm-up)")
        axes.axvspan(minutes[-1] - window, minutes[-1], color="orange", alpha=0.12,
                     label="last window")  # fmt: skip
        axes.set_xlabel("minutes")
        axes.set_ylabel(ylabel)
        axes.set_title(title)
        axes.grid(True, alpha=0.3)
        axes.legend(fontsize="small")
        figure.tight_layout()
        path = stem.with_name(f"{stem.name}-{name}.png")
        figure.savefig(path, dpi=100)
        plt.close(figure)
        written.append(str(path))

    seats = results["soak_seats"]
    figure, axes = plt.subplots(figsize=(8, 4))
    axes.plot(minutes, [s["moves_per_s"] for s in samples], label="moves/s")
    save(figure, axes, "moves", "moves a second", f"Soak: {seats:,} seats, two workers: moves/s")

    figure, axes = plt.subplots(figsize=(8, 4))
    axes.plot(minutes, [s["push_p99_ms"] for s in samples], label="p99")
    axes.plot(minutes, [s["push_p50_ms"] for s in samples], label="p50")
    axes.set_yscale("log")
    save(figure, axes, "push", "push delay, ms", "Soak: push delay to the other seat")

    figure, axes = plt.subplots(figsize=(8, 4.5))
    for name in samples[-1]["rss_mib"]:
        axes.plot(minutes, [s["rss_mib"].get(name) for s in samples], label=f"{name} RSS")
    axes.plot(minutes, [s["redis_used_mib"] for s in samples], "--", label="Redis used_memory")
    save(figure, axes, "memory", "MiB", "Soak: each process's memory")
    return written


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=MINUTES)
    parser.add_argument("--seats", type=int, default=SEATS, help="seats (two a table)")
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="rounds a Cheat table plays")
    parser.add_argument(
        "--think-s", type=float, default=THINK_S, help="a seat's mean think time before a move"
    )
    parser.add_argument("--sample-s", type=float, help="seconds between samples")
    parser.add_argument(
        "--ttl-s", type=int, default=7 * 24 * 3600, help="FINISHED_GAME_TTL_S (the default's)"
    )
    parser.add_argument("--output", default="soak-results.json")
    args = parser.parse_args()
    output = Path(args.output)
    print(f"soak: {args.seats:,} seats on two workers for {args.minutes:g} minutes …", flush=True)
    results = uvloop.run(
        soak(args.seats, args.minutes, args.rounds, args.sample_s, args.ttl_s, args.think_s)
    )
    results["soak_plots"] = draw(results, output.with_suffix(""))
    shown = {k: v for k, v in results.items() if k != "soak_samples"}
    print(json.dumps(shown, indent=2))
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {output} and {', '.join(results['soak_plots'])}")


if __name__ == "__main__":
    main()
