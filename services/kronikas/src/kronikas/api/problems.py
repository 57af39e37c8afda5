"""The one map from every failure to RFC 9457 problem+json with a stable `code`."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec

from kronikas import metrics
from kronikas.application.errors import EXCERPT, ApiError
from kronikas_rules.common import DomainError, InvalidOptions

log = logging.getLogger("kronikas.api")

PROBLEM_JSON = "application/problem+json"


class Problem(msgspec.Struct, omit_defaults=True):
    """An error, as RFC 9457 problem details with a stable machine-readable `code`."""

    status: int
    code: str
    title: str
    detail: str
    type: str = "about:blank"
    request_id: str | None = None
    errors: list[dict[str, Any]] | None = None


# The service's own refusals (application/errors.py), by code, to their HTTP status.
_API_STATUS: dict[str, int] = {
    "invalid_request": 422,
    "unauthorized": 401,
    "forbidden": 403,
    "not_found": 404,
    "version_mismatch": 412,
    "set_in_play": 409,
    "arena_busy": 409,
    "unsupported_media_type": 415,
    "rate_limited": 429,
    "unavailable": 503,
    "outcome_unknown": 503,
}

RETRY_AFTER_S = 1
"""What a 503's `Retry-After` says (seconds), unless the failure names its own wait."""

_TITLES = {
    "unavailable": "Service Unavailable",
    "outcome_unknown": "Outcome Unknown",
}
"""Titles of the service's own codes whose HTTP phrase would not tell them apart."""

# The framework's own HTTP exceptions, by status, to the codes of docs/api.md.
_HTTP_CODES: dict[int, tuple[int, str]] = {
    400: (422, "invalid_request"),
    401: (401, "unauthorized"),
    403: (403, "forbidden"),
    404: (404, "not_found"),
    405: (405, "method_not_allowed"),
    413: (413, "payload_too_large"),
    415: (415, "unsupported_media_type"),
    422: (422, "invalid_request"),
    429: (429, "rate_limited"),
    503: (503, "unavailable"),
}

_DESCRIPTIONS: dict[int, str] = {
    401: "No token, or a token this table does not know (`unauthorized`).",
    403: "A valid token that may not do this (`forbidden`).",
    404: "No such table or route (`not_found`).",
    409: "The rules or the table's state forbid it now: `not_your_turn`, `illegal_move`, "
    "`game_not_open`, `game_full`, `game_over` or `name_taken`; an arena table or set "
    "before its whole set finished (`set_in_play`); an entrant waiting in another pool or "
    "seated in a set in play (`arena_busy`); `detail` says why.",
    412: "`If-Match` names a version that is no longer current (`version_mismatch`).",
    413: "The body is over the size limit (`payload_too_large`).",
    415: "The body is not sent as `application/json` (`unsupported_media_type`).",
    422: "The body or a parameter is malformed (`invalid_request`).",
    429: "Too many requests (`rate_limited`); `Retry-After` says when to try again.",
    503: "The store does not answer, or is full: nothing was changed (`unavailable`); or a "
    "change was sent and its answer never came: it may or may not have been applied "
    "(`outcome_unknown`: retry with the same `Idempotency-Key`, or read the table). "
    "`Retry-After` says when to try again.",
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The documented error responses of a route, all with the one `Problem` schema."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            description=_DESCRIPTIONS[status],
            generate_examples=False,
            media_type=PROBLEM_JSON,
        )
        for status in sorted(statuses)
    }


_PHRASES = {413: "Content Too Large", 422: "Unprocessable Content"}  # RFC 9110 names


def _phrase(status: int) -> str:
    if status in _PHRASES:
        return _PHRASES[status]
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


DETAIL_MAX = 300
_QUOTED = re.compile(r"'(?:[^'\\]|\\.)*(?:'|\Z)|\"(?:[^\"\\]|\\.)*(?:\"|\Z)|`.*`|`.*\Z", re.DOTALL)
"""A quoted input: between quotes as `repr` writes them (an escaped quote inside), or between
the first and the last backtick (msgspec writes a field name in backticks as it came, a backtick
in it unescaped); an unclosed one runs to the end. Each match ends at its closing quote or at
the end of the text, so the pass is linear, however many quotes an input holds."""
_PATH = re.compile(r" - at `\$[^`]*`\Z")
"""Where msgspec says the refused value was (`$.options.reveal`): quoted apart."""


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _excerpt(quoted: re.Match[str]) -> str:
    text = quoted[0]
    if len(text) <= EXCERPT + 2:
        return text
    closed = len(text) > 1 and text[-1] == text[0]
    return text[: EXCERPT + 1] + "…" + (text[-1] if closed else "")


