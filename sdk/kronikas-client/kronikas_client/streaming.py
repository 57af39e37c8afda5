"""Follow a table's events as Server-Sent Events, resuming with `Last-Event-ID` after a drop.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It uses only the SDK's own httpx
client — no extra dependency:

    from kronikas_client import AuthenticatedClient
    from kronikas_client.streaming import stream_events

    with AuthenticatedClient(base_url=url, token=token) as client:
        for event in stream_events(client, game_id):
            print(event.version, event.type_, event.data)

The stream ends after the event that ends the match, whichever the game (the server marks it
`"final": true`), or when you leave the loop. Each event is the class its `type` names
(`kronikas_client.events`), with its `data` typed.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from .client import AuthenticatedClient, Client
from .events import GameEvent, parse_event
from .models.problem import Problem

__all__ = [
    "SSEMessage",
    "SSEParser",
    "StreamError",
    "astream_events",
    "final",
    "stream_events",
]

#: Statuses worth another try after a pause (the server's `Retry-After` is honoured).
RETRY_STATUSES = frozenset({429, 502, 503, 504})
#: The server sends a comment every 15 s; a silence much longer than that is a dead connection.
DEFAULT_READ_TIMEOUT = 45.0


class StreamError(Exception):
    """The server refused the stream (401, 404, 422, …): `problem` says why."""

    def __init__(self, status: int, problem: Problem | None, body: str = "") -> None:
        self.status = status
        self.problem = problem
        what = f"{problem.code}: {problem.detail}" if problem else body[:200]
        super().__init__(f"stream refused with {status} ({what})")


@dataclass
class SSEMessage:
    """One dispatched Server-Sent Event."""

    event: str = "message"
    data: str = ""
    id: str | None = None
    retry: int | None = None


@dataclass
class SSEParser:
    """The text/event-stream rules (WHATWG HTML §9.2.6), line by line; comments are dropped."""

    _data: list[str] = field(default_factory=list)
    _event: str = ""
    _id: str | None = None
    _retry: int | None = None

    def feed(self, line: str) -> SSEMessage | None:
        """Take one line (without its end-of-line); return a message when a blank line ends one."""
        if line == "":
            if not self._data:
                self._event, self._retry = "", None
                return None
            message = SSEMessage(
                event=self._event or "message",
                data="\n".join(self._data),
                id=self._id,
                retry=self._retry,
            )
            self._data, self._event, self._retry = [], "", None
            return message
        if line.startswith(":"):
            return None
        name, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value
        elif name == "retry" and value.isdigit():
            self._retry = int(value)
        return None

    def feed_lines(self, lines: Iterable[str]) -> Iterator[SSEMessage]:
        """Every message that these lines complete."""
        for line in lines:
            message = self.feed(line)
            if message is not None:
                yield message


def _request(
    client: AuthenticatedClient | Client, game_id: str, after: int, token: str | None
) -> tuple[str, dict[str, Any], dict[str, str]]:
    url = f"/v1/games/{quote(str(game_id), safe='')}/stream"
    params: dict[str, Any] = {"after": after}
    if token is not None:
        params["token"] = token
    headers = {"Accept": "text/event-stream", "Cache-Control": "no-cache"}
    if after > 0:
        headers["Last-Event-ID"] = str(after)
    return url, params, headers


def _refusal(response: httpx.Response, body: bytes) -> StreamError:
    problem: Problem | None = None
    try:
        problem = Problem.from_dict(json.loads(body))
    except (ValueError, KeyError, TypeError, AttributeError):
        problem = None
    return StreamError(response.status_code, problem, body.decode(errors="replace"))


def _pause(response: httpx.Response, fallback: float) -> float:
    raw = response.headers.get("Retry-After", "")
    return float(raw) if raw.isdigit() else fallback


def final(raw: Any) -> bool:
    """Whether an event, as its JSON object, ends the match: the server marks that one event of
    every game `"final": true`, and nothing follows it."""
    return isinstance(raw, dict) and raw.get("final") is True


def _event(message: SSEMessage) -> tuple[GameEvent, bool] | None:
    """The message's event, and whether it ends the match."""
    if not message.data:
        return None
    raw = json.loads(message.data)
    return parse_event(raw), final(raw)


