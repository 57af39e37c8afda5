"""The Redis stores' scripts and their one runner: on the store's own pipelined line, else
through redis-py; and the errors of a store call as the application's."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Coroutine
from importlib import resources
from typing import Any, NamedTuple, ParamSpec, TypeVar

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas.adapters import acks
from kronikas.adapters.line_errors import maybe_run
from kronikas.adapters.script_line import Early, LineScript, ScriptLine
from kronikas.application.errors import OutcomeUnknown, Unavailable

log = logging.getLogger("kronikas.store")

P = ParamSpec("P")
R = TypeVar("R")


def translated(
    method: Callable[P, Coroutine[Any, Any, R]],
) -> Callable[P, Coroutine[Any, Any, R]]:
    """A store method whose lost connection or time-out is the application's `Unavailable`, as
    is a write Redis refuses for memory (it refuses a script's first write, so nothing was
    changed). An append says `OutcomeUnknown` itself when it may have been applied."""

    @functools.wraps(method)
    async def translated(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await method(*args, **kwargs)
        except (RedisConnectionError, RedisTimeoutError) as exc:
            log.warning("store unavailable: %s", type(exc).__name__)
            raise Unavailable("The store does not answer; nothing was changed.") from exc
        except ResponseError as exc:
            if not out_of_memory(exc):
                raise
            log.warning("store out of memory: a write was refused")
            raise Unavailable("The store is full; nothing was changed.") from exc

    return translated


def out_of_memory(error: BaseException) -> bool:
    """Whether Redis refused a write for memory (`maxmemory` reached, `noeviction`): as a command's
    error (`OOM …`, redis-py's `OutOfMemoryError`) or as a script's (Redis 6 wraps it: `ERR Error
    running script … OOM command not allowed when used memory …`)."""
    return isinstance(error, OutOfMemoryError) or (
        isinstance(error, ResponseError) and "command not allowed when used memory" in str(error)
    )


def unknown(exc: BaseException) -> OutcomeUnknown:
    log.warning("an append's outcome is unknown: %s", type(exc).__name__)
    return OutcomeUnknown(
        "The store did not answer in time; the command may or may not have been applied. "
        "Retry with the same Idempotency-Key, or read the table."
    )


def game_keys(game_id: str) -> dict[str, str]:
    """Every key of a game shares the Redis Cluster hash tag `{<game id>}`."""
    log, meta, auth, _ = table_keys(game_id)
    return {"log": log, "meta": meta, "auth": auth}


class TableKeys(NamedTuple):
    """A table's keys (`game_keys`) and their hash tag's prefix (`kr:{<game id>}`)."""

    log: str
    meta: str
    auth: str
    tag: str


@functools.lru_cache(maxsize=4096)
def table_keys(game_id: str) -> TableKeys:
    """A table's keys, made once a table for the appends and reads that ask for them."""
    tag = f"kr:{{{game_id}}}"
    return TableKeys(f"{tag}:log", f"{tag}:meta", f"{tag}:auth", tag)


def now_ms() -> int:
    return int(time.time() * 1000)


def text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class Scripts:
    """The scripts of `lua/` on one Redis server or cluster, and how they are run: on the
    stores' own pipelined connection (adapters/script_line.py), one a process, shared by every
    store on it; on a cluster, TLS or a Unix socket, through redis-py.

    With `replicas` (`WRITE_REPLICAS` > 0), an acknowledged call (`call_acked`) is followed by
    `WAIT replicas wait_ms` on the connection that made it (adapters/acks.py)."""

    def __init__(self, redis: Redis | RedisCluster, replicas: int = 0, wait_ms: int = 1000) -> None:
        self.redis = redis
        self.cluster = isinstance(redis, RedisCluster)
        if replicas and self.cluster:
            raise ValueError("WRITE_REPLICAS is for one primary with replicas, not a cluster")
        self.replicas, self.wait_ms = replicas, wait_ms
        self._fired: set[asyncio.Task[Any]] = set()
        """On a cluster the lobby's keys and a table's are on different slots: no one script."""
        self._line = ScriptLine.of(redis)
        """The scripts' own line; None where they go through redis-py."""
        if replicas and self._line is not None and wait_ms >= self._line.timeout_s * 1000:
            log.warning("WRITE_WAIT_MS is not below REDIS_TIMEOUT_MS: calls behind a WAIT time out")
        self._line_scripts: dict[str, LineScript] = {}
        """Each script as the line runs it, by its SHA1."""

    def script(self, name: str) -> AsyncScript:
        """A script of `lua/`, for redis-py and for the line alike."""
        source = resources.files("kronikas.adapters").joinpath("lua", name).read_text()
        line_script = LineScript(source)
        self._line_scripts[line_script.sha] = line_script
        return self.redis.register_script(source)

    async def run(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Run a script; after a lost connection, try once more on a new one.

        For reads and the lobby's scripts, which are safe to run twice: a connection that
        outlived a Redis restart fails on its next use. An append makes its own second try
        (`RedisEventLog.append`), which knows its own events should the first have been applied
        after all.
        """
        try:
            return await self.call(script, keys, args)
        except RedisConnectionError as exc:
            await self.reconnect(exc)
            return await self.call(script, keys, args)

    async def call(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        early: Early | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> Any:
        """Run a script once: on the stores' own line, `early` sees the reply as soon as it is
        read, and `meanwhile` is called once the call is on its way (adapters/script_line.py);
        through redis-py, `meanwhile` is called before it is sent."""
        if self._line is not None:
            known = self._line_scripts[script.sha]
            return await self._line.evalsha(known, keys, args, early, meanwhile)
        if meanwhile is not None:
            meanwhile()
        return await script(keys=keys, args=args)

    async def call_acked(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        early: Early | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> tuple[Any, int]:
        """A script run once (as `Scripts.call` runs it), followed by `WAIT` on the same
        connection: the reply, and how many replicas confirmed it. `early` sees the reply once
        `replicas` did, before the caller resumes (on the line, as the `WAIT`'s reply is read);
        through redis-py the two go in one pipeline."""
        if self._line is not None:
            known = self._line_scripts[script.sha]
            return await acks.evalsha_acked(
                self._line, known, keys, args, self.replicas, self.wait_ms, early, meanwhile
            )
        if meanwhile is not None:
            meanwhile()
        async with self.redis.pipeline(transaction=False) as pipe:
            await script(keys=keys, args=args, client=pipe)  # type: ignore[arg-type]
            pipe.execute_command("WAIT", self.replicas, self.wait_ms)
            reply, count = await pipe.execute()
        if early is not None and int(count) >= self.replicas:
            early(reply)
        return reply, int(count)

    async def acknowledge(self, probe: str) -> int:
        """How many replicas have every write made so far (by anyone): a write of nothing (a
        PUBLISH on a channel nobody hears, `probe` its message), then `WAIT` on its connection."""
        command = ("PUBLISH", "kr:acknowledged", probe)
        if self._line is not None:
            _, count = await acks.call_acked(self._line, command, self.replicas, self.wait_ms)
            return count
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.execute_command(*command)
            pipe.execute_command("WAIT", self.replicas, self.wait_ms)
            _, count = await pipe.execute()
        return int(count)

    def fire(self, script: AsyncScript, keys: list[str], args: list[Any]) -> None:
        """Run a script without awaiting it: on the line, sent before the caller's next write
        elsewhere; through redis-py, in a task (a failure is logged)."""
        line = self._line
        if line is not None and acks.fire(line, self._line_scripts[script.sha], keys, args):
            return
        task = asyncio.ensure_future(self.run(script, keys, args))
        self._fired.add(task)
        task.add_done_callback(self._fire_done)

    def _fire_done(self, task: asyncio.Task[Any]) -> None:
        self._fired.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.warning("a script sent without waiting failed: %s", type(error).__name__)

    def maybe_run(self, error: BaseException) -> bool:
        """Whether a failed script call may have been run all the same: the line tells (a reply
        lost or late); redis-py does not, and only a failure to connect is known to be before."""
        if self._line is not None:
            return maybe_run(error)
        if isinstance(error, ResponseError):
            return False
        message = str(error)
        return "connecting" not in message and "No connection available" not in message

    async def reconnect(self, error: BaseException) -> None:
        """Before a second try through redis-py: its pool's connections may have outlived a
        restart (the line connects again by itself)."""
        if self._line is None and isinstance(error, RedisConnectionError):
            pool = getattr(self.redis, "connection_pool", None)
            if pool is not None:
                await pool.disconnect()

    @property
    def on_line(self) -> bool:
        """Whether the scripts run on the stores' own line."""
        return self._line is not None

    async def aclose(self) -> None:
        """Close the scripts' own connection (the redis-py client is its owner's to close)."""
        if self._line is not None:
            await self._line.aclose()
