"""Who may reach `/mcp` from a browser: the `Origin` and `Host` checks against DNS rebinding
(docs/security.md).

An agent's MCP client sends no `Origin`; a browser sends one with every POST. A page on another
site that makes a visitor's browser post to the service — directly, or through a name of its own
that it rebinds to the service's address — is refused by its `Origin`: only the origins in
`CORS_ORIGINS` may call, and, while the service listens on loopback only, the loopback origins
(`http://localhost:<port>`, `http://127.0.0.1:<port>`, `http://[::1]:<port>`). The `Host` is
checked before the request reaches the endpoint, as for every route (api/hosts.py,
`ALLOWED_HOSTS`): on loopback, unless a proxy is trusted, only the loopback names are served (a
rebound name arrives as its own `Host`), 421 `misdirected_request` otherwise.

A body over `MAX_BODY_BYTES` is 413 `payload_too_large` as everywhere else: refused by its
`Content-Length` before it is read, or, sent in chunks, by the SDK's own count, whose plain-text
answer is replaced.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kronikas.api.hosts import LOOPBACK, is_loopback
from kronikas.config import Settings


class OriginGuard:
    """The endpoint behind an `Origin` check (its `Host` is checked before: api/hosts.py)."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.loopback = is_loopback(settings.host.strip("[]"))
        self.listed = settings.lists_origin
        self.max_body_bytes = settings.max_body_bytes
        self.too_large = f"The body is over {settings.max_body_bytes} bytes."

    def origin_allowed(self, origin: str) -> bool:
        if self.listed(origin):
            return True
        if not self.loopback:
            return False
        try:
            parts = urlsplit(origin)
        except ValueError:
            return False
        return parts.scheme == "http" and parts.hostname in LOOPBACK and not parts.path

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            origin = length = None
            for name, value in scope["headers"]:
                if name == b"origin" and origin is None:
                    origin = value.decode("latin-1")
                elif name == b"content-length" and length is None:
                    length = value
            if origin is not None and not self.origin_allowed(origin):
                await _refuse(send, 403, "forbidden", "This origin may not call /mcp.")
                return
            if scope["method"] == "GET":
                # Stateless: the server never speaks first, so there is no stream to open. The
                # SDK would hold a GET open for good, outside every cap on streams.
                await _refuse(send, 405, "method_not_allowed", "POST a JSON-RPC message to /mcp.")
                return
            if length is not None and length.isdigit() and int(length) > self.max_body_bytes:
                await _refuse(send, 413, "payload_too_large", self.too_large)
                return
            send = self._sized(send)
        await self.app(scope, receive, send)

    def _sized(self, send: Send) -> Send:
        """`send`, with a 413 the transport answers (a chunked body over the limit) made the
        service's problem."""
        replaced = False

        async def sending(message: Message) -> None:
            nonlocal replaced
            if message["type"] == "http.response.start" and message["status"] == 413:
                replaced = True
                await _refuse(send, 413, "payload_too_large", self.too_large)
            elif not replaced:
                await send(message)

        return sending


async def _refuse(send: Send, status: int, code: str, detail: str) -> None:
    body = json.dumps({"status": status, "code": code, "detail": detail}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
