"""Entrants over HTTP: register, page, revoke; limits; hostile names and tokens."""

from __future__ import annotations

import hashlib

import pytest
from redis.asyncio import Redis

from tests.arena.conftest import PEER, arena_app, bearer, queue, register


def assert_problem(r: object, status: int, code: str) -> None:
    assert r.status_code == status, r.text  # type: ignore[attr-defined]
    assert r.headers["content-type"].startswith("application/problem+json")  # type: ignore[attr-defined]
    assert r.json()["code"] == code, r.text  # type: ignore[attr-defined]


async def test_an_entrant_registers_and_its_token_is_kept_only_as_its_hash(
    redis_url: str, redis: Redis
) -> None:
    async with arena_app(redis_url) as client:
        r = await client.post(
            "/v1/arena/entrants", json={"name": "  Bot   One ", "games": ["cheat", "cheat"]}
        )
        assert r.status_code == 201, r.text
        body = r.json()
        assert body["name"] == "Bot One" and body["games"] == ["cheat"]
        assert body["token"].startswith("ke_") and body["created_at"]
        stored = b"".join(
            [await redis.get(k) or b"" async for k in redis.scan_iter(match="{arena}:*")]
        )
        assert body["token"].encode() not in stored
        digest = hashlib.sha256(body["token"].encode()).hexdigest()
        assert await redis.get(f"{{arena}}:token:{digest}") == body["entrant_id"].encode()
        page = (await client.get(f"/v1/arena/entrants/{body['entrant_id']}")).json()
        assert page["name"] == "Bot One" and page["standing"] is False
        assert page["ratings"] == [] and page["matches"] == []
        assert "owner" not in page and "token" not in page


async def test_a_revoked_entrant_token_stops_working(redis_url: str) -> None:
    async with arena_app(redis_url) as client:
        entrant, token = await register(client, "Leaver")
        _, other_token = await register(client, "Other")
        await queue(client, token)
        forbidden = await client.delete(
            f"/v1/arena/entrants/{entrant}", headers=bearer(other_token)
        )
        assert_problem(forbidden, 403, "forbidden")
        r = await client.delete(f"/v1/arena/entrants/{entrant}", headers=bearer(token))
        assert r.status_code == 204, r.text
        again = await client.get("/v1/arena/queue", headers=bearer(token))
        assert_problem(again, 401, "unauthorized")
        page = (await client.get(f"/v1/arena/entrants/{entrant}")).json()
        assert page["revoked"] is True
        ticket = (await client.get("/v1/arena/queue", headers=bearer(other_token))).json()
        assert ticket == {"status": "idle"}


async def test_registrations_are_limited_per_address_with_retry_after(redis_url: str) -> None:
    async with arena_app(redis_url, arena_register_per_hour=2) as client:
        await register(client, "One", peer="203.0.113.7")
        await register(client, "Two", peer="203.0.113.7")
        r = await client.post(
            "/v1/arena/entrants",
            json={"name": "Three", "games": ["cheat"]},
            headers={PEER: "203.0.113.7"},
        )
        assert_problem(r, 429, "rate_limited")
        assert int(r.headers["retry-after"]) >= 1
        await register(client, "Elsewhere", peer="203.0.113.8")  # another address is not held


@pytest.mark.parametrize(
    "name",
    [
        "",
        " ",
        "x" * 41,
        "tab\there",
        "nul\x00",
        "\u200b",
        "bell\x07",
        "\ud800",
        "q" + "\u0301" * 3,
        "\u0301",
        "\u3164",
        "\u2800\u2800",
    ],
)
async def test_a_bad_name_is_422_never_a_500(redis_url: str, name: str) -> None:
    async with arena_app(redis_url) as client:
        body = '{"name": ' + _json_string(name) + ', "games": ["cheat"]}'
        r = await client.post(
            "/v1/arena/entrants", content=body, headers={"Content-Type": "application/json"}
        )
        assert_problem(r, 422, "invalid_request")


def _json_string(text: str) -> str:
    return '"' + "".join(c if c.isalnum() or c == " " else f"\\u{ord(c):04x}" for c in text) + '"'


@pytest.mark.parametrize(
    "body",
    [
        {"name": "A", "games": []},
        {"name": "A", "games": ["chess"]},
        {"name": "A"},
        {"name": 5, "games": ["cheat"]},
        {"name": "A", "games": ["cheat"], "extra": 1},
    ],
)
async def test_a_bad_registration_is_422(redis_url: str, body: dict[str, object]) -> None:
    async with arena_app(redis_url) as client:
        assert_problem(await client.post("/v1/arena/entrants", json=body), 422, "invalid_request")


@pytest.mark.parametrize(
    "header",
    [
        b"Bearer seat_abc",
        b"Bearer ke_\xff\xfe",
        b"Bearer ke_" + b"a" * 300,
        b"Basic ke_abc",
        b"Bearer",
        b"Bearer ke_nope",
    ],
)
async def test_odd_token_headers_are_401_never_a_500(redis_url: str, header: bytes) -> None:
    async with arena_app(redis_url) as client:
        for method, path in (("GET", "/v1/arena/queue"), ("DELETE", "/v1/arena/queue")):
            r = await client.request(method, path, headers={"Authorization": header})
            assert_problem(r, 401, "unauthorized")
        r = await client.post(
            "/v1/arena/queue", json={"kind": "cheat"}, headers={"Authorization": header}
        )
        assert_problem(r, 401, "unauthorized")


async def test_unknown_entrants_and_sets_are_404(redis_url: str) -> None:
    async with arena_app(redis_url) as client:
        for path in (
            "/v1/arena/entrants/en_nope",
            "/v1/arena/entrants/" + "x" * 300,
            "/v1/arena/sets/set_nope",
        ):
            assert_problem(await client.get(path), 404, "not_found")


async def test_standing_entrants_have_pages(redis_url: str) -> None:
    async with arena_app(redis_url) as client:
        page = (await client.get("/v1/arena/entrants/house-cheat")).json()
        assert page["name"] == "House" and page["standing"] is True and page["games"] == ["cheat"]
        page = (await client.get("/v1/arena/entrants/random-cheat")).json()
        assert page["name"] == "Random" and page["standing"] is True
