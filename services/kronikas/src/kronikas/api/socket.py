"""The seat socket, `/v1/games/{id}/socket`: a table followed and played over one WebSocket.

A second transport over the same use cases as HTTP (docs/api.md, The seat socket): the first
message (`hello`) opens what `GET …/stream` opens (`Games.stream`: its access check, its charge,
its place among the token's and the address's streams), and each `command` is what `POST
…/commands` is (`Games.command`, with the command's `id` as its `Idempotency-Key`), answered
with the very bytes HTTP answers, or the problem HTTP would answer (`handle_exception`). Events
are the stream's (`Session`), redacted as the stream's are.

A Litestar WebSocket route: the framework routes the connection once; every message after that
goes between the server's `receive`/`send` (api/lane.py hands the raw `send` over) and this
module. The
hot path, as for the stream (api/sse.py):

- a change is pushed in the change feed's own callback (the waiter's `push`) when the table
  held here has the events, its frame encoded once from the JSON every viewer of that seat
  shares; the socket's pushing task is woken only for a gap, a page or more, or its end;
- the server's `send` is driven where it is called, and only a send that must wait (the client
  is not reading) goes to a task; behind it, messages wait in a queue of at most
  `SOCKET_BACKLOG` messages and `OUTBOX_BYTES` bytes (the send that waits, the queue and what the
  connection's transport holds, together), and one more closes the socket (4508): nothing is
  buffered without bound. The connection's kernel send buffer is made small (api/sse.py,
  `Outlet`), and the pushing task reads a page only once the one before it is sent, so a
  catch-up never queues pages; a slow reader's connection is dropped `CLOSE_GRACE_S` after its
  close was queued, should it not read that far;
- a command's own events come in its `result`: the push skips them, and sends first whatever
  came before them that the socket has not seen (every version once, in order).

One timer a socket serves the heartbeat (`SOCKET_HEARTBEAT_S` without a message sent) and the
idle time-out (`SOCKET_IDLE_S` without one received), moved on lazily like the waiters'. No token
is ever logged: the access log line names the path alone.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections import deque
from types import CoroutineType
from typing import Any
from urllib.parse import urlsplit

import msgspec
from litestar import Request, WebSocket, websocket
from litestar.types import (
    Receive,
    Scope,
    Send,
    WebSocketCloseEvent,
    WebSocketSendEvent,
)

from kronikas.api import inputs
from kronikas.api.client import client_address
from kronikas.api.errors import handle_exception, send_problem
from kronikas.api.socket_wire import Command, Hello, Ping, decoder
from kronikas.api.sse import SERVER_SEND, SLOW_CHECK_S, Held, Outlet
from kronikas.application.errors import (
    ApiError,
    Forbidden,
    InvalidRequest,
    NotFound,
    OutcomeUnknown,
    RateLimited,
    Unauthorized,
    Unavailable,
)
from kronikas.application.games import Games
from kronikas.application.session import Session
from kronikas.application.wire import Answer, Delivered

log = logging.getLogger("kronikas.socket")

PATH = "/v1/games/{game_id:str}/socket"

NORMAL, GOING_AWAY, BINARY, TOO_BIG, INTERNAL = 1000, 1001, 1003, 1009, 1011
BAD_HELLO, UNAUTHORIZED, NOT_FOUND, TIMEOUT = 4400, 4401, 4404, 4408
RATE_LIMITED, UNAVAILABLE, SLOW_READER = 4429, 4503, 4508

CLOSE_GRACE_S = 10.0
"""How long a slow reader closed (4508) has to read as far as its close before its connection is
dropped, with what it holds."""
_EARLY_S = 0.002
"""How early the timer may fire (a loop timer may fire up to its clock's resolution early)."""
_RETRY_S = (0.1, 2.0)
"""The push's first and longest wait before it reads again while the store does not answer."""

_encoder = msgspec.json.Encoder()
_PONG = '{"type":"pong"}'
_PREFIX = secrets.token_hex(4)
_COUNT = itertools.count()


class _Event(msgspec.Struct):
    version: int


class _Head(msgspec.Struct):
    version: int
    events: list[_Event]


_head = msgspec.json.Decoder(_Head)


class _Closing(Exception):
    """The socket is to close with `code` (and `reason`), from where it was decided."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def _refusal(exc: BaseException) -> _Closing:
    """What a failed `hello` closes the socket with."""
    if isinstance(exc, Unauthorized):
        return _Closing(UNAUTHORIZED, "unauthorized")
    if isinstance(exc, NotFound):
        return _Closing(NOT_FOUND, "not_found")
    if isinstance(exc, RateLimited):
        return _Closing(RATE_LIMITED, f"rate_limited retry_after={exc.retry_after or 1}")
    if isinstance(exc, Unavailable | OutcomeUnknown):
        return _Closing(UNAVAILABLE, f"unavailable retry_after={exc.retry_after or 1}")
    if isinstance(exc, ApiError):
        return _Closing(BAD_HELLO, exc.code)
    log.error("a socket's hello failed", exc_info=exc)
    return _Closing(INTERNAL, "internal")


@websocket(PATH, name="seat_socket")
async def seat_socket(socket: WebSocket[Any, Any, Any]) -> None:
    """`/v1/games/{id}/socket` (docs/api.md, The seat socket)."""
    app = socket.app
    games: Games = app.state.games
    if not origin_allowed(socket.scope, games.settings.cors_origins):
        await _refuse_upgrade(socket, Forbidden(FOREIGN_ORIGIN))
        return
    await socket.accept()
    # The server's own `send`, where the application keeps it in the scope (api/lane.py, as
    # for the stream's frames): no layer of the framework's between a message and the socket.
    scope: Any = socket.scope
    send: Send = scope.get(SERVER_SEND) or socket.send
    seat = Socket(games, app.state.wire.commands, socket.scope, socket.receive, send)
    sockets: set[Socket] = app.state.sockets
    sockets.add(seat)
    try:
        await seat.run()
    finally:
        sockets.discard(seat)


FOREIGN_ORIGIN = "A page on this origin may not open a seat socket here (see CORS_ORIGINS)."


def origin_allowed(scope: Scope, allowed: tuple[str, ...]) -> bool:
    """Whether the upgrade may go on, by its `Origin`: a browser sends one, naming the page that
    opens the socket, and no same-origin rule stops a page on another site from opening it. A
    client that is no browser sends none (allowed); a page may when its origin is in
    `CORS_ORIGINS` (or that holds `*`), or is the service's own, the one the `Host` names (the
    web table the service serves). The `Host` is one the service serves: a name it does not
    (`ALLOWED_HOSTS`; on loopback, any but a loopback name) is refused before the upgrade
    reaches this route (api/hosts.py), so a rebound name cannot pass as the service's own."""
    origin = host = None
    for name, value in scope["headers"]:
        if name == b"origin" and origin is None:
            origin = value.decode("latin-1")
        elif name == b"host" and host is None:
            host = value.decode("latin-1")
    if origin is None:
        return True
    if "*" in allowed or origin.rstrip("/") in allowed:
        return True
    try:
        parts = urlsplit(origin)
    except ValueError:
        return False
    return (
        parts.scheme in ("http", "https")
        and bool(parts.netloc)
        and not (parts.path or parts.query or parts.fragment)
        and host is not None
        and parts.netloc.lower() == host.lower()
    )


