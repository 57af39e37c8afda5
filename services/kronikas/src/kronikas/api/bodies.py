"""A request's body and headers as the routes read them: strictly, and within the limits."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions.http_exceptions import RequestEntityTooLarge

from kronikas.application.errors import InvalidRequest


def whole(value: Any) -> Any:
    """JSON Schema's integers include 5.0: make whole floats ints before the strict check."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**63:
        return int(value)
    if isinstance(value, dict):
        return {k: whole(v) for k, v in value.items()}
    if isinstance(value, list):
        return [whole(v) for v in value]
    return value


async def strict(request: Request[Any, Any, Any], kind: Any) -> Any:
    """The body decoded strictly (Litestar's own decoding converts `1` to `true`, `"5"` to 5)."""
    try:
        return msgspec.convert(whole(msgspec.json.decode(await request.body())), kind)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise InvalidRequest(str(exc)) from None


_COMMAND_HEADERS = (
    b"authorization",
    b"if-match",
    b"idempotency-key",
    b"content-length",
    b"content-type",
)


def command_headers(scope: Any) -> list[str | None]:
    """Authorization, If-Match, Idempotency-Key, Content-Length and Content-Type, in one pass."""
    found: list[str | None] = [None, None, None, None, None]
    for name, value in scope["headers"]:
        if name in _COMMAND_HEADERS:
            at = _COMMAND_HEADERS.index(name)
            if found[at] is None:  # the first of repeated headers counts, as elsewhere
                found[at] = value.decode("latin-1")
    return found


async def read_body(receive: Any, length: int | None, limit: int) -> bytes:
    """The body, straight from the ASGI messages; 413 past `limit` (announced or received)."""
    if length is not None and length > limit:
        raise RequestEntityTooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise InvalidRequest("The client went away before the body ended.")
        chunk: bytes = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise RequestEntityTooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
