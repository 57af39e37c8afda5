"""The event stream's response: a change's frames are sent as the change comes.

Litestar's `Stream` hands each chunk through a task group, the iterator's layers and the `send` of
every middleware, each of which only looks at the response's start. Under the follow workload
every move sends a frame to each seat's stream, and waking each stream's task to do it cost more
than the frame (docs/performance.md). So:

- the stream's start goes the framework's way (its headers, the request id, the CORS headers);
- its frames go straight to the server's `send`, which the application keeps in the scope
  (`SERVER_SEND`): nothing here may transform a response's body on its way, and a middleware
  that did would have to change this;
- while the stream's task waits, a change is served in the change feed's own callback (the
  waiter's `push`, `_Push`): when the table this process holds has the events and the server's
  `send` is done as soon as called, the frames are sent there and then, and the task sleeps on.
  Otherwise (a gap to read, a page and more, a socket backed up, a send that failed) the task is
  woken and does it, as it always may.

A slow reader holds little: its connection's kernel send buffer is made small (`Outlet`,
`SEND_BUFFER_BYTES`), a send that must wait holds one frame, and the events it falls behind by
are the table's, shared with every other viewer. Once those events and what its connection holds
for it come to more than `OUTBOX_BYTES`, the stream is ended: its connection is cut (as the
seat socket closes a slow reader, 4508).

The stream ends when the client hangs up: a task waits for the server's `http.disconnect` and
cancels the stream's own wait, as the framework's streaming response does. It also ends when its
viewer's player leaves the table before the start: the token then holds no seat, and a stream
never goes on for the seat index it had (another player's now).
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import Awaitable, Coroutine, Generator
from types import CoroutineType
from typing import Any

from litestar import Request
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import Message, Receive, Scope, Send

from kronikas import metrics
from kronikas.application.errors import Unauthorized, Unavailable
from kronikas.application.session import Session
from kronikas.application.wire import Delivered

log = logging.getLogger("kronikas.sse")

SERVER_SEND = "kronikas.server_send"
"""The scope's key for the server's own `send` (set by the application, api/lane.py)."""

KEEP_ALIVE = b": keep-alive\r\n\r\n"

SEND_BUFFER_BYTES = 32 * 1024
"""The kernel send buffer asked for a stream's or a seat socket's connection (`SO_SNDBUF`; Linux
doubles it): what a client that stops reading leaves in the kernel is this much, not the megabytes
the kernel would grow a buffer to for a fast one. A game's events are small; a page of 500 (about
100 KB) goes out in a few round trips."""


SLOW_CHECK_S = 1.0
"""How often a stream whose send waits for its client is checked against `OUTBOX_BYTES`."""


_TRANSPORT = ("get_write_buffer_size", "set_write_buffer_limits", "abort", "get_extra_info")
"""What `Outlet` needs of a transport (uvloop's are no subclasses of asyncio's)."""


class Outlet:
    """The connection under a stream's or a seat socket's sends, when the server lets us reach
    it (uvicorn's `send` is a method of the object that holds its transport; with another
    server, nothing is reached and nothing is done): its kernel send buffer made small at once,
    the bytes its transport holds for the client, and the cut of a reader too slow."""

    __slots__ = ("after", "big", "transport")

    def __init__(self, send: Any) -> None:
        transport: Any = getattr(getattr(send, "__self__", None), "transport", None)
        self.transport: asyncio.WriteTransport | None = None
        self.big = 0
        """The bytes the transport took of the message in flight (`in_flight`); 0: none."""
        self.after = 0
        """The bytes it took after that message."""
        if not all(hasattr(transport, name) for name in _TRANSPORT):  # asyncio's, or uvloop's
            return
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            try:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER_BYTES)
            except OSError:  # not a socket that has one (a Unix pipe): its default stays
                log.debug("no SO_SNDBUF", exc_info=True)

    def waiting(self) -> int:
        """The bytes the transport holds that the kernel has not taken."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return 0
        return transport.get_write_buffer_size()

    def took(self, size: int) -> int:
        """Right after a send of a message of `size` bytes is done (the transport took it): the
        bytes the transport holds; those of the message among them become the message in
        flight when they outweigh what it holds of the one before."""
        transport = self.transport  # `waiting`, inline: once a frame sent
        if transport is None or transport.is_closing():
            return 0
        now = transport.get_write_buffer_size()
        if now <= 0:  # the kernel took it all, as it does while the client reads
            return now
        part = min(now, size)  # the kernel took the rest at once, or it is all behind the rest
        if part > 0:
            before = now - part - self.after  # of the message in flight, and what came before it
            if before <= 0 or part >= min(before, self.big):
                self.big, self.after = part, 0
            else:
                self.after += part
        return now

    def in_flight(self) -> int:
        """The bytes the transport holds of the message in flight: each time it takes one,
        whichever it holds more of, that one or the one in flight before (a reader that reads
        is reading it). `OUTBOX_BYTES` bounds what waits besides it, so that a reader that reads
        gets a message larger than the bound whole, and one that does not pins at most the bound
        and one message."""
        big = self.big
        if not big:
            return 0
        left = self.waiting() - self.after
        if left <= 0:
            self.big = self.after = 0
            return 0
        return min(left, big)

    def open_up(self) -> None:
        """Let one last message in (a socket's close) however backed up the transport is: its
        limit raised, and its protocol told it may write again (asyncio tells it only once the
        buffer drains)."""
        transport = self.transport
        if transport is not None and not transport.is_closing():
            transport.set_write_buffer_limits(high=1 << 30)
            protocol = transport.get_protocol()
            if isinstance(protocol, asyncio.Protocol):
                protocol.resume_writing()

    def cut(self) -> None:
        """Drop the connection and what it holds for the client."""
        if self.transport is not None:
            self.transport.abort()


