"""Who is answered at `GET /metrics` (docs/operations.md): nobody unless `METRICS=1` (404, as
any path the service does not have); with `METRICS_TOKEN`, only a request bearing it (401
`unauthorized` otherwise, problem+json); never refused by a rate limit; never in the OpenAPI
document. And the counts the other parts call (`replica_shortfall`, `primary_switch`) show.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from kronikas import metrics
from kronikas.api.app import create_app
from kronikas.api.metrics import bearing
from tests.apps import ENGINES, Client, settings
from tests.metrics.scrapes import parsed, total

TOKEN = "scrape-me-7f3a9c"


@pytest.fixture
async def app_with(redis_url: str) -> AsyncIterator[Any]:
    """Makes an app with the given settings and runs it for the test."""
    running: list[Client] = []

    async def make(**overrides: Any) -> Client:
        client: Client = AsyncTestClient(
            create_app(settings(redis_url, **overrides), games=ENGINES)
        )
        await client.__aenter__()
        running.append(client)
        return client

    try:
        yield make
    finally:
        for client in running:
            await client.__aexit__(None, None, None)


async def test_without_metrics_the_path_is_as_unknown_as_any_other(app_with: Any) -> None:
    http = await app_with(metrics_enabled=False, metrics_token=TOKEN)
    r = await http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    unknown = await http.get("/no-such-path")
    assert r.status_code == unknown.status_code == 404
    assert r.headers["content-type"] == unknown.headers["content-type"]
    assert r.json()["code"] == unknown.json()["code"] == "not_found"


@pytest.mark.parametrize(
    "authorization",
    [None, "Bearer", "Bearer wrong", f"Basic {TOKEN}", f"Bearer {TOKEN}x", f"Bearer {TOKEN[:-1]}"],
)
async def test_with_a_token_set_a_scrape_without_it_is_401(
    app_with: Any, authorization: str | None
) -> None:
    http = await app_with(metrics_enabled=True, metrics_token=TOKEN)
    headers = {"Authorization": authorization} if authorization else {}
    r = await http.get("/metrics", headers=headers)
    assert r.status_code == 401, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.headers["www-authenticate"].startswith("Bearer")
    assert r.json()["code"] == "unauthorized"
    assert "kronikas_" not in r.text


async def test_with_a_token_set_a_scrape_bearing_it_is_answered(app_with: Any) -> None:
    http = await app_with(metrics_enabled=True, metrics_token=TOKEN)
    r = await http.get("/metrics", headers={"Authorization": f"bearer  {TOKEN}"})
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == metrics.TEXT_FORMAT
    assert r.headers["cache-control"] == "no-store"
    assert "# TYPE kronikas_http_requests_total counter" in r.text


def test_the_token_is_compared_whole() -> None:
    assert bearing(f"Bearer {TOKEN}", TOKEN)
    assert bearing(f"  BEARER {TOKEN} ", TOKEN)
    assert not bearing(None, TOKEN)
    assert not bearing("", TOKEN)
    assert not bearing(TOKEN, TOKEN)
    assert not bearing(f"Bearer {TOKEN} {TOKEN}", TOKEN)
    assert not bearing("Bearer é", TOKEN)


async def test_a_scrape_is_never_refused_by_a_rate_limit(app_with: Any) -> None:
    tight = {"read_per_s": 1, "read_burst": 1, "address_per_s": 1, "address_burst": 2}
    http = await app_with(metrics_enabled=True, **tight)
    for _ in range(5):
        await http.get("/v1/games")  # spends the address's reads
    assert (await http.get("/v1/games")).status_code == 429
    for _ in range(20):
        assert (await http.get("/metrics")).status_code == 200


async def test_metrics_are_not_in_the_openapi_document(app_with: Any) -> None:
    http = await app_with(metrics_enabled=True)
    document = (await http.get("/schema/openapi.json")).json()
    assert "/metrics" not in document["paths"]


async def test_the_counts_other_parts_call_show_in_a_scrape(app_with: Any) -> None:
    http = await app_with(metrics_enabled=True)
    before = parsed((await http.get("/metrics")).text)
    metrics.replica_shortfall()
    metrics.primary_switch()
    metrics.primary_switch()
    metrics.redis_call(0.0002)
    after = parsed((await http.get("/metrics")).text)
    for name, grew in [
        ("kronikas_replica_shortfalls_total", 1),
        ("kronikas_primary_switches_total", 2),
        ("kronikas_redis_call_seconds_count", 1),
    ]:
        assert total(after, name) - total(before, name) >= grew, name


async def test_a_method_a_client_makes_up_is_counted_as_other(app_with: Any) -> None:
    http = await app_with(metrics_enabled=True)
    await http.request("BREW", "/v1/kinds")
    samples = parsed((await http.get("/metrics")).text)
    assert total(samples, "kronikas_http_requests_total", method="other") >= 1
    assert total(samples, "kronikas_http_requests_total", method="BREW") == 0


async def test_an_observation_lands_in_its_bucket(app_with: Any) -> None:
    http = await app_with(metrics_enabled=True)
    before = parsed((await http.get("/metrics")).text)
    # Far slower than the app's own Redis calls meanwhile, which land below 0.1 s.
    for seconds in (0.3, 1.5, 1.5):
        metrics.redis_call(seconds)
    after = parsed((await http.get("/metrics")).text)

    def grew(le: str) -> float:
        name = "kronikas_redis_call_seconds_bucket"
        return total(after, name, le=le) - total(before, name, le=le)

    # Buckets are cumulative: 0.3 s is at or below 0.5 s, the other two below 2 s.
    assert grew("0.5") - grew("0.1") == 1
    assert grew("2.0") - grew("0.5") == 2
    assert grew("+Inf") - grew("2.0") == 0
    name = "kronikas_redis_call_seconds_sum"
    assert total(after, name) - total(before, name) >= 3.3
