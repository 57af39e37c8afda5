"""Play a seat over one WebSocket: the table's events pushed, commands answered, on one socket.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It is built on the `websockets` library (its
asyncio client):

    from kronikas_client import AuthenticatedClient
    from kronikas_client.models import Play
    from kronikas_client.socket import connect_seat

    async with connect_seat(AuthenticatedClient(base_url=url, token=token), game_id) as seat:
        async for event in seat:                      # every version once, in order
            print(event.version, event.type_)
        result = await seat.command(Play(cards=["7H"]), if_match=seat.version)

The socket says `hello` (the token travels in that first message, never in the URL), reads the
`welcome`, then hands you the table's events as this seat may see them. `command` sends a move
with an `id` and waits for its `result` (or raises `CommandRefused` with the `Problem` HTTP would
have answered). When the socket is lost — the network, a server restart (close 1001), a time-out
(4408), a slow reader (4508), a rate limit (4429) or the store down at hello (4503) — it connects
again with `after` = the last version it gave you, and sends the commands still waiting again
under the same `id`s (the service answers a known `id` with its first answer), so nothing is
missed, repeated or done twice. The events end after the one that ends the match (`"final":
true` on the wire), as `kronikas_client.streaming` does.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any, Protocol, TypeAlias
from urllib.parse import quote, urlsplit, urlunsplit

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from .client import AuthenticatedClient, Client
from .events import GameEvent, GameView, parse_event
from .models.command_result import CommandResult
from .models.problem import Problem
from .models.socket_problem import SocketProblem
from .models.socket_result import SocketResult
from .models.socket_view import SocketView
from .models.socket_welcome import SocketWelcome
from .streaming import final

__all__ = [
    "FATAL_CLOSE_CODES",
    "RESUME_CLOSE_CODES",
    "CommandRefused",
    "SeatSocket",
    "SocketClosed",
    "SocketError",
    "Update",
    "connect_seat",
]

RESUME_CLOSE_CODES = frozenset({1001, 1006, 1011, 1012, 1013, 4408, 4429, 4503, 4508})
"""Close codes after which the socket connects again and resumes from the last version seen
(1006: the connection was lost without a close; 4429 and 4503 after the `retry_after` the close
reason gives)."""
FATAL_CLOSE_CODES = frozenset({1003, 1008, 1009, 4400, 4401, 4404})
"""Close codes that end the socket for good: a malformed hello (4400), an unknown token or one
whose player left (4401), no such table (4404), a binary (1003) or oversized (1009) message."""

DEFAULT_OPEN_TIMEOUT = 10.0
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
"""The largest message accepted from the server (a long game's catch-up is one message)."""


class SocketError(Exception):
    """The seat socket could not go on."""


class SocketClosed(SocketError):
    """The server closed the socket for good (or gave up reconnecting): `code` and `reason` are
    the close frame's (4401 unauthorized, 4404 no such table, …; 1006 when none came)."""

    def __init__(self, code: int, reason: str = "", what: str = "") -> None:
        self.code = code
        self.reason = reason
        super().__init__(what or f"socket closed with {code} ({reason or 'no reason'})")


class CommandRefused(SocketError):
    """A command answered with a `problem`: exactly what `POST …/commands` would have answered
    (409 `illegal_move`, 412 `version_mismatch`, 429 `rate_limited`, …)."""

    def __init__(self, id: str | None, problem: Problem, retry_after: int | None = None) -> None:
        self.id = id
        self.problem = problem
        self.retry_after = retry_after
        what = f"{problem.status} {problem.code}: {problem.detail}"
        super().__init__(f"command {id} refused with {what}")

    @property
    def status(self) -> int:
        return self.problem.status

    @property
    def code(self) -> str:
        return str(self.problem.code)


@dataclass(frozen=True)
class Update:
    """What one push or one answer brought: the new events (versions increasing, each one given
    once over the socket's life), and the viewer's view after them when known (always after a
    command's result; after pushes only when the socket was opened with `views=True`)."""

    events: list[GameEvent]
    view: GameView | None
    version: int
    """The last version this socket has given out, these events included."""
    final: bool = False
    """Whether the last of these events ended the match."""


class SupportsToDict(Protocol):
    def to_dict(self) -> dict[str, Any]: ...


Command: TypeAlias = SupportsToDict | Mapping[str, Any]
"""A command: one of the SDK's command models (`Play`, `Call`, `Swap`, …) or its JSON object."""


def socket_url(base_url: str, game_id: str) -> str:
    """The socket's address on a service whose HTTP base URL is `base_url`."""
    parts = urlsplit(base_url.rstrip("/"))
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = f"{parts.path}/v1/games/{quote(str(game_id), safe='')}/socket"
    return urlunsplit((scheme, parts.netloc, path, "", ""))


def _ssl_context(verify: str | bool | ssl.SSLContext) -> ssl.SSLContext | None:
    """The TLS settings of a client's `verify_ssl`, for a `wss://` socket (None: the default)."""
    if isinstance(verify, ssl.SSLContext):
        return verify
    if isinstance(verify, str):
        return ssl.create_default_context(cafile=verify)
    if verify is False:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        return context
    return None


def _valid_id(id: str) -> str:
    if not 1 <= len(id) <= 128 or any(not "!" <= ch <= "~" for ch in id):
        raise ValueError(f"a command id is 1-128 printable ASCII characters, not {id!r}")
    return id


def _retry_after(reason: str) -> float | None:
    """The `retry_after=<s>` of a 4429/4503 close reason."""
    for word in reason.split():
        name, _, value = word.partition("=")
        if name == "retry_after" and value.isdigit():
            return float(value)
    return None


@dataclass
class _Pending:
    text: str
    answer: asyncio.Future[CommandResult]
    sent: int = 0
    """How many times it was sent: more than once, it may have been applied already."""
    again: asyncio.TimerHandle | None = None
    """Its next sending after a 429 (a resent command waits the limit out)."""


class _Lost(Exception):
    """The current connection is gone (or must go); `code`/`reason` say how, if the server said."""

    def __init__(self, code: int = 1006, reason: str = "") -> None:
        self.code = code
        self.reason = reason
        super().__init__(f"{code} {reason}")


_END = object()


@dataclass
class SeatSocket:
    """One seat's (or the host's, or a spectator's) socket to one table; see `connect_seat`.

    Read the events with `async for event in socket` (or `updates()` for the events with the
    view after them), send moves with `command`. `version` is the last version given out.
    """

    url: str
    game_id: str
    token: str | None = None
    version: int = 0
    views: bool = False
    until_final: bool = True
    max_reconnects: int | None = 10
    retry_delay: float = 0.5
    read_timeout: float | None = None
    open_timeout: float = DEFAULT_OPEN_TIMEOUT
    headers: Mapping[str, str] = field(default_factory=dict)
    ssl: ssl.SSLContext | None = None

    welcome: SocketWelcome | None = field(default=None, init=False)
    """The server's answer to `hello` (on the latest connection): the table's version then, the
    viewer's `seat`, `player_id` and `role`, `heartbeat_s`, `idle_s` and `max_bytes`."""
    view: GameView | None = field(default=None, init=False)
    """The latest view this socket has handed out (in an `Update`)."""
    final: bool = field(default=False, init=False)
    """Whether the event that ends the match has been given out."""
    reconnects: int = field(default=0, init=False)
    """How many times the socket was lost and resumed."""
    problems: list[Problem] = field(default_factory=list, init=False)
    """`problem` messages that answered no command (a malformed message of ours); on a 429 or
    a 503, the seconds to wait are in `problem["retry_after"]`, as the message had them."""

    _queue: asyncio.Queue[object] = field(default_factory=asyncio.Queue, init=False, repr=False)
    _ahead: dict[int, dict[str, Any]] = field(default_factory=dict, init=False, repr=False)
    _unviewed: list[GameEvent] = field(default_factory=list, init=False, repr=False)
    _commands: dict[str, _Pending] = field(default_factory=dict, init=False, repr=False)
    _pings: deque[asyncio.Future[None] | None] = field(
        default_factory=deque, init=False, repr=False
    )
    _ws: ClientConnection | None = field(default=None, init=False, repr=False)
    _ready: bool = field(default=False, init=False, repr=False)
    _closing: bool = field(default=False, init=False, repr=False)
    _last_sent: float = field(default=0.0, init=False, repr=False)
    _runner: asyncio.Task[None] | None = field(default=None, init=False, repr=False)
    _gap: bool = field(default=False, init=False, repr=False)
    _error: SocketError | None = field(default=None, init=False, repr=False)

    # --- the public side ---------------------------------------------------------------------

    @property
    def connection(self) -> ClientConnection | None:
        """The current WebSocket connection (None while reconnecting)."""
        return self._ws if self._ready else None

    @property
    def queued(self) -> int:
        """Updates received and not yet read: more than 0 means the latest `view` is stale."""
        return self._queue.qsize()

    async def open(self) -> SeatSocket:
        """Connect and read the welcome; raises `SocketClosed` when the server refuses for good."""
        ws = await self._connect(first=True)
        self._runner = asyncio.get_running_loop().create_task(self._run(ws))
        return self

    async def close(self) -> None:
        """Close the socket (1000) and stop; commands still waiting raise `SocketClosed`."""
        self._closing = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._runner is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(self._runner, self.open_timeout)
            if not self._runner.done():
                self._runner.cancel()
        self._fail_waiting(SocketClosed(1000, "closed by the client"))

    async def __aenter__(self) -> SeatSocket:
        return await self.open()

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        await self.close()

    async def updates(self) -> AsyncIterator[Update]:
        """Each push (or command answer) as it arrives: its new events and the view after them.

        Ends after the update whose events end the match (unless `until_final` is False), or when
        the socket is closed; raises `SocketClosed` when the server ended it for good."""
        while True:
            item = await self._queue.get()
            if item is _END:
                self._queue.put_nowait(_END)  # for the next reader
                if self._error is not None:
                    raise self._error
                return
            assert isinstance(item, Update)
            if item.view is not None:
                self.view = item.view
            yield item
            if item.final and self.until_final:
                return

    async def __aiter__(self) -> AsyncIterator[GameEvent]:
        """The events, one by one, every version once and in order (see `updates`)."""
        async for update in self.updates():
            for event in update.events:
                yield event

    async def command(
        self,
        command: Command,
        *,
        id: str | None = None,
        if_match: int | None = None,
        timeout: float | None = None,
    ) -> CommandResult:
        """Send a move and wait for its answer: the `CommandResult` (`version`, `events`,
        `game`), or `CommandRefused` carrying the `Problem`.

        `id` (1–128 printable ASCII; a fresh UUID by default) is the command's idempotency key:
        the same `id` again, over the socket or as `Idempotency-Key` over HTTP, is answered with
        the first answer. `if_match` is the version the move was decided on (`If-Match`): if the
        table has moved on, the answer is 412 `version_mismatch` and nothing changes. A command
        waiting when the socket is lost is sent again on the next one, under its `id`.
        """
        key = _valid_id(id) if id is not None else uuid.uuid4().hex
        if key in self._commands:
            raise ValueError(f"a command with id {key!r} is already waiting for its answer")
        if self._runner is None or self._runner.done() or self._closing:
            raise self._error or SocketClosed(1000, "the socket is not open")
        body = command if isinstance(command, Mapping) else command.to_dict()
        message: dict[str, Any] = {"type": "command", "id": key, "command": dict(body)}
        if if_match is not None:
            message["if_match"] = if_match
        text = json.dumps(message)
        if self.welcome is not None and len(text.encode()) > self.welcome.max_bytes:
            raise ValueError(f"the command is over the server's {self.welcome.max_bytes} bytes")
        pending = _Pending(text, asyncio.get_running_loop().create_future())
        self._commands[key] = pending
        try:
            if self._ready and self._ws is not None:
                # Otherwise the socket is reconnecting and sends it once welcomed.
                pending.sent += 1
                with contextlib.suppress(ConnectionClosed):
                    await self._send(self._ws, pending.text)
            async with asyncio.timeout(timeout):
                return await pending.answer
        finally:
            self._commands.pop(key, None)
            if pending.again is not None:
                pending.again.cancel()

    async def ping(self, timeout: float | None = None) -> float:
        """Send `ping` and wait for its `pong`: the round trip in seconds."""
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        started = time.perf_counter()
        self._pings.append(answer)
        if self._ready and self._ws is not None:
            with contextlib.suppress(ConnectionClosed):
                await self._send(self._ws, '{"type":"ping"}')
        async with asyncio.timeout(timeout):
            await answer
        return time.perf_counter() - started

    # --- one connection ----------------------------------------------------------------------

    async def _send(self, ws: ClientConnection, text: str) -> None:
        self._last_sent = time.monotonic()
        await ws.send(text)

    async def _connect(self, first: bool = False) -> ClientConnection:
        """Open a connection, say hello from `version`, read the welcome; retry what may pass.
        Raises `SocketClosed` on a refusal for good, or after `max_reconnects` tries in a row."""
        failures = 0
        while True:
            delay = self.retry_delay
            try:
                return await self._hello()
            except _Lost as lost:
                if lost.code not in RESUME_CLOSE_CODES or self._closing:
                    raise SocketClosed(lost.code, lost.reason) from None
                delay = _retry_after(lost.reason) or delay
            except InvalidStatus as refused:
                status = refused.response.status_code
                if status not in (429, 502, 503, 504):
                    raise SocketClosed(
                        1006, f"HTTP {status}", f"socket refused: {refused}"
                    ) from None
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                pass
            failures += 1
            if self.max_reconnects is not None and failures > self.max_reconnects:
                what = f"gave up after {failures} tries to {'open' if first else 'resume'}"
                raise SocketClosed(1006, "", what)
            await asyncio.sleep(delay)

    async def _hello(self) -> ClientConnection:
        secure: dict[str, Any] = {"ssl": self.ssl} if self.url.startswith("wss:") else {}
        ws = await ws_connect(
            self.url,
            additional_headers=dict(self.headers),
            open_timeout=self.open_timeout,
            ping_interval=None,  # the protocol's own ping/pong and heartbeats keep it alive
            max_size=MAX_MESSAGE_BYTES,
            **secure,
        )
        try:
            hello = {
                "type": "hello",
                "token": self.token,
                "after": self.version,
                "views": self.views,
            }
            await self._send(ws, json.dumps(hello))
            async with asyncio.timeout(self.open_timeout):
                while True:
                    message = json.loads(await ws.recv())
                    if message.get("type") == "welcome":
                        break
            self._welcomed(SocketWelcome.from_dict(message))
            self._ws = ws
            return ws
        except ConnectionClosed as closed:
            raise self._lost(closed) from None
        except BaseException:
            await ws.close()
            raise

    def _welcomed(self, welcome: SocketWelcome) -> None:
        """Every welcome's view is handed out when no event is owed before it: on a resumed
        connection too, where the view of the last events may have been lost with the old one
        and nothing new may come to bring another (the table waiting for this very seat)."""
        self.welcome = welcome
        self._ahead.clear()
        if welcome.game is not None and self.version >= welcome.version:
            self._emit([], welcome.game)

    @staticmethod
    def _lost(closed: ConnectionClosed) -> _Lost:
        frame = closed.rcvd
        return _Lost(frame.code, frame.reason) if frame is not None else _Lost()

    async def _run(self, ws: ClientConnection) -> None:
        """Read connection after connection until the socket is closed or ended for good."""
        try:
            while True:
                try:
                    await self._serve(ws)
                    return
                except _Lost as lost:
                    if lost.code in FATAL_CLOSE_CODES:  # 4401: the token lost its seat, …
                        raise SocketClosed(lost.code, lost.reason) from None
                self._ready = False
                if self._closing or (self.final and not self._commands):
                    return
                self.reconnects += 1
                ws = await self._connect()
        except SocketError as ended:
            self._error = ended
        except Exception as broken:  # a message this client cannot read: say so, don't hang
            self._error = SocketError(f"the socket broke: {broken!r}")
            self._error.__cause__ = broken
        finally:
            if self._error is not None:
                self._fail_waiting(self._error)
            self._ready = False
            self._queue.put_nowait(_END)
            self._fail_waiting(SocketClosed(1000, "the socket is closed"))

    async def _serve(self, ws: ClientConnection) -> None:
        """Read one connection; returns on a normal close, raises `_Lost` when it must resume."""
        assert self.welcome is not None
        if self._closing:
            await ws.close()
            return
        self._ready = True
        for pending in list(self._commands.values()):
            if pending.again is not None:  # a 429's wait is not over: its timer sends it
                continue
            pending.sent += 1
            with contextlib.suppress(ConnectionClosed):
                await self._send(ws, pending.text)
        for _ in self._pings:
            with contextlib.suppress(ConnectionClosed):
                await self._send(ws, '{"type":"ping"}')
        silent = self.read_timeout or 3 * self.welcome.heartbeat_s
        every = max(1.0, min(self.welcome.heartbeat_s, self.welcome.idle_s / 3))
        keeper = asyncio.get_running_loop().create_task(self._keep_alive(ws, every))
        try:
            while True:
                try:
                    async with asyncio.timeout(silent):
                        text = await ws.recv()
                except TimeoutError:
                    ws.transport.abort()  # a dead connection: resume on a new one
                    raise _Lost(4408, "nothing heard from the server") from None
                except ConnectionClosed as closed:
                    lost = self._lost(closed)
                    if self._closing or (lost.code == 1000 and not self._commands):
                        return
                    raise lost from None
                self._take(json.loads(text))
                if self._gap:  # never with a server that keeps its promise; resume to fill it
                    self._gap = False
                    ws.transport.abort()
                    raise _Lost(1006, "a gap in the versions")
        finally:
            keeper.cancel()
            self._ready = False
            self._ahead.clear()
            self._flush()  # events whose view was lost with the connection
            self._pings = deque(p for p in self._pings if p is not None)

    async def _keep_alive(self, ws: ClientConnection, every: float) -> None:
        """Send `ping` whenever nothing else was sent for `every` seconds (the server closes a
        socket that stays silent past its idle time)."""
        with contextlib.suppress(ConnectionClosed):
            while True:
                wait = self._last_sent + every - time.monotonic()
                if wait > 0:
                    await asyncio.sleep(wait)
                    continue
                self._pings.append(None)
                await self._send(ws, '{"type":"ping"}')

    # --- one message -------------------------------------------------------------------------

    def _take(self, message: dict[str, Any]) -> None:
        match message.get("type"):
            case "events":
                delivered = self._accept(message["events"])
                if self.views:
                    self._unviewed.extend(delivered)
                elif delivered:
                    self._emit(delivered, None)
                if self.version < int(message["version"]):
                    self._gap = True  # the server thinks it sent what we never got
            case "view":
                self._emit(self._unviewed, SocketView.from_dict(message).game)
                self._unviewed = []
            case "result":
                answer = SocketResult.from_dict(message)
                self._flush()
                delivered = self._accept(message["result"]["events"])
                result = answer.result
                if delivered:
                    self._emit(delivered, result.game)
                pending = self._commands.get(answer.id)
                if pending is not None and not pending.answer.done():
                    pending.answer.set_result(result)
            case "problem":
                refusal = SocketProblem.from_dict(message)
                pending = self._commands.get(refusal.id or "")
                if pending is None:
                    if refusal.retry_after is not None:
                        refusal.problem["retry_after"] = refusal.retry_after
                    self.problems.append(refusal.problem)
                elif pending.sent > 1 and refusal.problem.status == 429:
                    # A command sent again (its answer was lost with a connection) may have
                    # been applied: its retry is paid for as any command, so a 429 is waited
                    # out and the command sent once more under its id (answered once).
                    self._send_again(pending, refusal.retry_after or self.retry_delay)
                elif not pending.answer.done():
                    refused = CommandRefused(refusal.id, refusal.problem, refusal.retry_after)
                    pending.answer.set_exception(refused)
            case "pong":
                if self._pings:
                    waiting = self._pings.popleft()
                    if waiting is not None and not waiting.done():
                        waiting.set_result(None)
            case "heartbeat":
                self._flush()
            case _:
                pass  # a message type newer than this client

    def _send_again(self, pending: _Pending, after: float) -> None:
        """Send a waiting command again in `after` seconds: on the connection open then (a
        connection made before then leaves it to this timer), else on the next one."""

        def send() -> None:
            pending.again = None
            if pending.answer.done() or not self._ready or self._ws is None:
                return
            pending.sent += 1
            ws = self._ws
            sending = asyncio.get_running_loop().create_task(self._send(ws, pending.text))
            sending.add_done_callback(lambda done: done.cancelled() or done.exception())

        if pending.again is None:
            pending.again = asyncio.get_running_loop().call_later(after, send)

    def _accept(self, raws: list[dict[str, Any]]) -> list[GameEvent]:
        """The events that come next, in order: old versions are dropped (a replayed answer, a
        push that overlaps a result), later ones wait for the versions before them."""
        for raw in raws:
            if int(raw["version"]) > self.version:
                self._ahead.setdefault(int(raw["version"]), raw)
        out: list[GameEvent] = []
        while self.version + 1 in self._ahead:
            raw = self._ahead.pop(self.version + 1)
            self.version += 1
            out.append(parse_event(raw))
            if final(raw):
                self.final = True
        return out

    def _emit(self, events: list[GameEvent], view: GameView | None) -> None:
        ends = self.final and bool(events) and events[-1].version == self.version
        self._queue.put_nowait(Update(list(events), view, self.version, ends))

    def _flush(self) -> None:
        """Hand out events still waiting for their view (none came)."""
        if self._unviewed:
            self._emit(self._unviewed, None)
            self._unviewed = []

    def _fail_waiting(self, error: SocketError) -> None:
        for pending in self._commands.values():
            if not pending.answer.done():
                pending.answer.set_exception(error)
        while self._pings:
            waiting = self._pings.popleft()
            if waiting is not None and not waiting.done():
                waiting.set_exception(error)


def connect_seat(
    client: AuthenticatedClient | Client | str,
    game_id: str,
    *,
    token: str | None = None,
    after: int = 0,
    views: bool = False,
    until_final: bool = True,
    max_reconnects: int | None = 10,
    retry_delay: float = 0.5,
    read_timeout: float | None = None,
    open_timeout: float = DEFAULT_OPEN_TIMEOUT,
) -> SeatSocket:
    """A socket to a table, to use as `async with connect_seat(...) as seat:` (or `await
    connect_seat(...).open()`, then `close()`).

    `client` gives the service's address (an SDK client, or its base URL) and, when it is an
    `AuthenticatedClient`, the token (`token=` overrides; none at all: a spectator). Events come
    from `after` on; `views=True` asks for the viewer's view after each change. Lost sockets
    resume from the last version given out, up to `max_reconnects` tries in a row (None: no
    limit), `retry_delay` seconds apart (a 4429/4503 close's `retry_after` instead). A server
    silent for `read_timeout` seconds (default three heartbeats) counts as lost.
    """
    context: ssl.SSLContext | None = None
    if isinstance(client, str):
        base_url, headers = client, {}
    else:
        base_url, headers = client._base_url, dict(client._headers)
        context = _ssl_context(client._verify_ssl)
        if isinstance(client, AuthenticatedClient) and token is None:
            token = client.token
    return SeatSocket(
        url=socket_url(base_url, game_id),
        game_id=game_id,
        token=token,
        version=after,
        views=views,
        until_final=until_final,
        max_reconnects=max_reconnects,
        retry_delay=retry_delay,
        read_timeout=read_timeout,
        open_timeout=open_timeout,
        headers=headers,
        ssl=context,
    )
