"""A seat socket, once its upgrade is accepted: a table followed and played over one WebSocket.

Framing over the viewer's session, as HTTP's (docs/api.md, The seat socket): the first message
(`hello`) opens what `GET …/stream` opens (`Games.stream`: its access check, its charge, its
place among the token's and the address's streams), and each `command` is what `POST …/commands`
is (`Session.command`, with the command's `id` as its `Idempotency-Key`), answered with the very
bytes HTTP answers, or the problem HTTP would answer (api/problems.py). Events are the
session's, pushed as they come (api/socket_push.py) through a bounded outbox
(api/socket_outbox.py); who may open a socket, and how one closes, is api/socket_gate.py's.

Its upgrade is taken by api/socket_route.py; every message after it goes between the server's
`receive`/`send` and this module. One timer a socket serves the heartbeat (`SOCKET_HEARTBEAT_S`
without a message sent) and the idle time-out (`SOCKET_IDLE_S` without one received), moved on
lazily like the waiters'.
No token is ever logged: the access log line names the path alone.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import msgspec
from litestar import Request
from litestar.types import Receive, Scope, Send

from kronikas.api import inputs
from kronikas.api.client import client_address
from kronikas.api.socket_gate import (
    BAD_HELLO,
    BINARY,
    NORMAL,
    SLOW_READER,
    TIMEOUT,
    TOO_BIG,
    Closing,
    as_request,
    problem,
    refusal,
    request_id,
)
from kronikas.api.socket_outbox import Outbox
from kronikas.api.socket_push import Push
from kronikas.api.socket_wire import Command, Hello, Ping, decoder
from kronikas.application.errors import ApiError, InvalidRequest, RateLimited, Unauthorized
from kronikas.application.games import Games
from kronikas.application.session import Session

log = logging.getLogger("kronikas.socket")

_EARLY_S = 0.002
"""How early the timer may fire (a loop timer may fire up to its clock's resolution early)."""
_encoder = msgspec.json.Encoder()
_PONG = '{"type":"pong"}'


def _ignored(*_: object) -> None:
    """A closed socket's `close`, and its outbox's `overflow` and `lost`."""


def _closed() -> bool:
    return True


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
        # The upgrade's headers are read by now (the origin, the client's address); a problem
        # is answered without them (`as_request`). Kept, they cost each open socket ~1 KB.
        scope["headers"] = []
        self.request_id = request_id()
        self.loop = asyncio.get_running_loop()
        self.task = asyncio.current_task()
        self.token: str | None = None
        self.session: Session | None = None
        self.push: Push | None = None
        self.pusher: asyncio.Task[None] | None = None
        self.closing: Closing | None = None
        self.reading = False
        """The socket's own task waits for the client's next message (it may be cancelled)."""
        self.timer: asyncio.TimerHandle | None = None
        self.received_at = self.loop.time()
        self.heartbeat_s = settings.socket_heartbeat_s
        self.idle_s = settings.socket_idle_s
        self.outbox = Outbox(
            send,
            settings.socket_backlog,
            settings.outbox_bytes,
            overflow=self._slow_reader,  # methods, not lambdas: a closure a socket less
            lost=self._lost,
        )
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
            self.token = hello.token
            if hello.token is not None:
                inputs.token(hello.token)
            session = await self.games.stream(self.game_id, hello.token, hello.after, self.client)
        except Closing as closing:
            self.closing = closing
            return
        except Exception as exc:
            self.closing = refusal(exc)
            return
        self.session = session
        session.keepalive = max(self.heartbeat_s, 1.0)
        push = self.push = Push(session, self.outbox, hello.views, self.close, self.is_closing)
        try:
            async with session:
                try:
                    await self._welcome(session, push, hello)
                except Exception as exc:
                    self.closing = refusal(exc)
                    return
                self.pusher = asyncio.create_task(push.run())
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
            raise Closing(TIMEOUT, "hello_timeout") from None
        if message["type"] == "websocket.disconnect":
            self.outbox.gone = True
            return None
        self.received_at = self.loop.time()
        data = self._data(message)
        try:
            hello = decoder.decode(data)
        except (msgspec.ValidationError, msgspec.DecodeError):
            raise Closing(BAD_HELLO, "bad_hello") from None
        if type(hello) is not Hello:
            raise Closing(BAD_HELLO, "bad_hello")
        return hello

    def _data(self, message: Any) -> bytes:
        """A received message's bytes: text only, and no more than `MAX_BODY_BYTES`."""
        text = message.get("text")
        if text is None:
            raise Closing(BINARY, "binary")
        data: bytes = text.encode()
        if len(data) > self.max_bytes:
            raise Closing(TOO_BIG, "too_big")
        return data

    async def _welcome(self, session: Session, push: Push, hello: Hello) -> None:
        """`welcome`, from the table as it is now (the wait is on: nothing after it is missed)."""
        seen = await session.view(push=push)
        role = session.role
        welcome = {
            "type": "welcome",
            "version": seen.version,
            "seat": seen.seat,
            "player_id": session.player_id,
            "role": "player" if role is not None else "host" if hello.token else "spectator",
            "heartbeat_s": int(self.heartbeat_s),
            "idle_s": int(self.idle_s),
            "max_bytes": self.max_bytes,
            "game": msgspec.Raw(seen.body) if hello.views else None,
        }
        self._put_bytes(_encoder.encode(welcome))

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
                self.outbox.gone = True
                return
            self.received_at = self.loop.time()
            try:
                data = self._data(message)
            except Closing as closing:
                self.close(closing.code, closing.reason)
                return
            try:
                parsed = decoder.decode(data)
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                await self._refused(InvalidRequest(str(exc)))
                continue
            kind = type(parsed)
            if kind is Command:
                await self._command(parsed)  # type: ignore[arg-type]
            elif kind is Ping:
                self.outbox.put(_PONG)
            else:
                await self._refused(InvalidRequest("`hello` was sent already."))

    def close(self, code: int, reason: str) -> None:
        """Close the socket (once): at once when the client is slow to read (what waits is
        dropped), else after what was sent before."""
        if self.closing is not None:
            return
        self.closing = Closing(code, reason)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        if code == SLOW_READER:
            self.outbox.drop()
        if self.reading and self.task is not None:
            self.task.cancel()

    def is_closing(self) -> bool:
        return self.closing is not None

    def _slow_reader(self) -> None:
        self.close(SLOW_READER, "slow_reader")

    def _lost(self) -> None:
        self.close(NORMAL, "")

    def release(self) -> None:
        """Once closed: its push and outbox no longer call back into it (a late call finds the
        socket closed), so that no cycle holds them and they are freed at once rather than at
        the collector's next full pass, which the service runs seldom (api/app.py)."""
        if self.push is not None:
            self.push.close, self.push.closing = _ignored, _closed
        self.outbox.overflow = self.outbox.on_lost = _ignored
        self.task = self.pusher = None

    async def _close(self) -> None:
        """The close message, once what is queued is sent (unless the client hung up)."""
        closing = self.closing or Closing(NORMAL, "")
        await self.outbox.close(closing.code, closing.reason)

    # -- commands ---------------------------------------------------------------------------------

    async def _command(self, message: Command) -> None:
        """A move, as `POST …/commands` makes it: the same use case, answer and refusals."""
        session, push = self.session, self.push
        assert session is not None and push is not None
        push.commanding = True
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
            await push.result(message.id, answer)
        except Exception as exc:
            self._problem(message.id, exc)
        finally:
            push.resume()

    async def _refused(self, refusal: ApiError) -> None:
        """A message neither a command nor a ping, paid for as HTTP pays a body it cannot decode:
        its `problem`, or 429 when the token's or the address's bucket is empty."""
        assert self.session is not None
        try:
            await self.session.refused()
        except RateLimited as limited:
            refusal = limited
        self._problem(None, refusal)

    def _problem(self, id: str | None, exc: BaseException) -> None:
        """A `problem`: what HTTP would answer, made by the same exception handler."""
        if not isinstance(exc, Exception):  # pragma: no cover - a cancel is no refusal
            raise exc
        if self._request is None:
            self._request = as_request(self.scope, self.request_id)
        self._put_bytes(problem(self._request, id, exc))

    def _put_bytes(self, message: bytes) -> None:
        self.outbox.put(message.decode())

    # -- the heartbeat and the idle time-out ------------------------------------------------------

    def _arm(self) -> None:
        due = min(self.outbox.sent_at + self.heartbeat_s, self.received_at + self.idle_s)
        self.timer = self.loop.call_at(due, self._tick)

    def _tick(self) -> None:
        self.timer = None
        if self.closing is not None:
            return
        now = self.loop.time() + _EARLY_S
        if now >= self.received_at + self.idle_s:
            self.close(TIMEOUT, "idle")
            return
        if now >= self.outbox.sent_at + self.heartbeat_s and self.session is not None:
            self.outbox.put(f'{{"type":"heartbeat","version":{self.session.after}}}')
        self._arm()
