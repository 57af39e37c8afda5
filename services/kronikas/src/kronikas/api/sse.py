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

The stream ends when the client hangs up: a task waits for the server's `http.disconnect` and
cancels the stream's own wait, as the framework's streaming response does. It also ends when its
viewer's player leaves the table before the start: the token then holds no seat, and a stream
never goes on for the seat index it had (another player's now).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Generator
from types import CoroutineType
from typing import Any

from litestar import Request
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import Message, Receive, Scope, Send

from kronikas.application.errors import Unauthorized
from kronikas.application.queries import Following
from kronikas.application.wire import Delivered

log = logging.getLogger("kronikas.sse")

SERVER_SEND = "kronikas.server_send"
"""The scope's key for the server's own `send` (set by the application, api/lane.py)."""

KEEP_ALIVE = b": keep-alive\r\n\r\n"


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
    """`text/event-stream` of a table's events, as `Queries.stream` follows them."""

    __slots__ = ("following",)

    def __init__(self, following: Following, headers: dict[str, str]) -> None:
        super().__init__((), media_type="text/event-stream", headers=headers)
        self.following = following

    def to_asgi_response(self, app: Any, request: Request[Any, Any, Any], **kwargs: Any) -> Any:
        start = super().to_asgi_response(app, request, **kwargs)
        return _Frames(start, self.following)


async def _hung_up(receive: Receive) -> None:
    """Returns once the client is gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


class _Frames:
    """The response: its start as the framework makes it, then the frames, until the client
    hangs up."""

    __slots__ = ("following", "start")

    def __init__(self, start: ASGIResponse, following: Following) -> None:
        self.start, self.following = start, following

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = self.start
        try:
            await start.start_response(send)
            if start.is_head_response:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
            else:
                await _pump(self.following, scope.get(SERVER_SEND, send), receive)  # type: ignore[arg-type]
        finally:
            self.following.close()  # its place, given back however the response ends
        await start.after_response()


def _body(event: Delivered | None) -> Message:
    return {"type": "http.response.body", "body": frame(event), "more_body": True}


class _Push:
    """The waiter's `push`: a change's frames sent as it comes, in the change feed's callback,
    without waking the stream's task, when the events are at hand and the server's `send` is done
    as soon as called (it awaits only while the client's socket is backed up). A send that must
    wait is left to the stream's task to finish (`held`) before anything else it sends."""

    __slots__ = ("following", "held", "send")

    def __init__(self, following: Following, send: Send) -> None:
        self.following, self.send = following, send
        self.held: Held | None = None

    def __call__(self) -> bool:
        if self.held is not None:
            return False
        following = self.following
        try:
            events = following.at_hand()
            if events is None:
                return False
            for event in events:
                sending = self.send(_body(event))
                if type(sending) is not CoroutineType:  # not one to drive here: the task's
                    return False
                try:
                    blocked = sending.send(None)
                except StopIteration:
                    following.after = event.version
                    continue
                self.held = Held(sending, blocked)
                following.after = event.version  # on its way: the task sends it first
                return False
        except Exception:  # the stream's task meets it again, where it can end the stream
            log.debug("a push failed", exc_info=True)
            return False
        return True


class Held:
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


async def _pump(following: Following, send: Send, receive: Receive) -> None:
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
    push = _Push(following, send)
    try:
        async with following:
            assert following.waiter is not None
            following.waiter.push = push
            while not gone:
                events = await following.next()
                if push.held is not None:  # begun before these were owed: it goes first
                    held, push.held = push.held, None
                    await held
                if events is None:
                    await send(_body(None))
                    continue
                for event in events:
                    await send(_body(event))
                    following.after = event.version
    except Unauthorized:  # its player left the table before the start: nothing more is theirs
        if push.held is not None:
            held, push.held = push.held, None
            await held
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except asyncio.CancelledError:
        if not gone:
            raise
        stream.uncancel()  # our own cancel: the client left, and the response is done
    finally:
        listener.remove_done_callback(cut)
        listener.cancel()
