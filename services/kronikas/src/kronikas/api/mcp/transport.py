"""The endpoint's own layer around the SDK's transport (docs/api.md, MCP: limits and errors).

`NoStore`, outside everything at `/mcp` (the guard's refusals included): every answer says
`Cache-Control: no-store` — a tool result can hold a token or a hand.

`Bounded`, between the guard and the SDK, reads the request (at most `MAX_BODY_BYTES`) before
the SDK does, and:
- refuses a message whose `id` is longer than `ID_MAX` as an invalid request (-32600) with
  `id: null`, so that no answer echoes it;
- charges each message that names no token of its own — `initialize`, `ping`, the lists,
  prompts, resources, notifications, and the tools that take no token (`list_games`, a tool
  that does not exist) — to the client address's read bucket, the one HTTP reads without a token
  pay (`READ_LIMIT_PER_S`, `READ_LIMIT_BURST`). The other tools pay as their use cases do. An
  empty bucket is HTTP 429 with `Retry-After` and, as its body, a JSON-RPC error (-32000,
  `data.code` `rate_limited`, `data.retry_after_s`): an HTTP client or proxy reads the status,
  the SDK's client hands the error to its caller;
- bounds every error of the answer against the request (api/mcp/bounds.py): a JSON-RPC error's
  `message` and `data`, and a tool error's `detail`.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kronikas import metrics
from kronikas.api.client import client_address
from kronikas.api.mcp.bounds import ID_MAX, Inputs
from kronikas.application.errors import ApiError, RateLimited
from kronikas.application.games import Games
from kronikas.config import Settings

PAYING_TOOLS = frozenset(
    {
        "list_tables",
        "open_table",
        "join_table",
        "start_table",
        "get_view",
        "make_move",
        "leave_table",
        "wait",
        "get_events",
        "record",
        "arena_enter",
        "arena_ratings",
    }
)
"""The tools that pay for themselves, each as the HTTP route that does the same (tools.py)."""

INVALID_REQUEST = -32600
LIMITED = -32000
"""The JSON-RPC code of a refusal by a limit (the range JSON-RPC leaves to servers)."""


class NoStore:
    """Every answer under `/mcp` with `Cache-Control: no-store`."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (name, value)
                    for name, value in message.get("headers", [])
                    if name.lower() != b"cache-control"
                ]
                headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


class Bounded:
    """The SDK's transport behind the id bound, the limit on token-less calls, and bounded
    errors."""

    def __init__(self, app: ASGIApp, settings: Settings, games: Callable[[], Games]) -> None:
        self.app = app
        self.settings = settings
        self.games = games

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        body = await _body(receive, self.settings.max_body_bytes)
        if body is None:  # over the limit: the guard makes this 413 the service's problem
            await _answer(send, 413, b"", "text/plain")
            return
        try:
            parsed = json.loads(body)
        except (ValueError, RecursionError):
            parsed = None  # the SDK answers its parse error, bounded below
        messages = parsed if isinstance(parsed, list) else [parsed]
        if any(_id_too_long(m) for m in messages):
            detail = f"Invalid request: an `id` is at most {ID_MAX} characters."
            await _rpc_error(send, 400, None, INVALID_REQUEST, detail)
            return
        client = client_address(scope, self.settings)
        for message in messages:
            if _token_less(message):
                try:
                    await self.games().read_paid(client)
                except ApiError as exc:
                    await _limited(send, message, exc)
                    return
        inputs = Inputs(body, parsed)
        await self.app(scope, _replay(body, receive), _bounding(send, inputs))


