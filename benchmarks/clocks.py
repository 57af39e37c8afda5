"""A figure, not a test: what the turn clocks cost when 10,000 tables have them running (issue 16).

Makes two-seat Cheat tables with `turn_seconds` 60 on a bundled Redis, through the use cases on
the Redis store (one process, in this one), each started and waiting for its first move. Then:

- **idle**: a process's look for due deadlines while none is due (every table armed): what one
  look costs, made four times a second by every process;
- **due**: the process's clock is moved past every deadline and its clocks act on all of them, as
  after a pause of the whole service: each table's seat is marked away and the house plays its
  move, one append each. Per due table: the Redis calls the service made (a script call counts
  once), the commands Redis ran (`INFO commandstats`, which counts those inside scripts too),
  Redis's CPU and the service's CPU.

    uv run python -m benchmarks.clocks [--tables 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from typing import Any

from redis.asyncio import Redis

from benchmarks.follow import script_commands
from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import DEADLINES, RedisStores
from kronikas.adapters.memory import MemoryChangeFeed
from kronikas.adapters.randomness import for_table
from kronikas.application.engines import service_games
from kronikas.application.games import Games
from kronikas.application.house import now_ms
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions

TURN_SECONDS = 60


async def _stats(redis: Redis) -> tuple[dict[str, int], float]:
    """The commands Redis ran so far, by name (less INFO), and its CPU seconds."""
    commands: dict[str, Any] = await redis.info("commandstats")
    cpu: dict[str, Any] = await redis.info("cpu")
    ran = {
        name.removeprefix("cmdstat_").lower(): int(s["calls"])
        for name, s in commands.items()
        if name != "cmdstat_info"
    }
    return ran, float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])


def _delta(before: dict[str, int], after: dict[str, int]) -> tuple[int, int]:
    """Between two `_stats`: the calls the service sent (a script call counts once, as the
    scripts' own commands do not) and all the commands Redis ran. The two INFO calls of a
    `_stats` are left out by `_stats` itself."""
    ran = {name: n - before.get(name, 0) for name, n in after.items()}
    scripted = script_commands()
    sent = sum(n for name, n in ran.items() if name in ("evalsha", "eval") or name not in scripted)
    return sent, sum(ran.values())


async def run(url: str, tables: int, echo: Any = print) -> dict[str, float]:
    redis = Redis.from_url(url)
    monitor = Redis.from_url(url)
    frozen: int | None = None
    settings = Settings(redis_url=url, log_level="CRITICAL", rate_per_s=0, open_per_min=10**6)
    games = Games(
        RedisStores(redis),
        MemoryChangeFeed(),
        for_table,
        settings,
        service_games(),
        lambda: now_ms() if frozen is None else frozen,
    )
    options = CheatOptions(turn_seconds=TURN_SECONDS)
    started = time.perf_counter()
    for _ in range(tables):
        created = await games.create("cheat", options, None)
        game_id = created.split(b'"id":"', 1)[1][:16].decode()
        host = created.split(b'"host_token":"', 1)[1].split(b'"', 1)[0].decode()
        await games.join(game_id, "Ilona")
        await games.join(game_id, "Kázmér")
        await games.start(game_id, host)
    echo(
        f"{tables} Cheat tables with a {TURN_SECONDS} s clock, each waiting for its first move "
        f"(made in {time.perf_counter() - started:.0f} s); deadlines armed: "
        f"{await monitor.zcard(DEADLINES)}"
    )

    looks = 200
    ran0, cpu0 = await _stats(monitor)
    spent0 = time.process_time()
    for _ in range(looks):
        assert await games.clocks.tick() == 0
    ran1, cpu1 = await _stats(monitor)
    calls, ran = _delta(ran0, ran1)
    idle = {
        "clocks_idle_redis_commands_per_look": ran / looks,
        "clocks_idle_redis_cpu_us_per_look": (cpu1 - cpu0) / looks * 1e6,
        "clocks_idle_service_cpu_us_per_look": (time.process_time() - spent0) / looks * 1e6,
        "clocks_idle_service_calls_per_look": calls / looks,
    }

    # Just past the first deadline of the last table made: each table's first deadline is due,
    # and none that acting arms (60 s after it acted, later than that).
    frozen = now_ms() + TURN_SECONDS * 1000
    ran0, cpu0 = await _stats(monitor)
    spent0, wall0 = time.process_time(), time.perf_counter()
    acted = 0
    while taken := await games.clocks.tick():
        acted += taken
    wall = time.perf_counter() - wall0
    ran1, cpu1 = await _stats(monitor)
    calls, ran = _delta(ran0, ran1)
    due = {
        "clocks_due_tables": float(acted),
        "clocks_due_service_calls_per_table": calls / acted,
        "clocks_due_redis_commands_per_table": ran / acted,
        "clocks_due_redis_cpu_us_per_table": (cpu1 - cpu0) / acted * 1e6,
        "clocks_due_service_cpu_us_per_table": (time.process_time() - spent0) / acted * 1e6,
        "clocks_due_tables_per_s": acted / wall,
    }
    still = await monitor.zcard(DEADLINES)
    echo(
        f"idle, a look for due deadlines ({looks} looks, none due): "
        f"{idle['clocks_idle_service_calls_per_look']:.0f} call, "
        f"{idle['clocks_idle_redis_commands_per_look']:.1f} Redis commands, "
        f"Redis {idle['clocks_idle_redis_cpu_us_per_look']:.0f} µs, "
        f"service {idle['clocks_idle_service_cpu_us_per_look']:.0f} µs"
    )
    echo(
        f"due, {acted} timed-out turns acted on (seat_away + the house's move each), "
        f"{due['clocks_due_tables_per_s']:.0f} a second: per table "
        f"{due['clocks_due_service_calls_per_table']:.2f} service calls, "
        f"{due['clocks_due_redis_commands_per_table']:.1f} Redis commands, "
        f"Redis {due['clocks_due_redis_cpu_us_per_table']:.0f} µs, "
        f"service {due['clocks_due_service_cpu_us_per_table']:.0f} µs; "
        f"deadlines armed after: {still}"
    )
    await redis.aclose()
    await monitor.aclose()
    return idle | due


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=10_000)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        asyncio.run(run(redis.url, args.tables))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