async def _refuse_upgrade(socket: WebSocket[Any, Any, Any], exc: ApiError) -> None:
    """The upgrade refused with the problem HTTP would answer (where the server can send an
    answer to an upgrade; else its plain 403)."""
    scope: Any = socket.scope
    response = handle_exception(_as_request(scope, _request_id()), exc)
    log.info(
        "socket refused",
        extra={"path": scope["path"], "status": response.status_code, "code": exc.code},
    )
    await send_problem(scope, socket.send, response.content)


def _request_id() -> str:
    return f"ws{_PREFIX}{next(_COUNT):06x}"


def _as_request(scope: Scope, request_id: str) -> Request[Any, Any, Any]:
    """A socket's scope as a request for the exception handler (it names the request id and
    the path)."""
    as_http: Any = dict(scope)
    as_http.update(
        type="http",
        method="WEBSOCKET",
        query_string=b"",
        headers=[],
        state={"request_id": request_id},
    )
    return Request(as_http)


def close_all(sockets: set[Socket]) -> None:
    """The server is shutting down: every open socket closes with 1001 (reconnect elsewhere)."""
    for socket in list(sockets):
        socket.close(GOING_AWAY, "going_away")


class Socket:
    """One seat socket, from its `hello` to its close."""

    def __init__(
        self,
        games: Games,
        commands: msgspec.json.Decoder[msgspec.Struct],
        scope: Scope,
        receive: Receive,
        send: Send,
    ) -> None:
        self.games = games
        self.settings = settings = games.settings
        self.commands = commands
        self.scope, self.receive, self.send = scope, receive, send
        self.game_id: str = scope["path_params"]["game_id"]
        self.client = client_address(scope, settings)
        self.request_id = _request_id()
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.token: str | None = None
        self.views = False
        self.following: Session | None = None
        self.pusher: asyncio.Task[None] | None = None
        self.outbox: deque[str] = deque()
        self.draining: asyncio.Task[None] | None = None
        self.closing: _Closing | None = None
        self.gone = False
        """The client hung up (or its connection failed): nothing more can be sent."""
        self.reading = False
        """The socket's own task waits for the client's next message (it may be cancelled)."""
        self.commanding = False
        """A command is on its way: the push leaves the table's changes to its end."""
        self.owed = False
        """A change came while a command was on its way."""
        self.resumed: asyncio.Future[None] | None = None
        """The pushing task's wait for a command's end."""
        self.timer: asyncio.TimerHandle | None = None
        self.received_at = self.sent_at = self.loop.time()
        self.heartbeat_s = settings.socket_heartbeat_s
        self.idle_s = settings.socket_idle_s
        self.backlog = settings.socket_backlog
        self.bound = settings.outbox_bytes
        self.queued = 0
        """The bytes of the send that waits and of the messages queued behind it."""
        self.outlet = Outlet(send)
        self.max_bytes = settings.max_body_bytes
        self._request: Request[Any, Any, Any] | None = None

    # -- its life ---------------------------------------------------------------------------------

    async def run(self) -> None:
        started = time.perf_counter()
        try:
            await self._run()
        finally:
            if self.timer is not None:
                self.timer.cancel()
            await self._close()
            code = self.closing.code if self.closing else NORMAL
            log.info(
                "socket closed",
                extra={
                    "path": self.scope["path"],
                    "code": code,
                    "request_id": self.request_id,
                    "ms": round((time.perf_counter() - started) * 1000, 2),
                },
            )

    async def _run(self) -> None:
        try:
            hello = await self._hello()
            if hello is None:
                return
            self.token, self.views = hello.token, hello.views
            if hello.token is not None:
                inputs.token(hello.token)
            following = await self.games.stream(self.game_id, hello.token, hello.after, self.client)
        except _Closing as closing:
            self.closing = closing
            return
        except Exception as exc:
            self.closing = _refusal(exc)
            return
        self.following = following
        following.keepalive = max(self.heartbeat_s, 1.0)
        try:
            async with following:
                try:
                    await self._welcome(following, hello)
                except Exception as exc:
                    self.closing = _refusal(exc)
                    return
                self.pusher = asyncio.create_task(self._pushing(following))
                self._arm()
                await self._reading()
        finally:
            pusher, self.pusher = self.pusher, None
            if pusher is not None:
                pusher.cancel()
                await asyncio.gather(pusher, return_exceptions=True)

    async def _hello(self) -> Hello | None:
        """The first message, within `SOCKET_HELLO_S`; None when the client hung up."""
        try:
            async with asyncio.timeout(self.settings.socket_hello_s):
                message = await self.receive()
        except TimeoutError:
            raise _Closing(TIMEOUT, "hello_timeout") from None
        if message["type"] == "websocket.disconnect":
            self.gone = True
            return None
        self.received_at = self.loop.time()
        data = self._data(message)
        try:
            hello = decoder.decode(data)
        except (msgspec.ValidationError, msgspec.DecodeError):
            raise _Closing(BAD_HELLO, "bad_hello") from None
        if type(hello) is not Hello:
            raise _Closing(BAD_HELLO, "bad_hello")
        return hello

    def _data(self, message: Any) -> bytes:
        """A received message's bytes: text only, and no more than `MAX_BODY_BYTES`."""
        text = message.get("text")
        if text is None:
            raise _Closing(BINARY, "binary")
        data: bytes = text.encode()
        if len(data) > self.max_bytes:
            raise _Closing(TOO_BIG, "too_big")
        return data

    async def _welcome(self, following: Session, hello: Hello) -> None:
        """`welcome`, from the table as it is now (the wait is on: nothing after it is missed)."""
        seen = await following.view(push=self._push)
        role = following.role
        welcome = {
            "type": "welcome",
            "version": seen.version,
            "seat": seen.seat,
            "player_id": following.player_id,
            "role": "player" if role is not None else "host" if hello.token else "spectator",
            "heartbeat_s": int(self.heartbeat_s),
            "idle_s": int(self.idle_s),
            "max_bytes": self.max_bytes,
            "game": msgspec.Raw(seen.body) if hello.views else None,
        }
        self._put(_encoder.encode(welcome))

    async def _reading(self) -> None:
        """Each message the client sends, in turn, until the socket closes."""
        receive = self.receive
        while self.closing is None:
            self.reading = True
            try:
                message = await receive()
            except asyncio.CancelledError:
                if self.closing is None or self.task is None:
                    raise
                self.task.uncancel()  # our own: the socket is closing
                return
            finally:
                self.reading = False
            if message["type"] != "websocket.receive":
                self.gone = True
                return
            self.received_at = self.loop.time()
            try:
                data = self._data(message)
            except _Closing as closing:
                self.close(closing.code, closing.reason)
                return
            try:
                parsed = decoder.decode(data)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                self._problem(None, InvalidRequest(str(exc)))
                continue
            kind = type(parsed)
            if kind is Command:
                await self._command(parsed)  # type: ignore[arg-type]
            elif kind is Ping:
                self._put_text(_PONG)
            else:
                self._problem(None, InvalidRequest("`hello` was sent already."))

    def close(self, code: int, reason: str) -> None:
        """Close the socket (once): at once when the client is slow to read (what waits is
        dropped), else after what was sent before."""
        if self.closing is not None:
            return
        self.closing = _Closing(code, reason)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if code == SLOW_READER:
            self.outbox.clear()
            self.queued = 0
            if self.draining is not None:
                self.draining.cancel()
            self.outlet.open_up()  # the close goes in behind what the transport holds
            self.loop.call_later(CLOSE_GRACE_S, self.outlet.cut)
        if self.reading and self.task is not None:
            self.task.cancel()

    async def _close(self) -> None:
        """The close message, once what is queued is sent (unless the client hung up)."""
        draining = self.draining
        if draining is not None:
            await asyncio.gather(draining, return_exceptions=True)
        if self.gone:
            return
        closing = self.closing or _Closing(NORMAL, "")
        try:
            message: WebSocketCloseEvent = {
                "type": "websocket.close",
                "code": closing.code,
                "reason": closing.reason,
            }
            await self.send(message)
        except Exception:  # gone meanwhile: nothing to tell
            self.gone = True

    # -- commands ---------------------------------------------------------------------------------

    async def _command(self, message: Command) -> None:
        """A move, as `POST …/commands` makes it: the same use case, answer and refusals."""
        session = self.following
        assert session is not None
        self.commanding = True
        try:
            raw = bytes(message.command)
            try:  # a command refused before it reaches the table is paid for too
                if self.token is None:
                    raise Unauthorized("This needs a token: send it in `hello`.")
                try:
                    command = self.commands.decode(raw)
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    raise InvalidRequest(str(exc)) from None
            except ApiError:
                await session.refused()
                raise
            answer = await session.command(command, raw, message.id, message.if_match)
            await self._result(message.id, answer)
        except Exception as exc:
            self._problem(message.id, exc)
        finally:
            self.commanding = False
            self._resume()

    async def _result(self, id: str, answer: Answer) -> None:
        """A command's `result`: first the versions before its events that this socket has
        not seen; its events are then skipped by the push."""
        following = self.following
        assert following is not None
        body = answer.body
        head = _head.decode(body)
        if head.events and head.version > following.after:
            first = head.events[0].version
            try:
                while following.after < first - 1:
                    owed = await following.until(first - 1)
                    if not owed:
                        break
                    self._events(owed)
            except Unauthorized:
                pass  # its player left, by this very command maybe: the answer is owed all the same
            following.after = max(following.after, head.version)
        self._put(b'{"type":"result","id":%b,"result":%b}' % (_encoder.encode(id), body))

    def _resume(self) -> None:
        """After a command: the changes that came meanwhile are pushed now (or by the task)."""
        resumed, self.resumed = self.resumed, None
        if resumed is not None and not resumed.done():
            resumed.set_result(None)
        if self.owed:
            self.owed = False
            if not self._push() and self.following is not None:  # the task reads (a gap, a page)
                self.following.wake()

    def _problem(self, id: str | None, exc: BaseException) -> None:
        """A `problem`: what HTTP would answer, made by the same exception handler."""
        if not isinstance(exc, Exception):  # pragma: no cover - a cancel is no refusal
            raise exc
        response = handle_exception(self._as_request(), exc)
        retry = response.headers.get("Retry-After")
        message = {
            "type": "problem",
            "id": id,
            "problem": response.content,
            "retry_after": int(retry) if retry is not None and retry.isdigit() else None,
        }
        self._put(_encoder.encode(message))

    def _as_request(self) -> Request[Any, Any, Any]:
        if self._request is None:
            self._request = _as_request(self.scope, self.request_id)
        return self._request

    # -- the push ---------------------------------------------------------------------------------

    def _push(self) -> bool:
        """The waiter's `push`, in the change feed's callback: the change served here when the
        table held here has it (True); else the pushing task is woken (False)."""
        if self.closing is not None:
            return True
        if self.commanding:
            self.owed = True
            return True
        following = self.following
        assert following is not None
        try:
            events = following.at_hand()
            if events is None:
                return False
            if events:
                self._events(events)
        except Exception:  # the task meets it again, where it can end the socket
            log.debug("a push failed", exc_info=True)
            return False
        return True

    async def _pushing(self, following: Session) -> None:
        """The pushing task: what the push could not serve (a gap, a page, a read), until the
        socket closes; its viewer's player gone closes it (4401)."""
        wait = _RETRY_S[0]
        while self.closing is None:
            draining = self.draining
            if draining is not None:  # the next page once this one is sent: none piles up
                await self._drained(draining, following)
                continue
            try:
                events = await following.next()
            except Unauthorized:
                self.close(UNAUTHORIZED, "unauthorized")
                return
            except ApiError:  # the store is away: the push resumes when it is back
                await asyncio.sleep(wait)
                wait = min(wait * 2, _RETRY_S[1])
                continue
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("a socket's push failed")
                self.close(INTERNAL, "internal")
                return
            wait = _RETRY_S[0]
            if self.commanding:  # its result says what it did: the rest after it
                self.resumed = resumed = self.loop.create_future()
                await resumed
                continue
            if events:
                self._events(events)

    async def _drained(self, draining: asyncio.Task[None], following: Session) -> None:
        """Wait for a send that waits for the client; meanwhile, every `SLOW_CHECK_S`, close the
        socket (4508) once what waits and what it is owed come to more than `OUTBOX_BYTES`."""
        while not draining.done():
            await asyncio.wait((draining,), timeout=SLOW_CHECK_S)
            if draining.done() or self.closing is not None:
                return
            owed = following.owed_bytes()
            if owed is None or self.queued + self.outlet.waiting() + owed > self.bound:
                self.close(SLOW_READER, "slow_reader")
                return

    def _events(self, events: list[Delivered]) -> None:
        """An `events` message of those not sent yet (and the view after them, if asked)."""
        following = self.following
        assert following is not None
        after = following.after
        if events[0].version <= after:
            events = [e for e in events if e.version > after]
            if not events:
                return
        last = events[-1].version
        following.after = last
        self._put(
            b'{"type":"events","events":[%b],"version":%d}'
            % (b",".join([e.json for e in events]), last)
        )
        if self.views:
            view = following.view_at(last)
            if view is not None:
                self._put(b'{"type":"view","game":%b,"version":%d}' % (view, last))

    # -- sending ----------------------------------------------------------------------------------

    def _put(self, message: bytes) -> None:
        self._put_text(message.decode())

    def _put_text(self, text: str) -> None:
        """Send a message now when the server takes it at once; else queue it behind the send
        that waits, up to `SOCKET_BACKLOG` (one more closes the socket: 4508)."""
        if self.gone or (self.closing is not None and self.closing.code == SLOW_READER):
            return
        self.sent_at = self.loop.time()
        if self.draining is not None:
            self.outbox.append(text)
            self.queued += len(text)
            if len(self.outbox) > self.backlog or self.queued + self.outlet.waiting() > self.bound:
                self.close(SLOW_READER, "slow_reader")
            return
        message: WebSocketSendEvent = {"type": "websocket.send", "bytes": None, "text": text}
        sending = self.send(message)
        if type(sending) is not CoroutineType:  # not one to drive here: a task's
            self.queued = len(text)
            self.draining = asyncio.ensure_future(self._drain(sending, len(text)))
            return
        try:
            blocked = sending.send(None)
        except StopIteration:
            if self.outlet.waiting() > self.bound:  # taken, but the client is not reading
                self.close(SLOW_READER, "slow_reader")
            return
        except Exception:
            self._lost()
            return
        self.queued = len(text)
        self.draining = asyncio.ensure_future(self._drain(Held(sending, blocked), len(text)))

    async def _drain(self, sending: Any, first: int) -> None:
        """A send that waits for the client, then what queued up behind it, in order."""
        try:
            await sending
            self.queued -= first
            send, outbox = self.send, self.outbox
            while outbox:
                text = outbox.popleft()
                await send({"type": "websocket.send", "bytes": None, "text": text})
                self.queued -= len(text)
        except asyncio.CancelledError:
            pass  # a slow reader: dropped
        except Exception:
            self._lost()
        finally:
            self.draining = None
            self.queued = 0

    def _lost(self) -> None:
        """The connection failed under a send: the client is gone."""
        self.gone = True
        self.outbox.clear()
        self.close(NORMAL, "")

    # -- the heartbeat and the idle time-out ------------------------------------------------------

    def _arm(self) -> None:
        due = min(self.sent_at + self.heartbeat_s, self.received_at + self.idle_s)
        self.timer = self.loop.call_at(due, self._tick)

    def _tick(self) -> None:
        self.timer = None
        if self.closing is not None:
            return
        now = self.loop.time() + _EARLY_S
        if now >= self.received_at + self.idle_s:
            self.close(TIMEOUT, "idle")
            return
        if now >= self.sent_at + self.heartbeat_s and self.following is not None:
            self._put_text(f'{{"type":"heartbeat","version":{self.following.after}}}')
        self._arm()
