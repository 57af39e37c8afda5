"""CORS on the real service: the origin in `CORS_ORIGINS` may call it from a browser, no other.

HTTP only (no page): what a browser asks before and with a cross-origin call, and what it reads.
"""

from __future__ import annotations

import httpx

from tests.browser.conftest import Served

REQUEST_HEADERS = ["authorization", "content-type", "if-match", "idempotency-key", "last-event-id"]
STRANGER = "http://127.0.0.1:1"


def _names(value: str | None) -> set[str]:
    return {v.strip().lower() for v in (value or "").split(",") if v.strip()}


def _preflight(url: str, origin: str, method: str = "POST") -> httpx.Response:
    return httpx.options(
        f"{url}/v1/games",
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": method,
            "Access-Control-Request-Headers": ",".join(REQUEST_HEADERS),
        },
    )


def test_a_preflight_from_the_allowed_origin_is_answered(
    web_service_cors: Served, static_origin: Served
) -> None:
    r = _preflight(web_service_cors.url, static_origin.url)
    assert r.status_code in (200, 204), r.text
    assert r.headers["access-control-allow-origin"] == static_origin.url
    assert _names(r.headers.get("access-control-allow-headers")) >= set(REQUEST_HEADERS)
    assert {"GET", "POST"} <= {m.upper() for m in _names(r.headers["access-control-allow-methods"])}


def test_a_call_from_the_allowed_origin_may_read_the_answer_and_its_etag(
    web_service_cors: Served, static_origin: Served
) -> None:
    created = httpx.post(
        f"{web_service_cors.url}/v1/games",
        json={"kind": "cheat"},
        headers={"Origin": static_origin.url},
    )
    assert created.status_code == 201
    assert created.headers["access-control-allow-origin"] == static_origin.url
    game = created.json()["game"]["id"]
    view = httpx.get(
        f"{web_service_cors.url}/v1/games/{game}", headers={"Origin": static_origin.url}
    )
    assert view.status_code == 200
    assert view.headers["access-control-allow-origin"] == static_origin.url
    exposed = _names(view.headers.get("access-control-expose-headers"))
    assert {"etag", "retry-after", "x-request-id"} <= exposed
    assert "etag" in view.headers


def test_an_origin_not_listed_is_not_allowed(
    web_service_cors: Served, static_origin: Served
) -> None:
    # Litestar still lists the allowed methods and headers, but without
    # Access-Control-Allow-Origin naming the caller a browser lets it read nothing.
    preflight = _preflight(web_service_cors.url, STRANGER)
    assert preflight.status_code >= 400
    assert "access-control-allow-origin" not in preflight.headers
    call = httpx.get(f"{web_service_cors.url}/v1/kinds", headers={"Origin": STRANGER})
    assert call.status_code == 200
    assert "access-control-allow-origin" not in call.headers
    assert "access-control-allow-credentials" not in call.headers


def test_without_cors_origins_no_origin_gets_cors_headers(
    web_service: Served, static_origin: Served
) -> None:
    call = httpx.get(f"{web_service.url}/v1/kinds", headers={"Origin": static_origin.url})
    assert call.status_code == 200
    assert not [h for h in call.headers if h.startswith("access-control-")]
