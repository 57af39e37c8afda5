"""Retries of one keyed move, hundreds at once (docs/api.md, Versions and retries), against a
real service process with its default limits: answered from the table the process holds while
the keyed append is its latest, else made again from the log once for all of them; each retry
paid from the token's bucket (429 once it is spent), none a 5xx."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.event_store import RedisStores
from kronikas.application.folds import READ_PAGE
from kronikas.application.ports import AppendRequest, Summary
from kronikas.application.wire import Record, encode, utc_text
from kronikas_rules.seating import SeatAway, SeatBack
from tests.api.tables import auth
from tests.conftest import ServiceProcess, serving
from tests.reliability.conftest import written_since
from tests.reliability.test_fair_limits import REAL_LIMITS

EVENTS = 1_200
"""At least this many events in the table's log before the keyed move."""
RETRIES, ADDRESSES = 600, 20


@pytest.fixture
def service(own_redis: EmbeddedRedis, tmp_path: Path) -> Iterator[ServiceProcess]:
    """The service with its default limits, on a Redis of the test's own (its counters are
    the test's alone)."""
    with serving(own_redis.url, tmp_path / "service.log", **REAL_LIMITS) as service:
        yield service


async def grown(redis: Redis, game: str, seat: int, events: int) -> int:
    """The table's log grown past `events` through the store: the seat away and back, again
    and again (the state each pair leaves is the one before it); its version after."""
    store = RedisStores(redis)
    version = await redis.llen(f"kr:{{{game}}}:log")
    created_ms = int(time.time() * 1000)
    while version < events:
        at = utc_text(int(time.time() * 1000))
        records = [
            encode(
                Record(v=version + i + 1, at=at, e=SeatAway(seat) if i % 2 == 0 else SeatBack(seat))
            )
            for i in range(200)
        ]
        summary = Summary(game, "cheat", "playing", 2, created_ms, version + len(records))
        result = await store.log.append(
            AppendRequest(game, version, records, ttl_s=3600, summary=summary)
        )
        assert result.outcome == "ok", result
        version = result.version
    await store.aclose()
    return version


@pytest.mark.parametrize("moved_on", [True, False], ids=["moved-on", "latest"])
async def test_600_retries_at_once_read_the_log_once_and_are_paid_for(
    service: ServiceProcess, own_redis: EmbeddedRedis, tmp_path: Path, moved_on: bool
) -> None:
    """`moved_on`: the person moved again after the keyed move, so the state after it is held
    nowhere and the answer is made again from the log, once; else the keyed append is the
    table's latest and the retries are answered from the table the process holds, reading
    neither the log nor a kept answer."""
    start = service.log.stat().st_size
    redis = Redis.from_url(own_redis.url)
    # Another process on the same Redis made the move: this one holds the table, not its answer.
    with serving(own_redis.url, tmp_path / "mover.log", **REAL_LIMITS) as mover:
        async with httpx.AsyncClient(base_url=mover.url, timeout=30) as client:
            options = {"house_pause_seconds": 0}  # the house plays up to the person at once
            r = await client.post("/v1/games", json={"kind": "cheat", "options": options})
            assert r.status_code == 201, r.text
            game, host = r.json()["game"]["id"], r.json()["host_token"]
            r = await client.post(f"/v1/games/{game}/players", json={"name": "Ilona"})
            assert r.status_code == 201, r.text
            token, seat = r.json()["token"], r.json()["seat"]
            r = await client.post(
                f"/v1/games/{game}/house-players", json={"name": "H"}, headers=auth(host)
            )
            assert r.status_code == 201, r.text
            r = await client.post(f"/v1/games/{game}/start", headers=auth(host))
            assert r.status_code == 200, r.text
            for _ in range(600):  # the person's turn: then nothing moves until the person does
                if (await client.get(f"/v1/games/{game}")).json()["turn"] == seat:
                    break
                await asyncio.sleep(0.05)
            version = await grown(redis, game, seat, EVENTS)
            mine = (await client.get(f"/v1/games/{game}", headers=auth(token))).json()
            assert mine["version"] == version and mine["turn"] == seat, mine
            play = {"type": "play", "cards": mine["me"]["hand"][:1]}
            keyed = auth(token) | {"Idempotency-Key": "once"}
            first = await client.post(f"/v1/games/{game}/commands", json=play, headers=keyed)
            assert first.status_code == 200, first.text
            if moved_on:  # the house played up to the person again, who moves once more
                mine = (await client.get(f"/v1/games/{game}", headers=auth(token))).json()
                assert mine["turn"] == seat, mine
                again = {"type": "accept"} if "accept" in mine["legal"] else None
                again = again or {"type": "play", "cards": mine["me"]["hand"][:1]}
                r = await client.post(f"/v1/games/{game}/commands", json=again, headers=auth(token))
                assert r.status_code == 200, r.text
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        r = await client.get(f"/v1/games/{game}", headers=auth(token))  # it reads the table
        assert r.status_code == 200 and r.json()["version"] > version, r.text
    log_length = await redis.llen(f"kr:{{{game}}}:log")
    assert log_length > EVENTS

    await redis.config_resetstat()
    clients = [
        httpx.AsyncClient(
            base_url=service.url,
            timeout=60,
            transport=httpx.AsyncHTTPTransport(
                local_address=f"127.0.0.{2 + n}", limits=httpx.Limits(max_connections=None)
            ),
        )
        for n in range(ADDRESSES)
    ]
    try:
        answers = await asyncio.gather(
            *(
                clients[n % ADDRESSES].post(f"/v1/games/{game}/commands", json=play, headers=keyed)
                for n in range(RETRIES)
            )
        )
    finally:
        await asyncio.gather(*(c.aclose() for c in clients))
    stats = await redis.info("commandstats")
    await redis.aclose()

    statuses = Counter(r.status_code for r in answers)
    assert set(statuses) <= {200, 429}, statuses
    assert statuses[200] >= 1 and statuses[429] >= 1, statuses
    for r in answers:
        if r.status_code == 200:
            assert r.content == first.content
        else:
            assert r.json()["code"] == "rate_limited" and int(r.headers["Retry-After"]) >= 1
    # Moved on: one read of the log for all of them (in pages of READ_PAGE events), one lookup
    # of the answer the store keeps; latest: neither. Each retry's charge (a read of no event)
    # reads none of the log.
    lrange = stats.get("cmdstat_lrange", {}).get("calls", 0)
    assert lrange == (-(-log_length // READ_PAGE) if moved_on else 0), stats
    assert stats.get("cmdstat_get", {}).get("calls", 0) == (1 if moved_on else 0), stats
    written = written_since(service.log, start)
    assert "Traceback" not in written, written[-3000:]
