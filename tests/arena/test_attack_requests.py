"""Careless and hostile requests to the arena's routes: odd bytes in every value, retries after a
time-out, races between instances, many long-polls. Never a 500; a refusal is problem+json with
a stable `code` and changes nothing."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from redis.asyncio import Redis

from kronikas.application.arena import Arena, Ticket
from kronikas.application.errors import RateLimited
from tests.arena.conftest import PEER, arena_app, bearer, register, two_arenas

LOG = "{arena}:log"


def refused(r: httpx.Response, *statuses: int) -> str:
    assert r.status_code in statuses, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/problem+json"), r.headers
    code: str = r.json()["code"]
    assert code
    return code


async def test_ticket_long_polls_are_held_per_token_as_the_tables_are(redis_url: str) -> None:
    async with arena_app(redis_url, streams_per_token=2, arena_fill_s=600) as a:
        _, token = await register(a, "Poller")
        r = await a.post(
            "/v1/arena/queue", json={"kind": "cheat", "players": 3}, headers=bearer(token)
        )
        assert r.status_code == 202, r.text
        arena: Arena = a.app.state.arena
        # three long-polls at once on the app's own loop (the test client sends one at a time)
        polls = [
            asyncio.wrap_future(
                a.blocking_portal.start_task_soon(arena.ticket, token, 1.5, "198.51.100.1")
            )
            for _ in range(3)
        ]
        answers = await asyncio.gather(*polls, return_exceptions=True)
        limited = [x for x in answers if isinstance(x, RateLimited)]
        assert len(limited) == 1 and len([x for x in answers if isinstance(x, Ticket)]) == 2
        # places are given back: polls after them are let in
        r = await a.get("/v1/arena/queue?wait=0.1", headers=bearer(token))
        assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    "query",
    ["wait=NaN", "wait=-1", "wait=1e309", "wait=inf", "wait=31", "wait=%00", "wait=abc"],
)
async def test_odd_waits_are_422(redis_url: str, query: str, redis: Redis) -> None:
    async with arena_app(redis_url) as a:
        _, token = await register(a, "Odd")
        before = await redis.llen(LOG)
        r = await a.get(f"/v1/arena/queue?{query}", headers=bearer(token))
        assert refused(r, 400, 422) in ("invalid_request", "bad_request")
        assert await redis.llen(LOG) == before


@pytest.mark.parametrize(
    "query",
    [
        "kind=cheat&players=0",
        "kind=cheat&players=99",
        "kind=cheat&players=-1",
        "kind=cheat&players=abc",
        "kind=cheat&limit=0",
        "kind=cheat&limit=101",
        "kind=cheat&limit=1e3",
        "kind=%00",
        "kind=ch%C3%A9at",
        "kind=" + "x" * 5000,
        "kind=%FF%FE",
        "",
    ],
)
async def test_odd_leaderboard_queries_are_problems(redis_url: str, query: str) -> None:
    async with arena_app(redis_url) as a:
        r = await a.get(f"/v1/arena/leaderboard?{query}")
        assert refused(r, 400, 414, 422) in ("invalid_request", "bad_request", "uri_too_long")


@pytest.mark.parametrize(
    "body",
    [
        b'{"kind": "cheat", "players": 0}',
        b'{"kind": "cheat", "players": 99}',
        b'{"kind": "cheat", "players": "2"}',
        b'{"kind": "cheat", "players": 2.5}',
        b'{"kind": "cheat", "players": 1e309}',
        b'{"kind": "cheat", "kind": "thirty_one"}',
        b'{"kind": "cheat", "extra": 1}',
        b'{"kind": "\\u0000"}',
        b'{"kind": "cheat"',
        b"[]",
        b"\xff\xfe",
        b'{"kind": "' + b"c" * 200_000 + b'"}',
    ],
)
async def test_odd_queue_bodies_change_nothing(redis_url: str, body: bytes, redis: Redis) -> None:
    async with arena_app(redis_url) as a:
        _, token = await register(a, "Odd")
        before = await redis.lrange(LOG, 0, -1)
        r = await a.post(
            "/v1/arena/queue",
            content=body,
            headers={**bearer(token), "Content-Type": "application/json"},
        )
        refused(r, 400, 413, 422)
        assert await redis.lrange(LOG, 0, -1) == before
        ticket = await a.get("/v1/arena/queue", headers=bearer(token))
        assert ticket.json()["status"] == "idle"


@pytest.mark.parametrize(
    "header",
    [
        "Bearer  ke_abc",
        "bearer ke_abc",
        "Bearer ke_abc extra",
        "Bearer " + "ke_" + "a" * 100_000,
        "Digest ke_abc",
        "Bearer ke_\u00e9",
        "Bearer host_" + "0" * 40,
    ],
)
async def test_odd_authorizations_are_401_on_every_route(redis_url: str, header: str) -> None:
    async with arena_app(redis_url) as a:
        entrant_id, _ = await register(a, "Owner")
        raw = header.encode("utf-8")
        for method, path in (
            ("GET", "/v1/arena/queue?wait=0"),
            ("DELETE", "/v1/arena/queue"),
            ("DELETE", f"/v1/arena/entrants/{entrant_id}"),
        ):
            r = await a.request(method, path, headers={b"Authorization": raw})
            refused(r, 400, 401, 431)
        r = await a.get(f"/v1/arena/entrants/{entrant_id}")
        assert r.status_code == 200 and r.json()["revoked"] is False


async def test_retries_after_a_time_out(redis_url: str, redis: Redis) -> None:
    """A join retried, on two instances at once, queues the entrant once; a revoke retried is
    a 401 the second time (the token is gone) and the entrant stays revoked."""
    async with two_arenas(redis_url, arena_fill_s=600) as (a, b):
        entrant_id, token = await register(a, "Retry")
        body = {"kind": "cheat", "players": 3}
        joined = await asyncio.gather(
            *(app.post("/v1/arena/queue", json=body, headers=bearer(token)) for app in (a, b, a))
        )
        assert [r.status_code for r in joined] == [202] * 3, [r.text for r in joined]
        log = await redis.lrange(LOG, 0, -1)
        assert sum(b'"type":"queued"' in e for e in log) == 1
        other = await a.post(
            "/v1/arena/queue", json={"kind": "cheat", "players": 2}, headers=bearer(token)
        )
        assert refused(other, 409) == "arena_busy"
        # leave and join racing end waiting or not, never twice
        await asyncio.gather(
            a.delete("/v1/arena/queue", headers=bearer(token)),
            b.post("/v1/arena/queue", json=body, headers=bearer(token)),
        )
        ticket = (await a.get("/v1/arena/queue", headers=bearer(token))).json()
        assert ticket["status"] in ("idle", "waiting")
        revoked = await asyncio.gather(
            a.delete(f"/v1/arena/entrants/{entrant_id}", headers=bearer(token)),
            b.delete(f"/v1/arena/entrants/{entrant_id}", headers=bearer(token)),
        )
        statuses = sorted(r.status_code for r in revoked)
        assert statuses[0] == 204 and statuses[1] in (204, 401), [r.text for r in revoked]
        log = await redis.lrange(LOG, 0, -1)
        assert sum(b'"type":"revoked"' in e for e in log) == 1
        page = (await b.get(f"/v1/arena/entrants/{entrant_id}")).json()
        assert page["revoked"] is True
        r = await a.get("/v1/arena/queue", headers=bearer(token))
        assert refused(r, 401) == "unauthorized"


async def test_registrations_are_limited_per_address_across_instances(redis_url: str) -> None:
    async with two_arenas(redis_url, arena_register_per_hour=3) as (a, b):
        peer = "203.0.113.99"
        answers = []
        for i in range(6):
            app = (a, b)[i % 2]
            answers.append(
                await app.post(
                    "/v1/arena/entrants",
                    json={"name": f"Many {i}", "games": ["cheat"]},
                    headers={PEER: peer},
                )
            )
        assert [r.status_code for r in answers] == [201, 201, 201, 429, 429, 429]
        assert all("Retry-After" in r.headers for r in answers[3:])


@pytest.mark.parametrize("odd", ["x" * 5000, "%00", "..%2F..%2Fx", "%FF%FE", "a%20b", "%E2%80%AE"])
async def test_odd_entrant_and_set_ids_are_problems(redis_url: str, odd: str) -> None:
    async with arena_app(redis_url) as a:
        _, token = await register(a, "Owner")
        for method, path, headers in (
            ("GET", f"/v1/arena/entrants/{odd}", {}),
            ("DELETE", f"/v1/arena/entrants/{odd}", bearer(token)),
            ("GET", f"/v1/arena/sets/{odd}", {}),
        ):
            r = await a.request(method, path, headers=headers)
            refused(r, 400, 403, 404, 414, 422)
        assert (await a.get("/v1/arena/queue", headers=bearer(token))).status_code == 200
