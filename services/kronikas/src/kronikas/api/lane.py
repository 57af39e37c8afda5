"""The command lane: `POST /v1/games/{id}/commands` served ahead of the framework.

A move is the request clients make most, and under the follow workload the framework's share of
it (routing, two exception layers, the handler's signature, the response object) cost about as
much as the move's own work (docs/performance.md). The lane takes that one route before Litestar
routes it: the same work (`games.run_command`), the same answer, the same request id and access
log line (`RequestLogMiddleware` wraps the lane too), and every refusal made by the same exception
handler as everywhere else.

Before either, every request and socket upgrade passes the `Host` check (api/hosts.py,
`ALLOWED_HOSTS`): a name the service does not serve is 421 before anything reads the request.
The seat socket's upgrade is taken ahead of the framework too (api/socket_route.py, `serve`).

It steps aside, and the framework serves the route as before, for any request that carries an
`Origin` header (the CORS middleware answers those) and for any path that is not exactly the
route's; the framework also still declares the route for the OpenAPI document.
"""

from __future__ import annotations

import re
from typing import Any

from litestar import Litestar, Request
from litestar.types import Message, Receive, Scope, Send

from kronikas.api import socket_route
from kronikas.api.hosts import Hosts, misdirected
from kronikas.api.logs import RequestLogMiddleware
from kronikas.api.problems import handle_exception
from kronikas.api.routes import JSON, PRIVATE, run_command
from kronikas.api.shapes import ApiWire
from kronikas.api.sse import SERVER_SEND
from kronikas.application.games import Games

_ROUTE = re.compile(r"/v1/games/([^/]+)/commands")
TEMPLATE = "/v1/games/{game_id}/commands"
"""The route's template, as routing names it (what its requests are counted by)."""
_JSON = JSON.encode()
_HEADERS = [(name.lower().encode(), value.encode()) for name, value in PRIVATE.items()]


def takes(scope: Any) -> re.Match[str] | None:
    """The match of the route's path when the lane serves this request, else None."""
    if scope["type"] != "http" or scope["method"] != "POST":
        return None
    found = _ROUTE.fullmatch(scope["path"])
    if found is None:
        return None
    for name, _ in scope["headers"]:
        if name == b"origin":
            return None
    return found


class Kronikas(Litestar):
    """The application, with the command lane in front of the framework."""

    def __init__(
        self, *args: Any, wire: ApiWire, hosts: Hosts | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.wire = wire
        """The wire types of the games this app runs (`create_app(games=...)`)."""
        self.hosts = hosts or Hosts(any=True)
        """The `Host` names it answers to (api/hosts.py), checked before the lane and routing."""
        self._misdirected = RequestLogMiddleware(misdirected)
        self._commands = wire.commands
        self._lane = RequestLogMiddleware(self._command)
        # Every request has its id and its log line, the framework's own answers too (a route
        # that does not exist, a method the route does not take): the log wraps the whole app.
        self._logged = RequestLogMiddleware(super().__call__)
        self.games: Games | None = None
        """The use cases, while the application runs (start-up sets them, shut-down clears
        them): what `state.games` holds, without the state's lookup on every move."""

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan" and not self.hosts.allows(scope):
            await self._misdirected(scope, receive, send)
            return
        if (game_id := socket_route.takes(scope)) is not None:  # the seat socket's own route
            await socket_route.serve(self, game_id, scope, receive, send)
            return
        if (found := takes(scope)) is not None:
            scope["app"] = scope["litestar_app"] = self
            scope["path_params"] = {"game_id": found[1]}
            scope["path_template"] = TEMPLATE
            await self._lane(scope, receive, send)
            return
        if scope["type"] in ("http", "websocket"):  # for the stream's and socket's frames
            scope[SERVER_SEND] = send
        await self._logged(scope, receive, send)

    async def _command(self, scope: Scope, receive: Receive, send: Send) -> None:
        games: Games = self.games or self.state.games
        try:
            answer = await run_command(
                games, self._commands, scope["path_params"]["game_id"], scope, receive
            )
        except Exception as exc:  # answered as the framework answers it, problem+json
            request: Request[Any, Any, Any] = Request(scope, receive, send)
            response = handle_exception(request, exc).to_asgi_response(None, request)
            await response(scope, receive, send)
            return
        body = answer.body
        start: Message = {
            "type": "http.response.start",
            "status": 200,
            "headers": [
                (b"content-type", _JSON),
                (b"etag", b'"%d"' % answer.version),
                (b"content-length", b"%d" % len(body)),
                *_HEADERS,
            ],
        }
        await send(start)
        await send({"type": "http.response.body", "body": body, "more_body": False})
