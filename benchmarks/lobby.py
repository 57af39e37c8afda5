"""A figure, not a test: what a lobby page costs with 100,000 tables (issue 14, item 4).

Fills a bundled Redis with tables of both kinds in every status (their meta and the lobby's
indexes, written in bulk), then times pages of `RedisLobby.page` and counts the commands
Redis ran for each (`INFO commandstats`, which counts the commands inside scripts too). Beside
each figure, the same page by the lobby of earlier versions: one sorted set of every table,
scanned newest first 200 at a time, each table's meta read to filter it in Python.

    uv run python -m benchmarks.lobby [--tables 100000] [--repeat 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.lobby import LOBBY_INDEXES, SummaryRecord, list_in
from kronikas.adapters.scripts import game_keys
from kronikas.application.ports import AppendRequest, Summary

OLD_KEY = "bench:old-lobby"
"""The earlier versions' one sorted set (id -> created_ms), under a name the store won't adopt."""
KINDS = ("cheat", "thirty_one")
MIX = (("open", 10), ("playing", 30), ("finished", 60))
"""The share of tables in each status, in percent."""
PAGES = (
    ("every table, first page", None, None, 0),
    ("every table, offset 1,000", None, None, 1_000),
    ("open Thirty-One, first page", "thirty_one", "open", 0),
    ("open Thirty-One, offset 1,000", "thirty_one", "open", 1_000),
    ("open Thirty-One, past the end", "thirty_one", "open", 100_000),
)
SLUGS = {
    "every table, first page": "all_first",
    "every table, offset 1,000": "all_offset_1000",
    "open Thirty-One, first page": "open_thirty_one_first",
    "open Thirty-One, offset 1,000": "open_thirty_one_offset_1000",
    "open Thirty-One, past the end": "open_thirty_one_past_end",
    "create (append + register)": "create",
    "append, status unchanged": "append_same_status",
    "append, open -> playing": "append_new_status",
}
"""The names of the pages and writes in `figures` (bench-results.json's `lobby_*` keys)."""
LIMIT = 20

Lobby = Callable[[str | None, str | None, int, int], Awaitable[tuple[list[Summary], bool]]]


async def fill(redis: Redis, tables: int) -> dict[tuple[str, str], int]:
    """`tables` tables one millisecond apart, the newest now; the count of each kind and status."""
    rng = random.Random(14)
    statuses = [s for s, share in MIX for _ in range(share)]
    base = int(time.time() * 1000) - tables
    counts: dict[tuple[str, str], int] = {}
    pipe = redis.pipeline(transaction=False)
    for i in range(tables):
        game = f"{i:016x}"
        kind, status = rng.choice(KINDS), rng.choice(statuses)
        counts[kind, status] = counts.get((kind, status), 0) + 1
        created_ms = base + i
        meta = game_keys(game)["meta"]
        record = msgspec.json.encode(SummaryRecord(kind, status, 2, created_ms))
        pipe.hset(meta, mapping={"version": 10, "summary": record, "listed": status})
        pipe.expire(meta, 86_400)
        list_in(pipe, game, kind, status, created_ms * 1024 + 1)
        pipe.zadd(OLD_KEY, {game: created_ms})
        if i % 2_000 == 1_999:
            await pipe.execute()
    await pipe.execute()
    return counts


def old_lobby(redis: Redis) -> Lobby:
    """The lobby of earlier versions, as it was, on `OLD_KEY`."""

    async def lobby(
        kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        found: list[Summary] = []
        skipped = start = 0
        while True:
            ids: list[Any] = await redis.zrevrange(OLD_KEY, start, start + 199)
            if not ids:
                return found, False
            start += len(ids)
            pipe = redis.pipeline(transaction=False)
            for game in ids:
                pipe.hmget(game_keys(game.decode())["meta"], ["summary", "version"])
            for game, (raw, version) in zip(ids, await pipe.execute(), strict=True):
                if raw is None:
                    continue
                rec = msgspec.json.decode(raw, type=SummaryRecord)
                if (kind and rec.kind != kind) or (status and rec.status != status):
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                if len(found) == limit:
                    return found, True
                found.append(
                    Summary(game.decode(), rec.kind, rec.status, 2, rec.created_ms, int(version))
                )

    return lobby


async def commands(redis: Redis) -> int:
    """The commands Redis ran so far, leaving out INFO (which this asks with)."""
    stats: dict[str, Any] = await redis.info("commandstats")
    return sum(s["calls"] for name, s in stats.items() if name != "cmdstat_info")


async def measure(
    redis: Redis, lobby: Lobby, kind: str | None, status: str | None, offset: int, repeat: int
) -> tuple[float, float, int]:
    """Median ms per page, Redis commands per page, and the tables on the page."""
    page, _ = await lobby(kind, status, offset, LIMIT)  # warm: connections, scripts
    took: list[float] = []
    before = await commands(redis)
    for _ in range(repeat):
        started = time.perf_counter()
        await lobby(kind, status, offset, LIMIT)
        took.append(time.perf_counter() - started)
    ran = await commands(redis) - before
    return statistics.median(took) * 1000, ran / repeat, len(page)


async def run(
    url: str, tables: int, repeat: int, echo: Callable[[str], object] = print
) -> dict[str, float]:
    """Print the figures (to `echo`), and return them by name (`SLUGS`)."""
    redis = Redis.from_url(url)
    found: dict[str, float] = {"lobby_tables": tables}
    try:
        started = time.perf_counter()
        counts = await fill(redis, tables)
        echo(
            f"{tables:,} tables written in {time.perf_counter() - started:.1f} s; "
            + ", ".join(f"{k} {s} {n:,}" for (k, s), n in sorted(counts.items()))
        )
        names = [n.decode() for n in await redis.smembers(LOBBY_INDEXES)]
        now_mb = sum([await redis.memory_usage(n, samples=0) or 0 for n in names]) / 2**20
        old_mb = (await redis.memory_usage(OLD_KEY, samples=0) or 0) / 2**20
        echo(f"lobby memory: {len(names)} indexes {now_mb:.1f} MB; before, one set {old_mb:.1f} MB")
        found |= {"lobby_indexes_mib": now_mb, "lobby_old_index_mib": old_mb}
        store = RedisStores(redis)
        old = old_lobby(redis)
        echo(f"a page of {LIMIT}, median of {repeat}; Redis commands a page (INFO commandstats)")
        echo(f"{'page':<32}{'now ms':>9}{'cmds':>7}{'before ms':>11}{'cmds':>8}{'tables':>8}")
        for title, kind, status, offset in PAGES:
            new_ms, new_cmds, shown = await measure(
                redis, store.lobby.page, kind, status, offset, repeat
            )
            old_ms, old_cmds, old_shown = await measure(
                redis, old, kind, status, offset, max(3, repeat // 5)
            )
            assert shown == old_shown, (title, shown, old_shown)
            slug = SLUGS[title]
            found |= {
                f"lobby_page_ms_{slug}": new_ms,
                f"lobby_commands_per_page_{slug}": new_cmds,
                f"lobby_old_page_ms_{slug}": old_ms,
                f"lobby_old_commands_per_page_{slug}": old_cmds,
            }
            echo(
                f"{title:<32}{new_ms:>9.2f}{new_cmds:>7.0f}{old_ms:>11.2f}{old_cmds:>8.0f}"
                f"{shown:>8}"
            )
        echo(f"{'a write, mean of ' + str(repeat * 10):<32}{'ms':>9}{'cmds':>7}")
        found |= await writes(redis, store, repeat * 10, echo)
    finally:
        await redis.aclose()
    return found


async def writes(
    redis: Redis, store: RedisStores, tables: int, echo: Callable[[str], object] = print
) -> dict[str, float]:
    """What the indexes cost the writes: creating a table, and appends that keep or move it."""
    ids = [f"new-{i}" for i in range(tables)]

    async def create(game: str) -> None:
        now = int(time.time() * 1000)
        summary = Summary(game, "cheat", "open", 0, now, 0)
        await store.log.append(AppendRequest(game, 0, [b"{}"], summary, 3600))
        await store.lobby.register(game, now)

    def append(version: int, status: str) -> Callable[[str], Awaitable[Any]]:
        def one(game: str) -> Awaitable[Any]:
            summary = Summary(game, "cheat", status, 2, 0, 0)
            return store.log.append(AppendRequest(game, version, [b"{}"], summary, 3600))

        return one

    steps = (
        ("create (append + register)", create),
        ("append, status unchanged", append(1, "open")),
        ("append, open -> playing", append(2, "playing")),
    )
    found: dict[str, float] = {}
    for title, step in steps:
        before, started = await commands(redis), time.perf_counter()
        for game in ids:
            await step(game)
        took = (time.perf_counter() - started) / tables * 1000
        ran = (await commands(redis) - before) / tables
        found |= {
            f"lobby_write_ms_{SLUGS[title]}": took,
            f"lobby_write_commands_{SLUGS[title]}": ran,
        }
        echo(f"{title:<32}{took:>9.2f}{ran:>7.1f}")
    return found


async def figures(tables: int = 100_000, repeat: int = 20) -> dict[str, float]:
    """The figures of `main`, by name, printing nothing: on a bundled Redis of their own."""
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        return await run(redis.url, tables, repeat, echo=lambda line: None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--tables", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        asyncio.run(run(redis.url, args.tables, args.repeat))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