def _id_too_long(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    id_ = message.get("id")
    if isinstance(id_, str):
        return len(id_) > ID_MAX
    if isinstance(id_, int) and not isinstance(id_, bool):
        return id_.bit_length() > 400 or len(str(id_)) > ID_MAX
    if isinstance(id_, float):
        return len(repr(id_)) > ID_MAX
    return False


def _token_less(message: Any) -> bool:
    """Whether the message is one that no tool's use case pays for."""
    if not isinstance(message, dict) or message.get("method") != "tools/call":
        return True
    params = message.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    return not isinstance(name, str) or name not in PAYING_TOOLS


async def _body(receive: Receive, limit: int) -> bytes | None:
    """The request's body, or None past `limit` bytes (what was read of it is dropped)."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] != "http.request":
            break
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return b"".join(chunks)


def _replay(body: bytes, receive: Receive) -> Receive:
    """The body once more for the SDK, then the connection's own messages (a disconnect)."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _bounding(send: Send, inputs: Inputs) -> Send:
    """`send`, with a JSON answer held until it is whole and its errors bounded."""
    start: Message | None = None
    chunks: list[bytes] = []

    async def sending(message: Message) -> None:
        nonlocal start
        if message["type"] == "http.response.start":
            if _json(message):
                start = message
                return
        elif message["type"] == "http.response.body" and start is not None:
            chunks.append(message.get("body", b""))
            if message.get("more_body", False):
                return
            body = b"".join(chunks)
            bounded = bounded_answer(body, inputs)
            if bounded is not None:
                body = bounded
            headers = [(k, v) for k, v in start.get("headers", []) if k != b"content-length"]
            headers.append((b"content-length", str(len(body)).encode()))
            await send({**start, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return
        await send(message)

    return sending


def _json(start: Message) -> bool:
    for name, value in start.get("headers", []):
        if name.lower() == b"content-type":
            return bytes(value).lower().startswith(b"application/json")
    return False


def bounded_answer(body: bytes, inputs: Inputs) -> bytes | None:
    """The answer with each error in it bounded (`Inputs.bounded`); None when it holds none."""
    if b'"error":' not in body and b'"isError":true' not in body:  # the SDK writes compact JSON
        return None
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    for message in answer if isinstance(answer, list) else [answer]:
        if not isinstance(message, dict):
            continue
        error = message.get("error")
        if isinstance(error, dict):
            _bound_error(error, inputs)
        result = message.get("result")
        if isinstance(result, dict) and result.get("isError") is True:
            for block in result.get("content") or []:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    block["text"] = _bound_tool_error(block["text"], inputs)
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":")).encode()


def _bound_error(error: dict[str, Any], inputs: Inputs) -> None:
    code = error.get("code")
    code = code if isinstance(code, int) else None
    error["message"] = inputs.bounded(str(error.get("message", "")), code)
    data = error.pop("data", None)
    if isinstance(data, str) and data:  # what the SDK's `data` holds is the input refused
        error["data"] = inputs.bounded(data, code)


def _bound_tool_error(text: str, inputs: Inputs) -> str:
    try:
        problem = json.loads(text)
    except ValueError:
        problem = None
    if not isinstance(problem, dict):
        return inputs.bounded(text)
    for key in ("code", "detail"):
        if isinstance(problem.get(key), str):
            problem[key] = inputs.bounded(problem[key])
    return json.dumps(problem, ensure_ascii=False)


async def _limited(send: Send, message: Any, exc: ApiError) -> None:
    """A refusal by a limit (429, or 503 should the bucket not answer), as a JSON-RPC error."""
    wait = exc.retry_after or 1
    metrics.answered(exc.code, "mcp")
    status = 429 if isinstance(exc, RateLimited) else 503
    data = {"code": exc.code, "retry_after_s": wait}
    id_ = message.get("id") if isinstance(message, dict) else None
    await _rpc_error(send, status, id_, LIMITED, exc.detail, data, {"retry-after": str(wait)})


async def _rpc_error(
    send: Send,
    status: int,
    id_: Any,
    code: int,
    text: str,
    data: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> None:
    error: dict[str, Any] = {"code": code, "message": text}
    if data is not None:
        error["data"] = data
    if not isinstance(id_, str | int) or isinstance(id_, bool):
        id_ = None
    body = json.dumps({"jsonrpc": "2.0", "id": id_, "error": error}).encode()
    await _answer(send, status, body, "application/json", headers)


async def _answer(
    send: Send,
    status: int,
    body: bytes,
    content_type: str,
    headers: dict[str, str] | None = None,
) -> None:
    extra = [(k.encode(), v.encode()) for k, v in (headers or {}).items()]
    start = {
        "type": "http.response.start",
        "status": status,
        "headers": [
            (b"content-type", content_type.encode()),
            (b"content-length", str(len(body)).encode()),
            *extra,
        ],
    }
    await send(start)
    await send({"type": "http.response.body", "body": body})
