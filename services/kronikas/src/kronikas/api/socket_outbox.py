"""A seat socket's sends, in order and bounded (docs/api.md, The seat socket).

The server's `send` is driven where it is called, and only a send that must wait (the client is
not reading) goes to a task; behind it, messages wait in a queue of at most `SOCKET_BACKLOG`
messages and `OUTBOX_BYTES` bytes (the send that waits, the queue and what the connection's
transport holds, together, besides one message: the larger of the one in flight, which the
transport holds, and the one whose send waits), and one more overflows: the socket closes (4508)
and nothing is buffered without bound. So a client that reads gets a message larger than the
bound whole, and one that does not pins at most the bound and that one message. The
connection's kernel send buffer is made small (api/sse.py, `Outlet`); a slow reader's connection
is dropped `CLOSE_GRACE_S` after its close was queued, should it not read that far.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from litestar.types import Send, WebSocketCloseEvent, WebSocketSendEvent

from kronikas.api.sse import Outlet, driven

CLOSE_GRACE_S = 10.0
"""How long a slow reader closed (4508) has to read as far as its close before its connection is
dropped, with what it holds."""


class Outbox:
    """What one socket sends: at once when the server takes it, else behind the send that waits.
    `overflow` is called when the client falls too far behind; `lost`, when the connection
    fails under a send."""

    def __init__(
        self,
        send: Send,
        backlog: int,
        bound: int,
        overflow: Callable[[], None],
        lost: Callable[[], None],
    ) -> None:
        self.send = send
        self.backlog, self.bound = backlog, bound
        self.overflow, self.on_lost = overflow, lost
        self.queue: list[str] = []
        """A list, not a deque: it is seldom more than empty, and an empty deque costs 600 bytes
        a socket (at most `SOCKET_BACKLOG` messages are taken from its front)."""
        self.draining: asyncio.Task[None] | None = None
        self.queued = 0
        """The bytes of the send that waits and of the messages queued behind it."""
        self.holding = 0
        """The bytes of the send that waits (0: none)."""
        self.outlet = Outlet(send)
        self.loop = asyncio.get_running_loop()
        self.sent_at = self.loop.time()
        self.gone = False
        """The client hung up (or its connection failed): nothing more can be sent."""
        self.dropped = False
        """A slow reader's: nothing more is sent but the close."""

    def put(self, text: str) -> None:
        """Send a message now when the server takes it at once; else queue it behind the send
        that waits, up to `SOCKET_BACKLOG` (one more overflows)."""
        if self.gone or self.dropped:
            return
        self.sent_at = self.loop.time()
        if self.draining is not None:
            self.queue.append(text)
            self.queued += len(text)
            if len(self.queue) > self.backlog or self.behind(0):
                self.overflow()
            return
        message: WebSocketSendEvent = {"type": "websocket.send", "bytes": None, "text": text}
        try:
            waiting = driven(self.send(message))
        except Exception:
            self.lost()
            return
        if waiting is None:
            if self.outlet.took(len(text)) > self.bound and self.behind(0):
                self.overflow()  # taken, but the client is not reading
            return
        self.queued = self.holding = len(text)
        self.draining = asyncio.ensure_future(self._drain(waiting, len(text)))

    def behind(self, owed: int) -> bool:
        """Whether what waits to be sent, and `owed` bytes more, come to more than the bound,
        besides the one message it spares: the larger of the one in flight and the one whose
        send waits."""
        outlet, holding = self.outlet, self.holding
        spared = max(outlet.in_flight(), holding)
        return self.queued + outlet.waiting() + owed - spared > self.bound

    async def _drain(self, sending: Any, first: int) -> None:
        """A send that waits for the client, then what queued up behind it, in order."""
        outlet = self.outlet
        try:
            await sending
            outlet.took(first)
            self.queued -= first
            send, queue = self.send, self.queue
            while queue:
                text = queue.pop(0)
                self.holding = len(text)
                await send({"type": "websocket.send", "bytes": None, "text": text})
                outlet.took(len(text))
                self.queued -= len(text)
        except asyncio.CancelledError:
            pass  # a slow reader: dropped
        except Exception:
            self.lost()
        finally:
            self.draining = None
            self.queued = self.holding = 0

    def lost(self) -> None:
        """The connection failed under a send: the client is gone."""
        self.gone = True
        self.queue.clear()
        self.on_lost()

    def drop(self) -> None:
        """A slow reader: what waits is dropped, the close goes in behind what the transport
        holds, and the connection is cut `CLOSE_GRACE_S` later."""
        self.dropped = True
        self.queue.clear()
        self.queued = self.holding = 0
        if self.draining is not None:
            self.draining.cancel()
        self.outlet.open_up()
        self.loop.call_later(CLOSE_GRACE_S, self.outlet.cut)

    async def close(self, code: int, reason: str) -> None:
        """The close message, once what is queued is sent (unless the client hung up)."""
        draining = self.draining
        if draining is not None:
            await asyncio.gather(draining, return_exceptions=True)
        if self.gone:
            return
        try:
            message: WebSocketCloseEvent = {
                "type": "websocket.close",
                "code": code,
                "reason": reason,
            }
            await self.send(message)
        except Exception:  # gone meanwhile: nothing to tell
            self.gone = True