def short(text: str) -> str:
    """A message with each quoted input (msgspec names the field or tag it refuses) cut to an
    excerpt, and the whole to `DETAIL_MAX` characters: an answer never echoes a large input.
    The service's own refusals quote an input cut already (`application.errors.quoted`)."""
    path = _PATH.search(text)
    body, where = (text[: path.start()], path[0]) if path else (text, "")
    return _cut(_QUOTED.sub(_excerpt, body) + _QUOTED.sub(_excerpt, where), DETAIL_MAX)


def _short_values(error: dict[str, Any]) -> dict[str, Any]:
    return {k: short(v) if isinstance(v, str) else v for k, v in error.items()}


def _request_id(request: Request[Any, Any, Any]) -> str | None:
    rid = request.scope.get("state", {}).get("request_id")
    return rid if isinstance(rid, str) else None


def problem_response(
    request: Request[Any, Any, Any],
    status: int,
    code: str,
    detail: str,
    headers: Mapping[str, str] | None = None,
    errors: list[dict[str, Any]] | None = None,
) -> Response[Problem]:
    """A problem+json response."""
    body = Problem(
        status=status,
        code=code,
        title=_TITLES.get(code) or _phrase(status),
        detail=short(detail),
        request_id=_request_id(request),
        errors=[_short_values(e) for e in errors] if errors else None,
    )
    return Response(body, status_code=status, media_type=PROBLEM_JSON, headers=dict(headers or {}))


def _validation_errors(extra: Any) -> list[dict[str, Any]] | None:
    if isinstance(extra, list) and all(isinstance(e, dict) for e in extra):
        return [{str(k): str(v) for k, v in e.items()} for e in extra]
    return None


def handle_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    """Turn any exception into problem+json; nothing unexpected leaks a stack trace."""
    if isinstance(exc, ApiError):
        status = _API_STATUS[exc.code]
        headers = exc.headers
        # A socket's problem is made here too (api/socket_gate.py), as a request `WEBSOCKET`.
        metrics.answered(exc.code, "socket" if request.method == "WEBSOCKET" else "http")
        if status == 503 and "Retry-After" not in headers:
            headers = headers | {"Retry-After": str(RETRY_AFTER_S)}
        return problem_response(request, status, exc.code, exc.detail, headers, exc.errors)
    if isinstance(exc, DomainError):
        return problem_response(request, 409, exc.code, exc.detail)
    if isinstance(exc, InvalidOptions):
        return problem_response(request, 422, "invalid_request", str(exc))
    if isinstance(exc, HTTPException):
        status, code = _HTTP_CODES.get(exc.status_code, (exc.status_code, "internal"))
        detail = exc.detail or _phrase(status)
        errors = _validation_errors(exc.extra) if isinstance(exc, ValidationException) else None
        if errors:
            detail = "; ".join(
                f"{e.get('key') or 'body'}: {e.get('message', 'invalid')}" for e in errors
            )
        if status == 413:
            detail = "The request body is over the size limit."
        elif status == 404:
            detail = "No such resource."
        elif status == 405:
            detail = f"{request.method} is not allowed on this route."
        headers = dict(exc.headers or {})
        if status >= 500:
            return _internal(request, exc)
        return problem_response(request, status, code, detail, headers, errors)
    if isinstance(exc, RecursionError):
        return problem_response(request, 422, "invalid_request", "The JSON is nested too deeply.")
    return _internal(request, exc)


def _internal(request: Request[Any, Any, Any], exc: Exception) -> Response[Problem]:
    log.error(
        "unexpected failure on %s %s",
        request.method,
        request.url.path,
        exc_info=exc,
        extra={"request_id": _request_id(request)},
    )
    return problem_response(
        request, 500, "internal", "An unexpected failure; it has been logged with the request id."
    )


async def send_problem(scope: Any, send: Any, problem: Problem) -> None:
    """A problem written straight to the server, where no framework answers for us (a request
    refused before routing, a socket upgrade refused): an HTTP answer, an upgrade's answer
    through the server's denial-response extension, or, where the server has none, a close 1008
    with the problem's code."""
    body = msgspec.json.encode(problem)
    headers = [
        (b"content-type", PROBLEM_JSON.encode()),
        (b"content-length", str(len(body)).encode()),
        (b"cache-control", b"no-store"),
    ]
    if scope["type"] == "http":
        await send({"type": "http.response.start", "status": problem.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
    elif "websocket.http.response" in scope.get("extensions", {}):
        start = {"type": "websocket.http.response.start", "status": problem.status}
        await send(start | {"headers": headers})
        await send({"type": "websocket.http.response.body", "body": body, "more_body": False})
    else:
        await send({"type": "websocket.close", "code": 1008, "reason": problem.code})
