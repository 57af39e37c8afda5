"""Rate limits, CORS, expiry, and what a command costs in Redis round trips."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.adapters.scripts import game_keys
from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.api.conftest import settings
from tests.api.tables import Tables, auth
from tests.api.test_tables import assert_problem
from tests.apps import ENGINES


@pytest.fixture
async def slow_client(redis_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    app = create_app(settings(redis_url, rate_per_s=1, rate_burst=3), games=ENGINES)
    async with AsyncTestClient(app) as client:
        yield client


async def test_a_token_over_its_rate_gets_429_with_retry_after(
    slow_client: AsyncTestClient[Litestar],
) -> None:
    tables = Tables(slow_client)
    table = await tables.create("cheat")
    await tables.join(table)
    token = table.players[0]
    answers = [
        await slow_client.get(f"/v1/games/{table.id}", headers=auth(token)) for _ in range(5)
    ]
    assert [r.status_code for r in answers[:3]] == [200, 200, 200]
    limited = answers[-1]
    assert_problem(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1
    # Other tokens, and spectators, are not held back by this one.
    assert (await slow_client.get(f"/v1/games/{table.id}")).status_code == 200


async def command_preflight(client: AsyncTestClient[Any], origin: str) -> Any:
    """A page's question before it sends a command with a token, a version and a key."""
    return await client.options(
        "/v1/games/x/commands",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "authorization,if-match,idempotency-key",
        },
    )


async def test_cors_lets_a_configured_origin_play(redis_url: str) -> None:
    origin = "https://table.example"
    app = create_app(settings(redis_url, cors_origins=(origin,)), games=ENGINES)
    async with AsyncTestClient(app) as client:
        r = await command_preflight(client, origin)
        assert r.status_code in (200, 204)
        assert r.headers["access-control-allow-origin"] == origin
        allowed = r.headers["access-control-allow-headers"].lower()
        for header in ("authorization", "if-match", "idempotency-key", "last-event-id"):
            assert header in allowed
        r = await client.get("/v1/kinds", headers={"Origin": origin})
        assert r.headers["access-control-allow-origin"] == origin
        exposed = r.headers["access-control-expose-headers"].lower()
        assert "etag" in exposed and "retry-after" in exposed
        r = await client.get("/v1/kinds", headers={"Origin": "https://elsewhere.example"})
        assert "access-control-allow-origin" not in r.headers


async def test_a_star_lets_every_origin_call_and_read(redis_url: str) -> None:
    """`CORS_ORIGINS=*`: a page on any origin passes the preflight of a command and reads the
    answer's `ETag` and `Retry-After`, as a listed origin does."""
    app = create_app(settings(redis_url, cors_origins=("*",)), games=ENGINES)
    async with AsyncTestClient(app) as client:
        for origin in ("https://anywhere.example", "http://localhost:5173"):
            r = await command_preflight(client, origin)
            assert r.status_code in (200, 204)
            assert r.headers["access-control-allow-origin"] in ("*", origin)
            allowed = r.headers["access-control-allow-headers"].lower()
            assert all(h in allowed for h in ("authorization", "if-match", "idempotency-key"))
            r = await client.get("/v1/kinds", headers={"Origin": origin})
            assert r.status_code == 200
            assert r.headers["access-control-allow-origin"] in ("*", origin)
            exposed = r.headers["access-control-expose-headers"].lower()
            assert "etag" in exposed and "retry-after" in exposed


def test_an_origin_pattern_in_cors_origins_is_refused_at_start() -> None:
    """The REST API's CORS would read `https://*.a.example` as a pattern, the socket and `/mcp`
    as an origin: the setting is refused rather than read two ways."""
    with pytest.raises(ValueError, match=r"not a pattern: 'https://\*\.a\.example'"):
        Settings.from_env({"CORS_ORIGINS": "https://b.example, https://*.a.example"})
    assert Settings.from_env({"CORS_ORIGINS": "*"}).cors_origins == ("*",)


async def test_a_cors_origin_written_with_a_slash_is_the_origin_browsers_send(
    redis_url: str,
) -> None:
    configured = Settings.from_env({"CORS_ORIGINS": " https://table.example/ ,http://b.example:81"})
    assert configured.cors_origins == ("https://table.example", "http://b.example:81")
    app = create_app(settings(redis_url, cors_origins=configured.cors_origins), games=ENGINES)
    async with AsyncTestClient(app) as client:
        r = await client.get("/v1/kinds", headers={"Origin": "https://table.example"})
        assert r.headers["access-control-allow-origin"] == "https://table.example"


