"""`GET /metrics`: the service's counts in Prometheus' text format (docs/operations.md).

Served only with `METRICS=1` (else the path is as unknown as any other: 404). With
`METRICS_TOKEN` set, only a request bearing it (`Authorization: Bearer <token>`, compared in
constant time) is answered; any other is 401 `unauthorized`, problem+json as every refusal.

Not in the OpenAPI document: it is for the operator's Prometheus, in Prometheus' format, not an
endpoint of the API its clients are generated from; nor is it paid for from the rate limits
(a scraper shares its address with nobody's budget, and a scrape missed under load would hide
the load it was meant to show). The token, or a network only Prometheus reaches, guards it.
"""

from __future__ import annotations

import hmac
from typing import Any

import anyio.to_thread
from litestar import Request, Response, get
from litestar.handlers import HTTPRouteHandler

from kronikas import metrics
from kronikas.application.errors import Unauthorized

PATH = "/metrics"
_MEDIA_TYPE = metrics.TEXT_FORMAT.removesuffix("; charset=utf-8")
"""Without the charset, which the framework adds to every `text/` answer."""
_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="metrics"'}


def bearing(authorization: str | None, token: str) -> bool:
    """Whether `Authorization` is `Bearer <token>`, compared in constant time."""
    scheme, _, given = (authorization or "").strip().partition(" ")
    if scheme.lower() != "bearer":
        return False
    return hmac.compare_digest(given.strip().encode(), token.encode())


def metrics_route(token: str | None) -> HTTPRouteHandler:
    """The route, answering only a request bearing `token` when one is set."""

    @get(PATH, include_in_schema=False, name="metrics")
    async def scrape(request: Request[Any, Any, Any]) -> Response[bytes]:
        if token is not None and not bearing(request.headers.get("authorization"), token):
            raise Unauthorized(
                "The metrics need the metrics token: `Authorization: Bearer <METRICS_TOKEN>`.",
                headers=_CHALLENGE,
            )
        metrics.flush()  # this worker's latest counts too
        # Off the event loop: in multiprocess mode a scrape reads every worker's files.
        body = await anyio.to_thread.run_sync(metrics.exposition)
        return Response(
            body,
            media_type=_MEDIA_TYPE,
            headers={"Cache-Control": "no-store"},
        )

    return scrape
