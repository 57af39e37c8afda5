"""Structured logs (one JSON object a line) and a request id on every request."""

from __future__ import annotations

import itertools
import json
import logging
import re
import secrets
import sys
import time
from collections.abc import Awaitable
from typing import Any

from litestar.enums import ScopeType
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from kronikas import metrics

_STANDARD = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}
_STANDARD.add("color_message")  # uvicorn's message again, with terminal colours
_SAFE_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")


_encode = json.JSONEncoder(default=str).encode
"""`json.dumps(value, default=str)`, its encoder made once."""


class JsonFormatter(logging.Formatter):
    """One JSON object per record, with the record's `extra` fields."""

    def __init__(self) -> None:
        super().__init__()
        self._second: tuple[int, Any, str] = (-1, None, "")
        """The last second formatted: a line a request, and the time's text changes once a
        second."""

    def format(self, record: logging.LogRecord) -> str:
        second = int(record.created)
        at, converter, text = self._second
        if second != at or converter is not self.converter:
            text = self.formatTime(record, "%Y-%m-%dT%H:%M:%S")
            self._second = (second, self.converter, text)
        out: dict[str, Any] = {
            "at": f"{text}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "msg": record.getMessage(),
        }
        standard = _STANDARD
        for key, value in record.__dict__.items():
            if key not in standard and key[:1] != "_":
                out[key] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return _encode(out)


def formatter(fmt: str) -> logging.Formatter:
    """The service's formatter for `LOG_FORMAT`: `json` or `text`."""
    if fmt == "json":
        return JsonFormatter()
    return logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s")


class _ServiceHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The service's handler (one a process; a new configuration replaces it)."""


def configure_logging(level: str, fmt: str) -> None:
    """Send the service's logs to stderr, as JSON or as text; and every other logger's lines
    (warnings and errors, the root logger's level) through the same handler, so no line of the
    output is in another format: Python's last-resort handler would print them as bare text."""
    handler = _ServiceHandler(sys.stderr)
    handler.setFormatter(formatter(fmt))
    logging.Formatter.converter = time.gmtime
    service = logging.getLogger("kronikas")
    service.handlers[:] = [handler]
    service.setLevel(level)
    service.propagate = False
    root = logging.getLogger()
    others = [h for h in root.handlers if not isinstance(h, _ServiceHandler)]
    root.handlers[:] = [*others, handler]


def route_template(scope: Scope) -> str:
    """The template of the route that served a request (`/v1/games/{game_id}`), never its path:
    what routing matched (the command lane names its own), the path a mounted app is mounted
    at (routing names none for it), or `none` when no route matched."""
    handler = scope.get("route_handler")
    if getattr(handler, "is_mount", False):
        paths = handler.paths
        if len(paths) == 1:
            return str(next(iter(paths)))
    return scope.get("path_template") or "none"


class RequestLogMiddleware:
    """Gives each request an id (`X-Request-ID`) and logs one line when it ends, and counts it
    (kronikas/metrics.py) by its route's template, never its path: a path names a table.

    Only the path is logged, never the query string or headers: tokens travel there.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.log = logging.getLogger("kronikas.access")
        # Ids must be unique, not secret: a random prefix per process, then a count.
        self._prefix = secrets.token_hex(5)
        self._count = itertools.count()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        request_id = ""
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                candidate = value.decode("latin-1")
                if _SAFE_ID.match(candidate):
                    request_id = candidate
                break
        request_id = request_id or f"{self._prefix}{next(self._count):06x}"
        scope.setdefault("state", {})["request_id"] = request_id
        started = time.perf_counter()
        status = 0
        header = (b"x-request-id", request_id.encode())

        def send_with_id(message: Message) -> Awaitable[None]:
            # The server's own send, its awaitable handed back: no coroutine of ours a message.
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), header]
            return send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            took = time.perf_counter() - started
            if metrics.counting():
                metrics.http_request(route_template(scope), scope["method"], status, took)
            log = self.log
            if log.isEnabledFor(logging.INFO):
                # The path as asked (routing hands a mounted app, `/mcp`, only the rest of it
                # in `path`).
                raw = scope.get("raw_path")
                path = raw.decode("latin-1") if raw else scope["path"]
                extra = {"request_id": request_id, "status": status, "ms": round(took * 1000, 2)}
                # As `log.info` makes it, less the look for the caller's file and line, which
                # no line of the service's shows.
                record = log.makeRecord(
                    log.name,
                    logging.INFO,
                    "",
                    0,
                    "%s %s %s",
                    (scope["method"], path, status),
                    None,
                    extra=extra,
                )
                log.handle(record)
