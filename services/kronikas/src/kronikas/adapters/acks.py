"""Acknowledged calls on the store's own line (`WRITE_REPLICAS`): a call followed by Redis
`WAIT`, one `WAIT` a pipelined batch, and the scripts sent after it without awaiting a reply.

`WAIT n ms` on a connection blocks it until `n` replicas have every write that connection made
(up to the server's replication offset at its last write, which covers every other client's
write before it too), or `ms` passed; it answers how many did. The line writes the calls of one
turn of the event loop together (adapters/script_line.py): those that ask for it here are
followed, in that same write, by one `WAIT`, whose reply each of them hears. The calls behind a
`WAIT` on the line wait for it (Redis runs a connection's commands in order): one slow replica
holds one batch at a time, not every append one by one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from redis.exceptions import NoScriptError, ResponseError

from kronikas.adapters.line_errors import LineConnection, error_of

Early = Callable[[Any], None]
log = logging.getLogger("kronikas.redis")


class Wire(LineConnection, Protocol):
    """What is sent here on the line's connection (adapters/script_line.py, `_Wire`)."""

    def send(self, command: tuple[Any, ...], early: Early | None = None) -> asyncio.Future[Any]: ...

    def send_acked(
        self, command: tuple[Any, ...], early: Early | None, replicas: int, wait_ms: int
    ) -> tuple[asyncio.Future[Any], asyncio.Future[Any]]: ...


class Line(Protocol):
    """The line (`ScriptLine`), as this module uses it."""

    async def wire(self) -> Wire: ...

    def connected(self) -> Wire | None: ...

    async def call(self, *command: Any) -> Any: ...


class Script(Protocol):
    """A script as the line knows it (`LineScript`)."""

    sha: str
    text: str


class Acks:
    """The `WAIT` that follows one turn's acknowledged calls, and what it tells them."""

    __slots__ = ("calls", "future", "replicas", "wait_ms")

    def __init__(self, future: asyncio.Future[Any], replicas: int, wait_ms: int) -> None:
        self.future = future
        future.add_done_callback(_retrieved)  # shared: its callers may all have failed
        self.replicas, self.wait_ms = replicas, wait_ms
        self.calls: list[tuple[asyncio.Future[Any], Early | None]] = []

    def heard(self, reply: Any) -> None:
        """The `WAIT`'s reply, as soon as it is read: each call's `early` sees its own reply
        when enough replicas have it (before any caller resumes)."""
        if type(reply) is not int or reply < self.replicas:
            return
        for future, early in self.calls:
            if early is None or not future.done() or future.cancelled():
                continue
            if future.exception() is None:
                try:
                    early(future.result())
                except Exception:  # the caller resumes all the same
                    log.exception("an acknowledged reply's early callback failed")


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


async def call_acked(
    line: Line,
    command: tuple[Any, ...],
    replicas: int,
    wait_ms: int,
    early: Early | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> tuple[Any, int]:
    """Send `command`, followed by its turn's one `WAIT replicas wait_ms`: its reply, and how
    many replicas confirmed it. A lost or late `WAIT` raises as a lost or late reply does (the
    command may have been run; its replicas are not known). `early` sees the reply once enough
    replicas did; `meanwhile` is called once the command is on its way."""
    wire = await line.wire()
    future, acked = wire.send_acked(command, early, replicas, wait_ms)
    try:
        if meanwhile is not None:
            meanwhile()
    finally:
        reply = await future
    if isinstance(reply, ResponseError):
        raise error_of(wire, reply)  # as ScriptLine.call: a refused append was not run
    count = await acked
    if isinstance(count, ResponseError):
        raise count
    return reply, int(count)


async def evalsha_acked(
    line: Line,
    script: Script,
    keys: Sequence[Any],
    args: Sequence[Any],
    replicas: int,
    wait_ms: int,
    early: Early | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> tuple[Any, int]:
    """`call_acked` of a script, loaded first when Redis has forgotten it."""
    command = ("EVALSHA", script.sha, len(keys), *keys, *args)
    try:
        return await call_acked(line, command, replicas, wait_ms, early, meanwhile)
    except NoScriptError:
        await line.call("SCRIPT", "LOAD", script.text)
        return await call_acked(line, command, replicas, wait_ms, early)


def fire(line: Line, script: Script, keys: Sequence[Any], args: Sequence[Any]) -> bool:
    """Run `script` without awaiting its reply, on the line as it is (False: no connection now,
    nothing sent). Its bytes leave before anything the caller writes to a client after this turn.
    A failure is logged; a script Redis has forgotten is sent again whole (`EVAL`)."""
    wire = line.connected()
    if wire is None:
        return False
    tail = (len(keys), *keys, *args)

    def done(future: asyncio.Future[Any]) -> None:
        if future.cancelled():
            return
        error = future.exception() or future.result()
        if isinstance(error, ResponseError) and str(error).startswith("NOSCRIPT"):
            again = line.connected()
            if again is not None:
                again.send(("EVAL", script.text, *tail)).add_done_callback(_logged)
        elif isinstance(error, Exception):
            log.warning("a script sent without waiting failed: %s", error)

    wire.send(("EVALSHA", script.sha, *tail)).add_done_callback(done)
    return True


def _logged(future: asyncio.Future[Any]) -> None:
    if future.cancelled():
        return
    error = future.exception() or future.result()
    if isinstance(error, Exception):
        log.warning("a script sent without waiting failed: %s", error)