def frame(event: Delivered | None) -> bytes:
    """An event's SSE frame (stored events are JSON, which holds no raw line break)."""
    if event is None:
        return KEEP_ALIVE
    return b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n" % (
        event.version,
        event.type.encode(),
        event.json,
    )


class EventStream(Stream):
    """`text/event-stream` of a table's events, as a viewer's `Session` follows them; `bound`:
    the most its reader may fall behind by, in bytes (`OUTBOX_BYTES`)."""

    __slots__ = ("bound", "session")

    def __init__(self, session: Session, headers: dict[str, str], bound: int) -> None:
        super().__init__((), media_type="text/event-stream", headers=headers)
        self.session, self.bound = session, bound

    def to_asgi_response(self, app: Any, request: Request[Any, Any, Any], **kwargs: Any) -> Any:
        start = super().to_asgi_response(app, request, **kwargs)
        return _Frames(start, self.session, self.bound)


async def _hung_up(receive: Receive) -> None:
    """Returns once the client is gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


class _Frames:
    """The response: its start as the framework makes it, then the frames, until the client
    hangs up."""

    __slots__ = ("bound", "session", "start")

    def __init__(self, start: ASGIResponse, session: Session, bound: int) -> None:
        self.start, self.session, self.bound = start, session, bound

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = self.start
        try:
            await start.start_response(send)
            if start.is_head_response:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                with metrics.open_connection("stream"):
                    await _pump(self.session, scope.get(SERVER_SEND, send), receive, self.bound)  # type: ignore[arg-type]
        finally:
            self.session.close()  # its place, given back however the response ends
        await start.after_response()


def _body(body: bytes, more: bool = True) -> Message:
    return {"type": "http.response.body", "body": body, "more_body": more}


class _Push:
    """The waiter's `push`: a change's frames sent as it comes, in the change feed's callback,
    without waking the stream's task, when the events are at hand and the server's `send` is done
    as soon as called (it awaits only while the client's socket is backed up). A send that must
    wait is left to the stream's task to finish (`held`) before anything else it sends."""

    __slots__ = ("bound", "held", "holding", "outlet", "send", "session", "timer")

    def __init__(self, session: Session, send: Send, bound: int) -> None:
        self.session, self.send, self.bound = session, send, bound
        self.held: HeldSend | None = None
        self.holding = 0
        """The bytes of the frame whose send waits (`held`, or the task's own): 0 when none."""
        self.outlet = Outlet(send)
        self.timer: asyncio.TimerHandle | None = None

    def __call__(self) -> bool:
        if self.held is not None:
            return False
        session = self.session
        try:
            events = session.at_hand()
            if events is None:
                return False
            for event in events:
                body = frame(event)
                sending = self.send(_body(body))
                if type(sending) is not CoroutineType:  # not one to drive here: the task's
                    return False
                try:
                    blocked = sending.send(None)
                except StopIteration:
                    session.after = event.version
                    if self.outlet.took(len(body)) > self.bound and self._check():
                        return True  # taken, but the client is not reading
                    continue
                self.held, self.holding = HeldSend(sending, blocked), len(body)
                session.after = event.version  # on its way: the task sends it first
                return False
        except Exception:  # the stream's task meets it again, where it can end the stream
            log.debug("a push failed", exc_info=True)
            return False
        return True

    async def send_now(self, body: bytes, more: bool = True) -> None:
        """The stream task's own send of `body`: done where it is called when the server takes
        it at once, else awaited (`wait_out`)."""
        sending = driven(self.send(_body(body, more)))
        if sending is None:
            if self.outlet.took(len(body)) > self.bound:  # taken, but the client is not reading
                self._check()
            return
        await self.wait_out(sending, len(body))

    async def send_all(self, events: list[Delivered]) -> None:
        """The stream task's own sends of `events`' frames, in order."""
        session = self.session
        for event in events:
            session.after = event.version  # on its way: not owed (`_check`)
            await self.send_now(frame(event))

    async def wait_out(self, sending: Awaitable[None], size: int) -> None:
        """A send (of `size` bytes) that waits for the client, awaited; meanwhile, every
        `SLOW_CHECK_S`, the stream is checked against the bound (`_check`)."""
        loop = asyncio.get_running_loop()
        timer = loop.call_later(SLOW_CHECK_S, self._tick, loop)
        self.timer, self.holding = timer, size
        try:
            await sending
            self.outlet.took(size)
        finally:
            self.holding = 0
            if self.timer is not None:
                self.timer.cancel()
                self.timer = None

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        self.timer = None
        if not self._check():
            self.timer = loop.call_later(SLOW_CHECK_S, self._tick, loop)

    def _check(self) -> bool:
        """While a send waits for the client: cut the connection (True) once the events the
        stream is behind by and what the connection holds come to more than the bound, besides
        the one frame the bound spares: the larger of the one in flight (`Outlet.in_flight`)
        and the one whose send waits."""
        outlet, holding = self.outlet, self.holding
        owed = outlet.waiting() + holding - max(outlet.in_flight(), holding)
        if owed <= self.bound:
            behind = self.session.owed_bytes()
            owed += self.bound + 1 if behind is None else behind
        if owed > self.bound:
            log.info("a stream's reader is too slow: ended")
            outlet.cut()
            return True
        return False


def driven(sending: Awaitable[None]) -> Awaitable[None] | None:
    """A server's send driven as far as it goes at once: None when the server took it, else
    what is left of it to await (`HeldSend`; a send that is no coroutine, whole). A send that fails
    raises here."""
    if type(sending) is not CoroutineType:
        return sending
    try:
        blocked = sending.send(None)
    except StopIteration:
        return None
    return HeldSend(sending, blocked)


class HeldSend:
    """A send begun outside the task that owns the connection and waiting (for the client to
    read): awaited, it goes on in the awaiting task, as `await` of it would have. The stream's
    pushes and the seat socket's (api/socket.py) both start sends this way."""

    __slots__ = ("blocked", "sending")

    def __init__(self, sending: Coroutine[Any, Any, None], blocked: Any) -> None:
        self.sending, self.blocked = sending, blocked

    def __await__(self) -> Generator[Any, Any, None]:
        blocked = self.blocked
        while True:
            try:
                yield blocked
            except BaseException as exc:  # the task's cancel, into the send it interrupts
                try:
                    blocked = self.sending.throw(exc)
                except StopIteration:
                    return
                continue
            try:
                blocked = self.sending.send(None)
            except StopIteration:
                return


async def _pump(session: Session, send: Send, receive: Receive, bound: int) -> None:
    """Sends each event's frame as it comes, until the client hangs up."""
    stream = asyncio.current_task()
    assert stream is not None
    gone = False

    def cut(listener: asyncio.Future[None]) -> None:
        nonlocal gone
        if not listener.cancelled() and listener.exception() is None:
            gone = True
            stream.cancel()

    listener = asyncio.ensure_future(_hung_up(receive))
    listener.add_done_callback(cut)
    push = _Push(session, send, bound)
    try:
        async with session:
            assert session.waiter is not None
            session.waiter.push = push
            while not gone:
                events = await session.next()
                if push.held is not None:  # begun before these were owed: it goes first
                    held, push.held = push.held, None
                    await push.wait_out(held, push.holding)
                if events is None:
                    await push.send_now(KEEP_ALIVE)
                    continue
                await push.send_all(events)
                # Not held across the next wait: an idle stream kept its last page (its
                # catch-up, several KB) for as long as it idled.
                events = None
    except Unauthorized:  # its player left the table before the start: nothing more is theirs
        if push.held is not None:
            held, push.held = push.held, None
            await push.wait_out(held, push.holding)
        await push.send_now(b"", more=False)
    except Unavailable as exc:  # the store away while owed events were read (a failover)
        # Ended, not failed: the client reconnects with `Last-Event-ID` and misses nothing.
        log.warning("stream ended: the store is unavailable", extra={"why": str(exc)})
        if push.held is not None:
            held, push.held = push.held, None
            await push.wait_out(held, push.holding)
        await push.send_now(b"", more=False)
    except asyncio.CancelledError:
        if not gone:
            raise
        stream.uncancel()  # our own cancel: the client left, and the response is done
    finally:
        listener.remove_done_callback(cut)
        listener.cancel()
