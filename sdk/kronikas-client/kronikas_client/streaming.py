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
    failures = 0
    delay = retry_delay
    while True:
        url, params, headers = _request(client, game_id, after, token)
        try:
            with http.stream("GET", url, params=params, headers=headers, timeout=timeout) as r:
                if r.status_code != 200:
                    body = r.read()
                    if r.status_code not in RETRY_STATUSES:
                        raise _refusal(r, body)
                    delay = _pause(r, retry_delay)
                    raise httpx.TransportError(f"status {r.status_code}")
                parser = SSEParser()
                for message in parser.feed_lines(r.iter_lines()):
                    if message.retry is not None:
                        retry_delay = delay = message.retry / 1000
                    parsed = _event(message)
                    if parsed is None or parsed[0].version <= after:
                        continue
                    event, ends = parsed
                    failures = 0
                    after = event.version
                    yield event
                    if (ends and until_final) or event.type_ in stop_after:
                        return
        except httpx.TransportError:
            pass
        failures += 1
        if max_reconnects is not None and failures > max_reconnects:
            raise StreamError(0, None, f"gave up after {max_reconnects} reconnects")
        time.sleep(delay)
        delay = retry_delay


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
    failures = 0
    delay = retry_delay
    while True:
        url, params, headers = _request(client, game_id, after, token)
        try:
            async with http.stream(
                "GET", url, params=params, headers=headers, timeout=timeout
            ) as r:
                if r.status_code != 200:
                    body = await r.aread()
                    if r.status_code not in RETRY_STATUSES:
                        raise _refusal(r, body)
                    delay = _pause(r, retry_delay)
                    raise httpx.TransportError(f"status {r.status_code}")
                parser = SSEParser()
                async for line in r.aiter_lines():
                    message = parser.feed(line)
                    if message is None:
                        continue
                    if message.retry is not None:
                        retry_delay = delay = message.retry / 1000
                    parsed = _event(message)
                    if parsed is None or parsed[0].version <= after:
                        continue
                    event, ends = parsed
                    failures = 0
                    after = event.version
                    yield event
                    if (ends and until_final) or event.type_ in stop_after:
                        return
        except httpx.TransportError:
            pass
        failures += 1
        if max_reconnects is not None and failures > max_reconnects:
            raise StreamError(0, None, f"gave up after {max_reconnects} reconnects")
        await asyncio.sleep(delay)
        delay = retry_delay