@dataclass
class _Follow:
    """What following a table keeps from one connection to the next: the last version given
    out, the pause before the next attempt and the failures in a row."""

    after: int
    retry_delay: float
    until_final: bool
    stop_after: Collection[str]
    max_reconnects: int | None
    failures: int = 0
    delay: float = field(init=False)

    def __post_init__(self) -> None:
        self.delay = self.retry_delay

    def refused(self, response: httpx.Response, body: bytes) -> None:
        """A connection answered otherwise than 200: raises `StreamError` for a refusal, else a
        transport error to try again after the answer's `Retry-After`."""
        if response.status_code not in RETRY_STATUSES:
            raise _refusal(response, body)
        self.delay = _pause(response, self.retry_delay)
        raise httpx.TransportError(f"status {response.status_code}")

    def take(self, message: SSEMessage) -> tuple[GameEvent | None, bool]:
        """The new event a message brings (None if none), and whether to stop after it."""
        if message.retry is not None:
            self.retry_delay = self.delay = message.retry / 1000
        parsed = _event(message)
        if parsed is None or parsed[0].version <= self.after:
            return None, False
        event, ends = parsed
        self.failures = 0
        self.after = event.version
        return event, (ends and self.until_final) or event.type_ in self.stop_after

    def lost(self) -> float:
        """A connection lost: the pause before the next, or `StreamError` past the limit."""
        self.failures += 1
        if self.max_reconnects is not None and self.failures > self.max_reconnects:
            raise StreamError(0, None, f"gave up after {self.max_reconnects} reconnects")
        delay, self.delay = self.delay, self.retry_delay
        return delay


def stream_events(
    client: AuthenticatedClient | Client,
    game_id: str,
    after: int = 0,
    token: str | None = None,
    *,
    stop_after: Collection[str] = (),
    until_final: bool = True,
    max_reconnects: int | None = None,
    retry_delay: float = 0.5,
    read_timeout: float = DEFAULT_READ_TIMEOUT,
) -> Iterator[GameEvent]:
    """The table's events with a version above `after`, as they happen, for as long as you read.

    An `AuthenticatedClient` streams as its seat sees the table; a plain `Client` as a spectator,
    or as a seat if you pass `token`. After a dropped connection (or a silent one: `read_timeout`)
    it reconnects with `Last-Event-ID` set to the last version it yielded, so no event is lost or
    repeated; `max_reconnects` (None: no limit) bounds the attempts in a row. It returns after
    yielding the event that ends the match (marked `final` by the server, in every game; with
    `until_final=False` it follows on), or one whose type is in `stop_after`. A refusal (401,
    404, 422, …) raises `StreamError` carrying the `Problem`.
    """
    http = client.get_httpx_client()
    timeout = httpx.Timeout(10.0, read=read_timeout)
    follow = _Follow(after, retry_delay, until_final, stop_after, max_reconnects)
    while True:
        url, params, headers = _request(client, game_id, follow.after, token)
        try:
            with http.stream("GET", url, params=params, headers=headers, timeout=timeout) as r:
                if r.status_code != 200:
                    follow.refused(r, r.read())
                for message in SSEParser().feed_lines(r.iter_lines()):
                    event, stop = follow.take(message)
                    if event is not None:
                        yield event
                    if stop:
                        return
        except httpx.TransportError:
            pass
        time.sleep(follow.lost())


async def astream_events(
    client: AuthenticatedClient | Client,
    game_id: str,
    after: int = 0,
    token: str | None = None,
    *,
    stop_after: Collection[str] = (),
    until_final: bool = True,
    max_reconnects: int | None = None,
    retry_delay: float = 0.5,
    read_timeout: float = DEFAULT_READ_TIMEOUT,
) -> AsyncIterator[GameEvent]:
    """`stream_events` over the client's `httpx.AsyncClient`: `async for event in …`."""
    http = client.get_async_httpx_client()
    timeout = httpx.Timeout(10.0, read=read_timeout)
    follow = _Follow(after, retry_delay, until_final, stop_after, max_reconnects)
    while True:
        url, params, headers = _request(client, game_id, follow.after, token)
        try:
            async with http.stream(
                "GET", url, params=params, headers=headers, timeout=timeout
            ) as r:
                if r.status_code != 200:
                    follow.refused(r, await r.aread())
                parser = SSEParser()
                async for line in r.aiter_lines():
                    message = parser.feed(line)
                    event, stop = follow.take(message) if message is not None else (None, False)
                    if event is not None:
                        yield event
                    if stop:
                        return
        except httpx.TransportError:
            pass
        await asyncio.sleep(follow.lost())
