"""uvicorn's WebSocket protocols, closing open sockets with 1001 when the server shuts down.

uvicorn closes every open WebSocket itself when it stops, before the application hears of the
shutdown, and with 1012 ("service restart"). The seat socket's contract says 1001 ("going
away": reconnect, to another worker or instance, with `after`), which is what browsers and
libraries know. `SOCKET_IMPLEMENTATION` chooses which of uvicorn's implementations serves the
sockets (`protocol`); serve with `ws=protocol(settings.socket_implementation)` (uvicorn's `--ws
kronikas.api.ws_protocol:SeatSocketProtocol`). The default one also writes a text frame itself
while the socket is open and writable (`SeatSocketProtocol.send`, `text_frame`: issue 43's
cheaper move, docs/performance.md). Everything else is uvicorn's own.

Once a socket is done — its connection lost and the application's task ended — its protocol lets
go of everything it holds (`LetsGo`): the connection, its scope and the framework's objects in it
hold each other in cycles, which only the collector's full pass frees, and the service runs that
pass seldom (api/app.py). Without it, each closed socket left about 20 KB to the collector
(docs/performance.md, issue 43), and a service whose players come and go grew by that much a
socket until the pass came.
"""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Coroutine
from typing import Any

import wsproto.events
from uvicorn._types import ASGIReceiveEvent, ASGISendEvent
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.protocols.websockets.wsproto_impl import WSProtocol
from websockets.protocol import OPEN

GOING_AWAY = 1001
INBOX_PAUSE = 2
"""How many received messages a socket's inbox holds, not yet taken by the application, before
its connection stops being read (until the inbox is empty again). uvicorn stops at the first,
which cost every command two changes to the loop's watch on the connection; a seat sends one
command and waits for its result, so its inbox seldom holds two (a ping beside a command)."""


class LetsGo(asyncio.Protocol):
    """A uvicorn WebSocket protocol that empties itself and its scope once the connection is
    lost and the application's task has ended (whichever comes last), a loop turn later (after
    whatever subclass code runs after `connection_lost`): nothing calls it after both."""

    app_ended = False
    disconnected: bool
    scope: Any
    loop: asyncio.AbstractEventLoop

    def on_task_complete(self, task: asyncio.Task[None]) -> None:
        super().on_task_complete(task)  # type: ignore[misc]
        self.app_ended = True
        self.loop.call_soon(self._let_go)

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self.loop.call_soon(self._let_go)

    def _let_go(self) -> None:
        if self.__dict__ and self.disconnected and self.app_ended:
            self.scope.clear()
            self.__dict__.clear()


class Inbox:
    """uvicorn's queue of a socket's received messages (`put_nowait`, `get`, `empty`) without
    `asyncio.Queue`'s three deques and event (3 KB a socket): a list and one waiter."""

    __slots__ = ("items", "waiter")

    def __init__(self) -> None:
        self.items: list[ASGIReceiveEvent] = []
        self.waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: ASGIReceiveEvent) -> None:
        self.items.append(item)
        waiter = self.waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self.items

    def qsize(self) -> int:
        return len(self.items)

    async def get(self) -> ASGIReceiveEvent:
        while not self.items:
            self.waiter = asyncio.get_running_loop().create_future()
            try:
                await self.waiter
            finally:
                self.waiter = None
        return self.items.pop(0)


class Flag:
    """uvicorn's `writable` event (`set`, `clear`, `is_set`, `wait`) without `asyncio.Event`'s
    deque (760 bytes a socket): its waiters, if any, in a list made when one waits."""

    __slots__ = ("on", "waiters")

    def __init__(self) -> None:
        self.on = True
        self.waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self.on

    def set(self) -> None:
        self.on = True
        waiters, self.waiters = self.waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self.on = False

    async def wait(self) -> bool:
        while not self.on:  # a send waits only while the client does not read
            waiter = asyncio.get_running_loop().create_future()
            if self.waiters is None:
                self.waiters = []
            self.waiters.append(waiter)
            await waiter
        return True


def text_frame(data: bytes) -> bytes:
    """A server's unfragmented, uncompressed text frame of `data` (RFC 6455, 5.2): FIN and the
    opcode, the length in 7, 16 or 64 bits, and the payload, unmasked."""
    size = len(data)
    if size < 126:
        return bytes((0x81, size)) + data
    if size < 65536:
        return struct.pack("!BBH", 0x81, 126, size) + data
    return struct.pack("!BBQ", 0x81, 127, size) + data


async def _sent() -> None:
    """The send of a frame already written: nothing left to wait for."""


class SeatSocketProtocol(LetsGo, WebSocketsSansIOProtocol):
    """uvicorn's default WebSocket protocol (websockets' sans-I/O), with 1001 on shutdown,
    lighter versions of its receive queue and `writable` event, and a text frame written at once
    while the connection is open and writable (`send`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag()  # type: ignore[assignment]

    def send(self, message: ASGISendEvent) -> Coroutine[Any, Any, None]:
        # A text message, while the socket is open and its transport takes more, is framed here
        # and written: what uvicorn does then, without websockets' frame object and its
        # serialisation (1.7 against 0.3 µs a frame). Anything else is uvicorn's own send,
        # its coroutine handed back as is: no coroutine of ours around each frame sent.
        if message["type"] == "websocket.send":
            text = message.get("text")
            if (
                text is not None
                and self.writable.on  # type: ignore[attr-defined]
                and self.conn.state is OPEN
                and self.handshake_complete
                and self.initial_response is None
                and not (self.close_sent or self.disconnected)
            ):
                self.transport.write(text_frame(text.encode()))
                return _sent()
            return WebSocketsSansIOProtocol.send(self, message)
        return self._send(message)

    async def _send(self, message: ASGISendEvent) -> None:
        await WebSocketsSansIOProtocol.send(self, message)
        if message["type"] == "websocket.accept" and self.handshake_complete:
            # The handshake's request and answer are done with; their headers (2 KB) would
            # stay for the socket's life (the parser's frame holds the request).
            self.request.headers.clear()
            self.response.headers.clear()
        elif message["type"] == "websocket.http.response.body" and not message.get("more_body"):
            # An upgrade refused with an answer (api/socket_route.py) has ended its handshake: else
            # uvicorn logs "returned without completing handshake" as an error for each one.
            self.handshake_complete = True

    def send_receive_event_to_app(self) -> None:
        # uvicorn's own, which pauses reading unless it is paused already: told it is, it only
        # queues the message (or refuses it), and reading pauses here at `INBOX_PAUSE`.
        paused, self.read_paused = self.read_paused, True
        try:
            super().send_receive_event_to_app()
        finally:
            self.read_paused = paused
        if not paused and self.queue.qsize() >= INBOX_PAUSE:
            self.read_paused = True
            self.transport.pause_reading()

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


class SeatWsprotoProtocol(LetsGo, WSProtocol):
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
