"""A lean Redis connection for the store's scripts: one socket per process, calls pipelined.

Every command's append and every read is one `EVALSHA`. Through redis-py each call takes a
connection from the pool, wraps it in retries, time-outs and hooks, and gives it back: a quarter
of a worker's CPU under the follow workload (docs/performance.md). Here a call is a few bytes
on one connection and a future: a call made while none is in flight is written at once; calls
made while others wait for their replies are queued and leave together at the end of that turn of
the event loop, in one write. Redis answers them in order, and each reply resolves the oldest
pending future.

The notifier's pub/sub runs on a line of its own: what Redis pushes (a message, a confirmed
subscription, the answer to a PING) goes to the `pushed` callback as it is parsed, with no task,
no time-out scope and no dictionary per message, which is what redis-py's `get_message` costs.

It speaks plain TCP to one server (`redis://`), or to the primary Sentinel names (its moves are
followed: adapters/sentinel.py). TLS, Unix sockets and a cluster keep redis-py.
No call waits longer than the time-out, and a call that times out fails alone (`ReplyLate`): the
calls behind it keep their own time-outs, and its reply, should it come, is read and dropped.
Only a connection on which Redis has said nothing for `STALL` time-outs is dropped.

An append that must reach replicas before it is answered (`WRITE_REPLICAS`) is sent with
`call_acked`: the calls of a turn that ask for it are followed, in the same write, by ONE `WAIT`
(so a batch of appends costs one more command, and one slow replica holds a batch, not each
append); each learns how many replicas confirmed, and its `early` callback runs only when enough
did, as that `WAIT`'s reply is read. A lost or
dropped connection fails what it holds: `ReplyLost` for calls written to it (Redis may have run
them), redis-py's `ConnectionError` for calls never written (nothing was run). A call that could
not connect fails with `ConnectionError` or `TimeoutError` (nothing was sent). The next call
connects again. A server that cannot write now refuses a call with `Refused` (nothing was
run: adapters/line_errors.py).
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

import hiredis
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas.adapters.acks import Acks
from kronikas.adapters.line_errors import Refused as Refused
from kronikas.adapters.line_errors import ReplyLate, ReplyLost, error_of
from kronikas.adapters.line_errors import maybe_run as maybe_run
from kronikas.adapters.sentinel import Address, Primary, SentinelPool
from kronikas.metrics import redis_call

STALL = 2
"""Time-outs without a word from Redis while a call waits, after which the connection is dropped
(a dead peer, a server that stopped answering): calls behind a stuck one would all time out."""


_MORE = object()
"""What the reader answers while no whole reply has arrived."""
PUSHES = frozenset({b"message", b"subscribe", b"unsubscribe", b"pong"})
"""The first element of what Redis pushes to a subscribed connection."""
Pushed = Callable[[list[Any]], None]
Early = Callable[[Any], None]
"""Called with a call's reply as soon as it is read, before whoever awaits the call resumes."""
log = logging.getLogger("kronikas.redis")


