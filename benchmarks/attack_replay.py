"""One keyed move retried hundreds of times at once (issue 38, "a replay costs a stored answer").

A Cheat table of one person and seven house players, grown to about 6,800 events through the
store (the person away and back, again and again: the state each pair leaves is the one before
it), one keyed move over HTTP, then `--replays` identical retries at once from `--addresses`
source addresses (127.0.0.2 and up), at the process that made the move (or, `--elsewhere`, at
a second process that read the table but did not make the move; `--cold`, at one that never
read it). Meanwhile another client
(127.0.0.250) reads another table's view every 50 ms.

Prints, as JSON: the service's CPU seconds over the burst, the retries answered 200 / 429 / 503
/ otherwise, the Redis `LRANGE` calls (log reads) during it, and the other client's read
latencies (p50, p90, max). The service runs with the production default limits, on a Redis of
its own, loopback only; `--repo` serves another checkout's code (e.g. the code before):

    python -m benchmarks.attack_replay [--repo ../before] [--elsewhere]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from redis.asyncio import Redis

from benchmarks.served import Served
from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import RedisStores
from kronikas.application.ports import AppendRequest, Summary
from kronikas.application.wire import Record, encode, utc_text
from kronikas_rules.seating import SeatAway, SeatBack

ROOT = Path(__file__).resolve().parent.parent
LIMITS = (
    "RATE_LIMIT_PER_S",
    "RATE_LIMIT_BURST",
    "OPEN_LIMIT_PER_MIN",
    "READ_LIMIT_PER_S",
    "READ_LIMIT_BURST",
    "STREAMS_PER_TOKEN",
    "STREAMS_PER_ADDRESS",
    "MAX_CONNECTIONS",
)
READER = "127.0.0.250"


async def ok(response: httpx.Response, status: int = 200) -> dict[str, Any]:
    if response.status_code != status:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    body: dict[str, Any] = response.json()
    return body


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def long_table(client: httpx.AsyncClient, redis: Redis, events: int) -> tuple[str, str]:
    """A started table of one person and seven house players, grown past `events` through the
    store; its id and the person's token."""
    options = {"decks": 2, "house_pause_seconds": 0}  # the house reaches the person at once
    created = await ok(
        await client.post("/v1/games", json={"kind": "cheat", "options": options}), 201
    )
    game, host = created["game"]["id"], created["host_token"]
    joined = await ok(await client.post(f"/v1/games/{game}/players", json={"name": "Ilona"}), 201)
    for n in range(7):
        house = {"name": f"House {n + 1}"}
        added = await client.post(f"/v1/games/{game}/house-players", json=house, headers=auth(host))
        await ok(added, 201)
    await ok(await client.post(f"/v1/games/{game}/start", headers=auth(host)))
    for _ in range(600):  # until the house has played up to the person (then nothing moves)
        if (await ok(await client.get(f"/v1/games/{game}")))["turn"] == joined["seat"]:
            break
        await asyncio.sleep(0.05)
    else:
        raise RuntimeError("the house did not reach the person's turn")
    store = RedisStores(redis)
    version = int(await redis.llen(f"kr:{{{game}}}:log"))
    created_ms = int(time.time() * 1000)
    seat = joined["seat"]
    while version < events:
        at = utc_text(int(time.time() * 1000))
        records = [
            encode(Record(v=version + i + 1, at=at, e=SeatBack(seat) if i % 2 else SeatAway(seat)))
            for i in range(min(500, events - version + (events - version) % 2))
        ]
        summary = Summary(game, "cheat", "playing", 8, created_ms, version + len(records))
        result = await store.log.append(AppendRequest(game, version, records, summary, 3600))
        if result.outcome != "ok":
            raise RuntimeError(f"could not grow the table: {result}")
        version = result.version
    await store.aclose()
    return game, joined["token"]


def read_meanwhile(url: str, game: str, stop: Path) -> None:
    """Another client, in a process of its own (so that the attack's own client does not slow
    it): a spectator's view of another table every 50 ms (within its address's read limit)
    until `stop` exists; each read's start (epoch s) and latency in seconds (NaN: not a 200)
    printed as JSON."""
    latencies: list[tuple[float, float]] = []
    transport = httpx.HTTPTransport(local_address=READER)
    with httpx.Client(base_url=url, timeout=60, transport=transport) as client:
        while not stop.exists():
            at, started = time.time(), time.perf_counter()
            r = client.get(f"/v1/games/{game}")
            took = time.perf_counter() - started
            latencies.append((at, took if r.status_code == 200 else math.nan))
            time.sleep(0.05)
    print(json.dumps(latencies))


@contextlib.contextmanager
def reading(url: str, game: str) -> Iterator[list[tuple[float, float]]]:
    """`read_meanwhile` for the duration of the block; its reads once it is over."""
    latencies: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as flags:
        stop = Path(flags) / "stop"
        code = (
            "import sys, pathlib; from benchmarks.attack_replay import read_meanwhile; "
            "read_meanwhile(sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3]))"
        )
        process = subprocess.Popen(
            [sys.executable, "-c", code, url, game, str(stop)], cwd=ROOT, stdout=subprocess.PIPE
        )
        try:
            yield latencies
        finally:
            stop.touch()
            out, _ = process.communicate(timeout=120)
            latencies += [(at, took) for at, took in json.loads(out or b"[]")]


