"""uvicorn's WebSocket protocols, closing open sockets with 1001 when the server shuts down.

uvicorn closes every open WebSocket itself when it stops, before the application hears of the
shutdown, and with 1012 ("service restart"). The seat socket's contract says 1001 ("going
away": reconnect, to another worker or instance, with `after`), which is what browsers and
libraries know. `SOCKET_IMPLEMENTATION` chooses which of uvicorn's implementations serves the
sockets (`protocol`); serve with `ws=protocol(settings.socket_implementation)` (uvicorn's `--ws
kronikas.api.ws_protocol:SeatSocketProtocol`). Everything else is uvicorn's own.
"""

from __future__ import annotations

import asyncio

import wsproto.events
from uvicorn._types import ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.protocols.websockets.wsproto_impl import WSProtocol

GOING_AWAY = 1001


class SeatSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol (websockets' sans-I/O), with 1001 on shutdown."""

    async def send(self, message: ASGISendEvent) -> None:
        await super().send(message)
        if message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            # An upgrade refused with an answer (api/socket.py) has ended its handshake: else
            # uvicorn logs "returned without completing handshake" as an error for each one.
            self.handshake_complete = True

    def shutdown(self) -> None:
        if self.handshake_complete and not self.close_sent and not self.disconnected:
            self.stop_keepalive()
            self.queue.put_nowait({"type": "websocket.disconnect", "code": GOING_AWAY})
            self.conn.send_close(GOING_AWAY, "going_away")
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.close_sent = True
            self.transport.close()
            return
        super().shutdown()


class SeatWsprotoProtocol(WSProtocol):
    """uvicorn's wsproto WebSocket protocol, with 1001 on shutdown."""

    def shutdown(self) -> None:
        if self.handshake_complete and not self.close_sent:
            self.stop_keepalive()
            self.queue.put_nowait({"type": "websocket.disconnect", "code": GOING_AWAY})
            event = wsproto.events.CloseConnection(code=GOING_AWAY, reason="going_away")
            self.transport.write(self.conn.send(event))
            self.close_sent = True
            self.transport.close()
            return
        super().shutdown()


IMPLEMENTATIONS: dict[str, type[asyncio.Protocol]] = {
    "websockets": SeatSocketProtocol,
    "wsproto": SeatWsprotoProtocol,
}
"""`SOCKET_IMPLEMENTATION`'s values, and the protocol each names."""


def protocol(implementation: str) -> type[asyncio.Protocol]:
    """The uvicorn protocol class of an implementation (`Settings.socket_implementation`)."""
    return IMPLEMENTATIONS[implementation]
