"""uvicorn's WebSocket protocol, closing open sockets with 1001 when the server shuts down.

uvicorn closes every open WebSocket itself when it stops, before the application hears of the
shutdown, and with 1012 ("service restart"). The seat socket's contract says 1001 ("going
away": reconnect, to another worker or instance, with `after`), which is what browsers and
libraries know. Serve with `ws=SeatSocketProtocol` (uvicorn's `--ws
kronikas.api.ws_protocol:SeatSocketProtocol`); everything else is uvicorn's own.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

GOING_AWAY = 1001


class SeatSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol (websockets' sans-I/O), with 1001 on shutdown."""

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