class LineScript:
    """A Lua script known by its SHA1, loaded again when Redis has forgotten it."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.sha = hashlib.sha1(text.encode(), usedforsecurity=False).hexdigest()


class _Wire(asyncio.Protocol):
    """The socket: replies resolve the pending futures in the order their calls were sent."""

    def __init__(self, line: ScriptLine, pushed: Pushed | None, timeout_s: float) -> None:
        self.line = line
        self.pushed = pushed
        self.timeout_s = timeout_s
        self.heard_at = time.monotonic()
        self.reader = hiredis.Reader(replyError=ResponseError, notEnoughData=_MORE)
        self.pending: collections.deque[tuple[asyncio.Future[Any], float, Early | None]] = (
            collections.deque()
        )
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.retired = False
        """Taking no new calls (the primary moved): closed once the calls written are answered."""
        self.address: Address | None = None
        self.out: list[bytes] = []
        """Commands queued in this turn of the event loop, written together at its end."""
        self.watch: asyncio.TimerHandle | None = None
        self.acks: Acks | None = None
        """The `WAIT` that will follow this turn's queued acknowledged calls, once written."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        reader.feed(data)
        pending = self.pending
        self.heard_at = heard = time.monotonic()
        while True:
            try:
                reply = reader.gets()
            except hiredis.ProtocolError as exc:
                self.fail(RedisConnectionError(f"Redis sent what is not RESP: {exc}"))
                return
            if reply is _MORE:
                if self.retired and not pending:  # its last call answered
                    self.fail(RedisConnectionError("the connection was retired"))
                return
            if self.pushed is not None and type(reply) is list and reply and reply[0] in PUSHES:
                self.pushed(reply)
                continue
            if not pending:
                self.fail(RedisConnectionError("Redis sent a reply nobody asked for"))
                return
            future, sent_at, early = pending.popleft()
            redis_call(heard - sent_at)
            if future.done():
                continue  # a call that timed out (or was cancelled): its caller has gone
            if early is not None:
                try:
                    early(reply)
                except Exception:  # the caller resumes all the same
                    log.exception("a reply's early callback failed")
            if not future.done():
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.fail(RedisConnectionError("Connection to Redis lost"))

    def send(self, command: tuple[Any, ...], early: Early | None = None) -> asyncio.Future[Any]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.closed:
            future.set_exception(RedisConnectionError("Connection to Redis lost"))
            return future
        packed = hiredis.pack_command(command)
        if not self.pending and self.transport is not None:
            self.transport.write(packed)  # nothing in flight: no one to share a write with
        else:
            if not self.out:
                loop.call_soon(self.flush)
            self.out.append(packed)
        self.pending.append((future, time.monotonic(), early))
        if self.watch is None:
            self.watch = loop.call_later(self.timeout_s, self.check)
        return future

    def send_acked(
        self, command: tuple[Any, ...], early: Early | None, replicas: int, wait_ms: int
    ) -> tuple[asyncio.Future[Any], asyncio.Future[Any]]:
        """Send a command to be followed by this turn's one `WAIT` (queued, never written
        alone); its future, and that `WAIT`'s. `early` sees the reply once enough replicas have
        it (`Acks.heard`)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        if self.closed:
            future.set_exception(RedisConnectionError("Connection to Redis lost"))
            return future, future
        if not self.out:
            loop.call_soon(self.flush)
        self.out.append(hiredis.pack_command(command))
        self.pending.append((future, time.monotonic(), None))
        acks = self.acks
        if acks is None:
            acks = self.acks = Acks(loop.create_future(), replicas, wait_ms)
        acks.calls.append((future, early))
        if self.watch is None:
            self.watch = loop.call_later(self.timeout_s, self.check)
        return future, acks.future

    def flush(self) -> None:
        """Write what this turn of the event loop queued, in one system call (with the `WAIT`
        that follows its acknowledged calls, last)."""
        out, self.out = self.out, []
        acks, self.acks = self.acks, None
        if acks is not None:
            if self.closed:
                if not acks.future.done():
                    acks.future.set_exception(RedisConnectionError("Connection to Redis lost"))
            else:
                wait: tuple[Any, ...] = ("WAIT", acks.replicas, acks.wait_ms)
                out.append(hiredis.pack_command(wait))
                self.pending.append((acks.future, time.monotonic(), acks.heard))
        if out and self.transport is not None and not self.closed:
            self.transport.write(b"".join(out))

    def check(self) -> None:
        """Fail the calls that have waited longer than the time-out, each alone; drop the
        connection when Redis has said nothing for `STALL` time-outs while a call waits."""
        self.watch = None
        if self.closed or not self.pending:
            return
        now = time.monotonic()
        timeout = self.timeout_s
        quiet_since = max(self.pending[0][1], self.heard_at)
        if now - quiet_since >= STALL * timeout:
            self.fail(RedisConnectionError("Redis stopped answering"))
            return
        next_at = quiet_since + STALL * timeout
        for future, sent_at, _ in self.pending:  # oldest first: stops at the first in time
            if future.done():
                continue
            if now - sent_at < timeout:
                next_at = min(next_at, sent_at + timeout)
                break
            future.set_exception(ReplyLate("Timeout reading from Redis"))
        loop = asyncio.get_running_loop()
        self.watch = loop.call_later(max(0.0, next_at - now), self.check)

    def retire(self) -> None:
        """Take no new calls; close once the calls written to it have their replies."""
        self.retired = True
        self.line._forget(self)
        if not self.pending:
            self.fail(RedisConnectionError("the connection was retired"))

    def fail(self, error: Exception) -> None:
        """Fail every pending call and drop the connection: those written to it with
        `ReplyLost`, those not yet written (queued for this turn's write) with `error`."""
        self.closed = True
        self.line._forget(self)
        written = len(self.pending) - len(self.out)
        self.out = []
        acks, self.acks = self.acks, None
        if acks is not None and not acks.future.done():
            acks.future.set_exception(error)  # never sent
        if self.watch is not None:
            self.watch.cancel()
            self.watch = None
        while self.pending:
            future, _, _ = self.pending.popleft()
            if not future.done():
                if written > 0:
                    lost = ReplyLost(f"{error} after the command was sent")
                    lost.__cause__ = error
                    future.set_exception(lost)
                else:
                    future.set_exception(error)
            written -= 1
        if self.transport is not None:
            self.transport.abort()


class ScriptLine:
    """`EVALSHA` (and any command) on one pipelined connection to one Redis server."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        primary: Primary | None = None,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout_s: float = 2.0,
        pushed: Pushed | None = None,
        lost: Callable[[], None] | None = None,
    ) -> None:
        """`pushed` takes what Redis pushes once the line subscribes; `lost` is called when
        the connection is lost; `primary`, when given, names the server of each new connection
        in place of `host` and `port`."""
        self.host, self.port, self.timeout_s = host, port, timeout_s
        self._primary = primary
        self._moves = 0
        """How often the primary moved (`moved`): a connection opened across a move is not kept."""
        self._pushed, self._lost = pushed, lost
        self._hello: list[tuple[Any, ...]] = []
        if password:
            self._hello.append(("AUTH", username, password) if username else ("AUTH", password))
        if db:
            self._hello.append(("SELECT", db))
        self._wire: _Wire | None = None
        self._connecting: asyncio.Lock | None = None

    @classmethod
    def of(cls, redis: Any, **hooks: Any) -> ScriptLine | None:
        """A line to the server of a redis-py client on plain TCP (to the primary, for a client
        of the Sentinels' primary); None for any other client. `hooks` are `pushed` and
        `lost`."""
        if not isinstance(redis, Redis):
            return None
        pool = redis.connection_pool
        kwargs = pool.connection_kwargs
        sentinel = isinstance(pool, SentinelPool)
        plain = ("PackedSentinelConnection",) if sentinel else ("Connection", "PackedConnection")
        if pool.connection_class.__name__ not in plain:
            return None  # TLS or a Unix socket
        line = cls(
            kwargs.get("host", "localhost"),
            int(kwargs.get("port", 6379)),
            primary=pool.primary if isinstance(pool, SentinelPool) else None,
            db=int(kwargs.get("db", 0) or 0),
            username=kwargs.get("username"),
            password=kwargs.get("password"),
            timeout_s=float(kwargs.get("socket_timeout") or 2.0),
            **hooks,
        )
        if isinstance(pool, SentinelPool):
            pool.primary.follow(line)
        return line

    async def evalsha(
        self,
        script: LineScript,
        keys: Sequence[Any],
        args: Sequence[Any],
        early: Early | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> Any:
        """Run `script`, loading it first when Redis does not know it (after a restart).
        `early` sees the reply first (an error reply too), as soon as it is read; `meanwhile`
        is called once the call is on its way."""
        command = ("EVALSHA", script.sha, len(keys), *keys, *args)
        try:
            return await self.call(*command, early=early, meanwhile=meanwhile)
        except NoScriptError:
            await self.call("SCRIPT", "LOAD", script.text)
            return await self.call(*command, early=early)

    async def call(
        self, *command: Any, early: Early | None = None, meanwhile: Callable[[], None] | None = None
    ) -> Any:
        """Send one command and wait for its reply; an error reply is raised. `early` sees the
        reply first, as soon as it is read. `meanwhile` is called once the command is sent: while
        Redis works on it, or (when other calls are in flight) before it leaves with the others
        of this turn, in one write, which spares Redis a read for each."""
        wire = self._wire if self._wire is not None else await self._connect()
        future = wire.send(command, early)
        try:
            if meanwhile is not None:
                meanwhile()
        finally:
            reply = await future
        if isinstance(reply, ResponseError):
            raise error_of(wire, reply)
        return reply

    async def wire(self) -> _Wire:
        """The line's connection, connecting first if need be (adapters/acks.py sends on it)."""
        return self._wire if self._wire is not None else await self._connect()

    def connected(self) -> _Wire | None:
        """The line's connection as it is now: None while it has none."""
        wire = self._wire
        return None if wire is None or wire.closed else wire

    async def push(self, *command: Any) -> float:
        """Send a command whose answer is pushed (SUBSCRIBE, UNSUBSCRIBE, PING once subscribed),
        connecting first if need be; when the line last heard from Redis (`time.monotonic()`)."""
        wire = self._wire if self._wire is not None else await self._connect()
        if wire.closed or wire.transport is None:
            raise RedisConnectionError("Connection to Redis lost")
        wire.transport.write(hiredis.pack_command(command))
        return wire.heard_at

    def recheck(self) -> None:
        """The server refused a write, but may still be the primary: have the Sentinels asked
        again (`Primary.recheck`)."""
        if self._primary is not None:
            self._primary.recheck()

    def moved(self, address: Address) -> None:
        """The primary moved to `address` (a Sentinel said so): retire a connection elsewhere;
        with none, say the line is lost all the same (whoever waits to connect again may now)."""
        self._moves += 1
        wire = self._wire
        if wire is None:
            if self._lost is not None:
                self._lost()
        elif wire.address is not None and wire.address != address:
            wire.retire()

    def drop(self, error: Exception) -> None:
        """Drop the connection (a stalled subscription), failing what waits on it."""
        if self._wire is not None:
            self._wire.fail(error)

    async def aclose(self) -> None:
        if self._wire is not None:
            self._wire.fail(RedisConnectionError("The connection was closed"))

    # -- inside -----------------------------------------------------------------------------------

    def _forget(self, wire: _Wire) -> None:
        if self._wire is wire:
            self._wire = None
            if self._lost is not None:
                self._lost()

    async def _connect(self) -> _Wire:
        if self._connecting is None:
            self._connecting = asyncio.Lock()
        async with self._connecting:
            if self._wire is not None:
                return self._wire
            loop = asyncio.get_running_loop()
            try:
                async with asyncio.timeout(self.timeout_s):
                    while True:
                        moves = self._moves
                        host, port = (
                            (self.host, self.port)
                            if self._primary is None
                            else await self._primary.locate()
                        )
                        _, wire = await loop.create_connection(
                            lambda: _Wire(self, self._pushed, self.timeout_s), host, port
                        )
                        if self._moves == moves:
                            break
                        if wire.transport is not None:  # the primary moved meanwhile: again
                            wire.transport.abort()
            except TimeoutError as exc:
                raise RedisTimeoutError("Timeout connecting to Redis") from exc
            except OSError as exc:
                raise RedisConnectionError(f"Error connecting to Redis: {exc}") from exc
            wire.address = (host, port)
            self._wire = wire
            try:
                for command in self._hello:
                    reply = await wire.send(command)
                    if isinstance(reply, ResponseError):
                        raise RedisConnectionError(f"Redis refused {command[0]}: {reply}")
            except (ReplyLost, ReplyLate) as exc:  # the call itself was never sent
                wire.fail(RedisConnectionError("Connection setup failed"))
                raise RedisConnectionError(f"Connection setup failed: {exc}") from exc
            except BaseException:
                wire.fail(RedisConnectionError("Connection setup failed"))
                raise
            return wire