async def test_open_tables_and_games_expire(redis_url: str) -> None:
    app = create_app(settings(redis_url, open_ttl_s=600, finished_ttl_s=3600), games=ENGINES)
    async with AsyncTestClient(app) as client:
        tables = Tables(client)
        table = await tables.create("thirty_one")
        redis = Redis.from_url(redis_url)
        keys = game_keys(table.id)
        assert 590 <= await redis.ttl(keys["log"]) <= 600
        assert 590 <= await redis.ttl(keys["auth"]) <= 600
        await tables.join(table)
        await tables.join(table)
        await tables.start(table)
        assert 3590 <= await redis.ttl(keys["log"]) <= 3600
        assert 3590 <= await redis.ttl(keys["meta"]) <= 3600
        await redis.aclose()


async def calls(redis: Redis) -> int:
    """Top-level calls the service can make per command (commands inside scripts count apart)."""
    stats: dict[str, Any] = await redis.info("commandstats")
    names = ("cmdstat_evalsha", "cmdstat_eval", "cmdstat_script", "cmdstat_zadd")
    return sum(int(stats[name]["calls"]) for name in names if name in stats)


async def round_trips(redis: Redis, action: Any) -> int:
    before = await calls(redis)
    result = await action
    assert result.status_code == 200, result.text
    return await calls(redis) - before


async def test_a_command_costs_one_round_trip_when_the_fold_is_cached(
    own_redis: EmbeddedRedis,
) -> None:
    redis = Redis.from_url(own_redis.url)
    async with AsyncTestClient(create_app(settings(own_redis.url), games=ENGINES)) as client:
        tables = Tables(client)
        table = await tables.ready("cheat", 2, seed=4)
        view = await tables.view(table, table.players[(await tables.view(table))["turn"]])
        turn = view["me"]["seat"]
        hand = view["me"]["hand"]
        await tables.send(table, turn, {"type": "play", "cards": hand[:1]})
        other = 1 - turn
        other_hand = (await tables.view(table, table.players[other]))["me"]["hand"]
        warm = await round_trips(
            redis, tables.send(table, other, {"type": "play", "cards": other_hand[:1]})
        )
        assert warm == 1
    async with AsyncTestClient(create_app(settings(own_redis.url), games=ENGINES)) as fresh:
        tables = Tables(fresh)
        await fresh.get("/v1/kinds")
        cold = await round_trips(
            redis, tables.send(table, turn, {"type": "play", "cards": hand[1:2]})
        )
        assert cold <= 3  # read + append (+ SCRIPT LOAD on the first use of a script)
    await redis.aclose()


async def test_requests_answer_503_quickly_while_redis_is_down(own_redis: EmbeddedRedis) -> None:
    async with AsyncTestClient(
        create_app(settings(own_redis.url, redis_timeout_s=0.5), games=ENGINES)
    ) as client:
        tables = Tables(client)
        table = await tables.ready("cheat", 2, seed=4)
        own_redis.stop()
        for r in (
            await client.get(f"/v1/games/{table.id}"),
            await tables.send(table, 0, {"type": "call"}),
            await client.post("/v1/games", json={"kind": "cheat"}),
            await client.get("/v1/ready"),
        ):
            assert_problem(r, 503, "unavailable")
        own_redis.start()
        assert (await client.get(f"/v1/games/{table.id}")).status_code == 200


async def test_one_address_creating_tables_too_fast_gets_429(redis_url: str) -> None:
    app = create_app(settings(redis_url, open_per_min=6), games=ENGINES)
    async with AsyncTestClient(app) as client:
        answers = [await client.post("/v1/games", json={"kind": "cheat"}) for _ in range(3)]
        assert [r.status_code for r in answers] == [201, 201, 429]
        assert_problem(answers[-1], 429, "rate_limited")
        assert int(answers[-1].headers["retry-after"]) >= 1
        table = answers[0].json()["game"]["id"]
        r = await client.post(f"/v1/games/{table}/players", json={"name": "late"})
        assert_problem(r, 429, "rate_limited")
