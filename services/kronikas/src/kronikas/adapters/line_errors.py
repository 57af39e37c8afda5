"""What a call on the service's own Redis line (adapters/script_line.py) fails with, and
whether Redis may have run it all the same."""

from __future__ import annotations

from typing import Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas.adapters.sentinel import a_replica, not_primary


class ReplyLost(RedisConnectionError):
    """The call was written, then the connection was lost before its reply: Redis may have run
    it."""


class ReplyLate(RedisTimeoutError):
    """The call was written and no reply came within the time-out: Redis may have run it, or may
    yet; the connection stays, and the reply is dropped when it comes."""


class Refused(RedisConnectionError):
    """The server refused the call before running it: it is no writable primary (a replica, a
    primary cut off from its replicas, one loading its data)."""


def maybe_run(error: BaseException) -> bool:
    """Whether a failed call of the line may have been run by Redis all the same."""
    return isinstance(error, (ReplyLost, ReplyLate))


class _Following(Protocol):
    def recheck(self) -> None: ...


class LineConnection(Protocol):
    """The line's connection, as far as an error reply concerns it."""

    retired: bool

    @property
    def line(self) -> _Following: ...

    def retire(self) -> None: ...


def error_of(wire: LineConnection, reply: ResponseError) -> Exception:
    """What a call answered with an error reply raises: `NoScriptError` (load it, call again),
    `Refused` when the server cannot write now (nothing was run) — a replica's connection is
    retired, so that the next call asks where the primary is; for a primary short of replicas
    the line asks in the background (once a second at most), and moves if it moved — else the
    reply itself."""
    text = str(reply)
    if text.startswith("NOSCRIPT"):
        return NoScriptError(text)
    if not_primary(text):
        if not a_replica(text):
            wire.line.recheck()
        elif not wire.retired:
            wire.retire()
        refused = Refused(f"Redis refused the call, which was not run: {text}")
        refused.__cause__ = reply
        return refused
    return reply
