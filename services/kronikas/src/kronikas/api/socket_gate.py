"""The seat socket's gate: who may open one (`origin_allowed`), how a refused upgrade is
answered, and the close codes and reasons a socket ends with (docs/api.md, The seat socket)."""

from __future__ import annotations

import itertools
import logging
import secrets
from typing import Any
from urllib.parse import urlsplit

import msgspec
from litestar import Request
from litestar.types import Scope, Send

from kronikas import metrics
from kronikas.api.problems import handle_exception, send_problem
from kronikas.application.errors import (
    ApiError,
    NotFound,
    OutcomeUnknown,
    RateLimited,
    Unauthorized,
    Unavailable,
)
from kronikas.config import Settings

log = logging.getLogger("kronikas.socket")

NORMAL, GOING_AWAY, BINARY, TOO_BIG, INTERNAL = 1000, 1001, 1003, 1009, 1011
BAD_HELLO, UNAUTHORIZED, NOT_FOUND, TIMEOUT = 4400, 4401, 4404, 4408
RATE_LIMITED, UNAVAILABLE, SLOW_READER = 4429, 4503, 4508

_PREFIX = secrets.token_hex(4)
_COUNT = itertools.count()


class Closing(Exception):
    """The socket is to close with `code` (and `reason`), from where it was decided."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def refusal(exc: BaseException) -> Closing:
    """What a failed `hello` closes the socket with."""
    if isinstance(exc, ApiError):
        metrics.answered(exc.code, "socket")
    if isinstance(exc, Unauthorized):
        return Closing(UNAUTHORIZED, "unauthorized")
    if isinstance(exc, NotFound):
        return Closing(NOT_FOUND, "not_found")
    if isinstance(exc, RateLimited):
        return Closing(RATE_LIMITED, f"rate_limited retry_after={exc.retry_after or 1}")
    if isinstance(exc, Unavailable | OutcomeUnknown):
        return Closing(UNAVAILABLE, f"unavailable retry_after={exc.retry_after or 1}")
    if isinstance(exc, ApiError):
        return Closing(BAD_HELLO, exc.code)
    log.error("a socket's hello failed", exc_info=exc)
    return Closing(INTERNAL, "internal")


FOREIGN_ORIGIN = "A page on this origin may not open a seat socket here (see CORS_ORIGINS)."


def origin_allowed(scope: Scope, settings: Settings) -> bool:
    """Whether the upgrade may go on, by its `Origin`: a browser sends one, naming the page that
    opens the socket, and no same-origin rule stops a page on another site from opening it. A
    client that is no browser sends none (allowed); a page may when `CORS_ORIGINS` lets it in
    (`Settings.lists_origin`), or it is the service's own, the one the `Host` names (the web
    table the service serves). The `Host` is one the service serves: a name it does not
    (`ALLOWED_HOSTS`; on loopback, any but a loopback name) is refused before the upgrade
    reaches this route (api/hosts.py), so a rebound name cannot pass as the service's own."""
    origin = host = None
    for name, value in scope["headers"]:
        if name == b"origin" and origin is None:
            origin = value.decode("latin-1")
        elif name == b"host" and host is None:
            host = value.decode("latin-1")
    if origin is None:
        return True
    if settings.lists_origin(origin):
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and not (parts.path or parts.query or parts.fragment)
        and host is not None
        and parts.netloc.lower() == host.lower()
    )


async def refuse_upgrade(scope: Any, send: Send, exc: ApiError) -> None:
    """The upgrade refused with the problem HTTP would answer (where the server can send an
    answer to an upgrade; else its plain 403)."""
    response = handle_exception(as_request(scope, request_id()), exc)
    log.info(
        "socket refused",
        extra={"path": scope["path"], "status": response.status_code, "code": exc.code},
    )
    await send_problem(scope, send, response.content)


def request_id() -> str:
    return f"ws{_PREFIX}{next(_COUNT):06x}"


def as_request(scope: Scope, request_id: str) -> Request[Any, Any, Any]:
    """A socket's scope as a request for the exception handler (it names the request id and
    the path)."""
    as_http: Any = dict(scope)
    as_http.update(
        type="http",
        method="WEBSOCKET",
        query_string=b"",
        headers=[],
        state={"request_id": request_id},
    )
    return Request(as_http)


_encoder = msgspec.json.Encoder()


def problem(request: Request[Any, Any, Any], id: str | None, exc: Exception) -> bytes:
    """A `problem` message: what HTTP would answer, made by the same exception handler."""
    response = handle_exception(request, exc)
    retry = response.headers.get("Retry-After")
    message = {
        "type": "problem",
        "id": id,
        "problem": response.content,
        "retry_after": int(retry) if retry is not None and retry.isdigit() else None,
    }
    return _encoder.encode(message)