async def run(
    repo: Path | None = None,
    events: int = 6_800,
    replays: int = 600,
    addresses: int = 20,
    elsewhere: bool = False,
    cold: bool = False,
) -> dict[str, float]:
    """The attack against the checkout `repo` (this one when None); its figures."""
    source = (repo or ROOT).resolve()
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as embedded,
        contextlib.ExitStack() as running,
    ):
        redis = Redis.from_url(embedded.url)
        # One worker each, every limit at its default.
        quiet = {"WORKERS": "1", "LOG_LEVEL": "WARNING"}
        mover = running.enter_context(await Served.started(embedded.url, source, quiet, LIMITS))
        service = mover
        if elsewhere or cold:
            service = running.enter_context(
                await Served.started(embedded.url, source, quiet, LIMITS)
            )
        mover_url, url = mover.url, service.url
        async with httpx.AsyncClient(base_url=mover_url, timeout=60) as client:
            game, token = await long_table(client, redis, events)
            other = await ok(await client.post("/v1/games", json={"kind": "cheat"}), 201)
            mine = await ok(await client.get(f"/v1/games/{game}", headers=auth(token)))
            play = {"type": "play", "cards": mine["me"]["hand"][:1]}
            keyed = auth(token) | {"Idempotency-Key": "attack-replay"}
            first = await client.post(f"/v1/games/{game}/commands", json=play, headers=keyed)
            await ok(first)
        if not cold:  # the process the retries reach holds the table (and knows the token)
            async with httpx.AsyncClient(base_url=url, timeout=60) as client:
                await ok(await client.get(f"/v1/games/{game}", headers=auth(token)))
        length = int(await redis.llen(f"kr:{{{game}}}:log"))

        clients = [
            httpx.AsyncClient(
                base_url=url,
                timeout=120,
                transport=httpx.AsyncHTTPTransport(
                    local_address=f"127.0.0.{2 + n}", limits=httpx.Limits(max_connections=None)
                ),
            )
            for n in range(addresses)
        ]
        latencies = running.enter_context(reading(url, other["game"]["id"]))
        await asyncio.sleep(1)  # the reader's pace before the burst
        await redis.config_resetstat()
        cpu0, wall0, began = service.cpu_seconds(), time.perf_counter(), time.time()

        async def replay(n: int) -> tuple[int, bool]:
            try:
                r = await clients[n % addresses].post(
                    f"/v1/games/{game}/commands", json=play, headers=keyed
                )
            except httpx.HTTPError:
                return 0, False
            return r.status_code, r.status_code != 200 or r.content == first.content

        try:
            answers = await asyncio.gather(*(replay(n) for n in range(replays)))
        finally:
            await asyncio.gather(*(c.aclose() for c in clients))
        wall, ended = time.perf_counter() - wall0, time.time()
        cpu = service.cpu_seconds() - cpu0
        stats = await redis.info("commandstats")
        await asyncio.sleep(1)  # and after it
        await redis.aclose()

    statuses = Counter(status for status, _ in answers)
    during = [
        took
        for at, took in latencies
        if at + (took if took == took else 0) >= began and at <= ended
    ]
    reads = sorted(x for x in during if x == x)
    cut = (
        statistics.quantiles(reads, n=10, method="inclusive") if len(reads) >= 2 else [math.nan] * 9
    )
    return {
        "events": float(length),
        "replays": float(replays),
        "service_cpu_s": round(cpu, 3),
        "burst_wall_s": round(wall, 3),
        "answered_200": float(statuses[200]),
        "limited_429": float(statuses[429]),
        "unavailable_503": float(statuses[503]),
        "other": float(replays - statuses[200] - statuses[429] - statuses[503]),
        "not_the_first_answer": float(sum(not same for _, same in answers)),
        "lrange_calls": float(stats.get("cmdstat_lrange", {}).get("calls", 0)),
        "reader_reads": float(len(during)),
        "reader_refused": float(len(during) - len(reads)),
        "reader_p50_ms": round(statistics.median(reads) * 1000, 1) if reads else float("nan"),
        "reader_p90_ms": round(cut[8] * 1000, 1),
        "reader_max_ms": round(max(reads) * 1000, 1) if reads else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--repo", type=Path, default=None, help="serve this checkout's code")
    parser.add_argument("--events", type=int, default=6_800, help="the table's log, at least")
    parser.add_argument("--replays", type=int, default=600, help="retries sent at once")
    parser.add_argument("--addresses", type=int, default=20, help="source addresses they use")
    parser.add_argument(
        "--elsewhere", action="store_true", help="retry at a process that did not make the move"
    )
    parser.add_argument(
        "--cold", action="store_true", help="retry at a process that never read the table"
    )
    args = parser.parse_args()
    figures = asyncio.run(
        run(
            args.repo,
            args.events,
            min(args.replays, 2_000),
            min(args.addresses, 200),
            args.elsewhere,
            args.cold,
        )
    )
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
