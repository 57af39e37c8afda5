"""The seat socket's route, `/v1/games/{id}/socket`: its upgrade taken, its socket run.

The upgrade is taken before the framework (`takes`, `serve`: api/lane.py calls them, after the
`Host` check), as the command lane takes its route: routing it through Litestar cost each open
socket ~3 KB for as long as it stayed open (the framework's frames — its app, exception
middleware, router and route — its `WebSocket` and the handler's arguments, all waiting under
the socket's own frames: docs/performance.md, issue 43). What the framework did for the route is
done here: the path's table id, the `connect` received before the upgrade is taken, a close with
4500. The route is still declared to the framework (`seat_socket`), which serves any upgrade the
lane leaves to it (a path `takes` does not match exactly) with the same code. Each socket, once
accepted, is api/socket.py's.
"""

from __future__ import annotations

import logging
import re
from typing import Any

from litestar import Litestar, WebSocket, websocket
from litestar.types import Receive, Send, WebSocketAcceptEvent, WebSocketCloseEvent

from kronikas import metrics
from kronikas.api.socket import Socket
from kronikas.api.socket_gate import FOREIGN_ORIGIN, GOING_AWAY, origin_allowed, refuse_upgrade
from kronikas.api.sse import SERVER_SEND
from kronikas.application.errors import Forbidden
from kronikas.application.games import Games

log = logging.getLogger("kronikas.socket")

PATH = "/v1/games/{game_id:str}/socket"
TEMPLATE = "/v1/games/{game_id}/socket"
"""The route's template, as routing names it."""
_ROUTE = re.compile(r"/v1/games/([^/]+)/socket")


def takes(scope: Any) -> str | None:
    """The table's id when the seat socket's own route serves this upgrade, else None."""
    if scope["type"] != "websocket":
        return None
    found = _ROUTE.fullmatch(scope["path"])
    return None if found is None else found[1]


async def serve(app: Litestar, game_id: str, scope: Any, receive: Receive, send: Send) -> None:
    """The seat socket of `game_id`, ahead of the framework (the upgrade `takes` matched)."""
    scope["app"] = scope["litestar_app"] = app
    scope["path_params"] = {"game_id": game_id}
    scope["path_template"] = TEMPLATE
    try:
        await _seat(app, scope, receive, send, send)
    except Exception:  # as the framework's route: logged, and closed with 4500
        log.exception("a seat socket failed")
        # What the framework closes a socket with when its route raises.
        failed: WebSocketCloseEvent = {
            "type": "websocket.close",
            "code": 4500,
            "reason": "Internal Server Error",
        }
        await send(failed)


@websocket(PATH, name="seat_socket")
async def seat_socket(socket: WebSocket[Any, Any, Any]) -> None:
    """`/v1/games/{id}/socket` (docs/api.md, The seat socket)."""
    scope: Any = socket.scope
    # The server's own `send`, where the application keeps it in the scope (api/lane.py, as
    # for the stream's frames): no layer of the framework's between a message and the socket.
    await _seat(socket.app, scope, socket.receive, socket.send, scope.get(SERVER_SEND))


async def _seat(app: Litestar, scope: Any, receive: Receive, send: Send, raw: Send | None) -> None:
    """A seat socket from its upgrade to its close; `raw`, the server's own `send` (for every
    message after the upgrade is accepted) when the app has it."""
    games: Games = app.state.games
    if not origin_allowed(scope, games.settings):
        await refuse_upgrade(scope, send, Forbidden(FOREIGN_ORIGIN))
        return
    if (await receive())["type"] != "websocket.connect":
        return  # the client left before its upgrade was accepted
    accept: WebSocketAcceptEvent = {"type": "websocket.accept", "subprotocol": None, "headers": []}
    await send(accept)
    seat = Socket(games, app.state.wire.commands, scope, receive, raw or send)
    sockets: set[Socket] = app.state.sockets
    sockets.add(seat)
    try:
        with metrics.open_connection("socket"):
            await seat.run()
    finally:
        sockets.discard(seat)
        seat.release()
        scope.pop(SERVER_SEND, None)


def close_all(sockets: set[Socket]) -> None:
    """The server is shutting down: every open socket closes with 1001 (reconnect elsewhere)."""
    for socket in list(sockets):
        socket.close(GOING_AWAY, "going_away")
