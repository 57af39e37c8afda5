"""The service's skeleton: health, readiness, and errors as problem+json."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
from litestar import Litestar, post
from litestar.params import JSONBody
from litestar.testing import AsyncTestClient
from msgspec import Struct

from kronikas.adapters.embedded_redis import EmbeddedRedis
from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST

PROBLEM = "application/problem+json"


class Echo(Struct, forbid_unknown_fields=True):
    name: str


@post("/test/echo", operation_id="echo")
async def echo(data: JSONBody[Echo]) -> Echo:
    return data


@post("/test/boom", operation_id="boom")
async def boom() -> None:
    raise RuntimeError("secret internals")


def make_app(redis_url: str) -> Litestar:
    settings = Settings(
        redis_url=redis_url,
        log_level="CRITICAL",
        redis_timeout_s=0.5,
        allowed_hosts=(TEST_HOST,),
    )
    return create_app(settings, extra_routes=[echo, boom], games=ENGINES)


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[AsyncTestClient[Litestar]]:
    async with AsyncTestClient(make_app(redis_url)) as c:
        yield c


async def test_health_is_ok(client: AsyncTestClient[Litestar]) -> None:
    r = await client.get("/v1/health")
    assert r.status_code == 200
    assert r.json() == {"status": "ok"}
    assert r.headers["x-request-id"]


async def test_ready_when_redis_answers(client: AsyncTestClient[Litestar]) -> None:
    r = await client.get("/v1/ready")
    assert r.status_code == 200
    assert r.json() == {"status": "ready"}


async def test_ready_is_503_problem_while_redis_is_stopped(own_redis: EmbeddedRedis) -> None:
    async with AsyncTestClient(make_app(own_redis.url)) as client:
        assert (await client.get("/v1/ready")).status_code == 200
        own_redis.stop()
        started = time.monotonic()
        r = await client.get("/v1/ready")
        assert time.monotonic() - started < 10 * 0.5, "it waited for Redis far past its timeout"
        assert r.status_code == 503
        assert r.headers["content-type"].startswith(PROBLEM)
        assert r.json()["code"] == "unavailable"
        own_redis.start()
        assert (await client.get("/v1/ready")).status_code == 200


async def test_unknown_route_is_404_not_found(client: AsyncTestClient[Litestar]) -> None:
    r = await client.get("/v1/no-such-thing")
    assert r.status_code == 404
    assert r.headers["content-type"].startswith(PROBLEM)
    assert r.json()["code"] == "not_found"
    assert r.json()["status"] == 404
    assert r.json()["request_id"] == r.headers["x-request-id"]


async def test_the_frameworks_own_refusals_carry_the_request_id(
    client: AsyncTestClient[Litestar],
) -> None:
    """A route that does not exist and a method a route does not take are answered before any
    route runs; they carry the request id all the same, the client's own when it sends one."""
    for method, path in [("GET", "/v1/nope"), ("POST", "/v1/health"), ("DELETE", "/v1/games")]:
        r = await client.request(method, path)
        assert r.status_code in (404, 405)
        assert r.json()["request_id"] == r.headers["x-request-id"]
        r = await client.request(method, path, headers={"x-request-id": "trace-7"})
        assert r.headers["x-request-id"] == r.json()["request_id"] == "trace-7"


async def test_wrong_method_is_405(client: AsyncTestClient[Litestar]) -> None:
    r = await client.post("/v1/health")
    assert r.status_code == 405
    assert r.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize(
    "body",
    [b"{not json", b'{"name": 5}', b'{"name": "a", "extra": 1}', b"[]", b"\xff\xfe"],
)
async def test_malformed_body_is_422_invalid_request(
    client: AsyncTestClient[Litestar], body: bytes
) -> None:
    r = await client.post("/test/echo", content=body, headers={"content-type": "application/json"})
    assert r.status_code == 422
    assert r.headers["content-type"].startswith(PROBLEM)
    problem = r.json()
    assert problem["code"] == "invalid_request"
    assert problem["title"] == "Unprocessable Content"
    assert problem["detail"]


async def test_body_over_64_kib_is_413(client: AsyncTestClient[Litestar]) -> None:
    big = b'{"name": "' + b"a" * (65 * 1024) + b'"}'
    r = await client.post("/test/echo", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert r.json()["code"] == "payload_too_large"


async def test_unexpected_failure_is_500_without_stack_trace(
    client: AsyncTestClient[Litestar],
) -> None:
    r = await client.post("/test/boom")
    assert r.status_code == 500
    problem = r.json()
    assert problem["code"] == "internal"
    assert "secret internals" not in r.text
    assert "Traceback" not in r.text
    assert problem["request_id"] == r.headers["x-request-id"]
