"""The event stream's response: each frame goes from the table's events to the server in one step.

Litestar's `Stream` hands each chunk through a task group, the iterator's layers and the `send` of
every middleware, each of which only looks at the response's start. Under the follow workload
every move sends a frame to each seat's stream, and those layers cost about a tenth of the
stream's share of the move (docs/performance.md). So the stream's start goes the framework's way
(its headers, the request id, the CORS headers), and its frames go straight to the server's
`send`, which the application keeps in the scope (`SERVER_SEND`). Nothing here may transform a
response's body on its way: a middleware that did would have to change this.

The stream ends when the client hangs up: a task waits for the server's `http.disconnect` and
cancels the stream's own wait, as the framework's streaming response does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from litestar import Request
from litestar.response import Stream
from litestar.response.base import ASGIResponse
from litestar.types import Message, Receive, Scope, Send

from kronikas.application.encoding import Delivered

SERVER_SEND = "kronikas.server_send"
"""The scope's key for the server's own `send` (set by the application, api/lane.py)."""

KEEP_ALIVE = b": keep-alive\r\n\r\n"

Events = Callable[[], AsyncIterator[Delivered | None]]
"""A stream's events as they come, and None for a keep-alive (`Queries.stream`)."""


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
    """`text/event-stream` of a table's events, as `Queries.stream` gives them."""

    __slots__ = ("events",)

    def __init__(self, events: Events, headers: dict[str, str]) -> None:
        super().__init__((), media_type="text/event-stream", headers=headers)
        self.events = events

    def to_asgi_response(self, app: Any, request: Request[Any, Any, Any], **kwargs: Any) -> Any:
        start = super().to_asgi_response(app, request, **kwargs)
        return _Frames(start, self.events())


async def _hung_up(receive: Receive) -> None:
    """Returns once the client is gone."""
    while (await receive())["type"] != "http.disconnect":
        pass


class _Frames:
    """The response: its start as the framework makes it, then the frames, until the client
    hangs up."""

    __slots__ = ("events", "start")

    def __init__(self, start: ASGIResponse, events: AsyncIterator[Delivered | None]) -> None:
        self.start, self.events = start, events

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        start = self.start
        await start.start_response(send)
        if start.is_head_response:
            await send({"type": "http.response.body", "body": b"", "more_body": False})
        else:
            await _pump(self.events, scope.get(SERVER_SEND, send), receive)  # type: ignore[arg-type]
        await start.after_response()


async def _pump(events: AsyncIterator[Delivered | None], send: Send, receive: Receive) -> None:
    """Sends each event's frame as it comes, until the client hangs up (or the events end)."""
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
    try:
        async for event in events:
            body: Message = {"type": "http.response.body", "body": frame(event), "more_body": True}
            await send(body)
            if gone:  # the cancel was held up on the way (a waiter's cleanup awaiting)
                return
        await send({"type": "http.response.body", "body": b"", "more_body": False})
    except asyncio.CancelledError:
        if not gone:
            raise
        stream.uncancel()  # our own cancel: the client left, and the response is done
    finally:
        listener.remove_done_callback(cut)
        listener.cancel()
