"""The event store on Redis: one list per game, appended by one Lua script, all keys in one slot."""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from importlib import resources
from typing import Any, ParamSpec, TypeVar

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import OutOfMemoryError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas.adapters.script_line import Early, LineScript, ScriptLine, maybe_run
from kronikas.application.errors import OutcomeUnknown, Unavailable
from kronikas.application.ports import AppendResult, ReadResult, Summary

log = logging.getLogger("kronikas.store")

NOTIFY_PREFIX = "kr:notify:"
LOBBY_TAG = "kr:{lobby}"
"""Every lobby key shares this hash tag: one slot, so one script can update several indexes."""
LOBBY_KEY = f"{LOBBY_TAG}:all"
"""The index of every listed table; the other indexes hold a subset of it, with the same scores."""
LOBBY_INDEXES = f"{LOBBY_TAG}:indexes"
"""The set of the names of every index, which dropping an expired table clears it from."""
OLD_LOBBY_KEY = "kr:lobby"
"""The one sorted set (id -> created_ms) of older versions; the first lobby read adopts it."""
DEADLINES = "kr:{clock}:due"
"""Every table's earliest deadline (sorted set: table id -> epoch ms), in one slot of its own."""
STATUSES = ("open", "playing", "finished")
"""A table's statuses, in the only order it goes through them."""
_TIE = 1024
"""A score is created_ms * 1024 + the table's rank among those listed in that millisecond."""
_SWEEP = 4
"""Entries of the index of all tables that each registration checks for expiry, oldest first."""


P = ParamSpec("P")
R = TypeVar("R")


def _translated(
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


def _unknown(exc: BaseException) -> OutcomeUnknown:
    log.warning("an append's outcome is unknown: %s", type(exc).__name__)
    return OutcomeUnknown(
        "The store did not answer in time; the command may or may not have been applied. "
        "Retry with the same Idempotency-Key, or read the table."
    )


def _lua(name: str) -> str:
    return resources.files("kronikas.adapters").joinpath("lua", name).read_text()


def _replay_key(game_id: str, key: str) -> str:
    """Where a replayed idempotency key's answer is kept: on the table's slot."""
    return f"{game_keys(game_id)['log'].rsplit(':', 1)[0]}:replay:{key}"


def game_keys(game_id: str) -> dict[str, str]:
    """Every key of a game shares the Redis Cluster hash tag `{<game id>}`."""
    tag = f"kr:{{{game_id}}}"
    return {
        "log": f"{tag}:log",
        "meta": f"{tag}:meta",
        "auth": f"{tag}:auth",
    }


def lobby_index(kind: str | None = None, status: str | None = None) -> str:
    """The sorted set of the tables of `kind` (any when None) in `status` (any when None).

    Its members are table ids; its scores order them by creation, newest highest.
    """
    if kind is None and status is None:
        return LOBBY_KEY
    key = LOBBY_TAG
    if kind is not None:
        key += f":kind:{kind}"
    if status is not None:
        key += f":status:{status}"
    return key


def lobby_indexes(kind: str, status: str) -> list[str]:
    """The indexes beside the index of all tables that list a table of `kind` in `status`."""
    return [lobby_index(kind), lobby_index(None, status), lobby_index(kind, status)]


def notify_channel(game_id: str) -> str:
    """The pub/sub channel on which each append publishes the game's new version."""
    return f"{NOTIFY_PREFIX}{game_id}"


def _now_ms() -> int:
    return int(time.time() * 1000)


def _when_stored(stored: Callable[[], None], reply: Any) -> None:
    """An append's reply, as soon as the line reads it: `stored` when it says the append was
    made (append.lua). A reply is read once, so `stored` is called at most once."""
    if type(reply) is int or (type(reply) is list and reply and reply[0] == b"ok"):
        stored()


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


class SummaryRecord(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    status: str
    players: int
    created_ms: int
    seeded: bool = False
    """Stored after the fields older versions wrote: their entries read as not seeded, and
    they read this one's first four fields (msgspec ignores an array's extra items)."""


class RedisEventStore:
    """`EventStore` on one Redis server or a Redis Cluster."""

    def __init__(self, redis: Redis | RedisCluster, rate_per_s: int = 0, burst: int = 1) -> None:
        self.redis = redis
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._cluster = isinstance(redis, RedisCluster)
        """On a cluster the lobby's keys and a table's are on different slots: no one script."""
        self._line = ScriptLine.of(redis)
        """The scripts' own pipelined connection (adapters/script_line.py); None on a cluster,
        TLS or a Unix socket, where they go through redis-py."""
        self._line_scripts: dict[str, LineScript] = {}
        """Each script as the line runs it, by its SHA1."""
        self._append = self._script("append.lua")
        self._read = self._script("read.lua")
        self._bucket = self._script("bucket.lua")
        self._lobby_add = self._script("lobby_add.lua")
        self._lobby_move = self._script("lobby_move.lua")
        self._lobby_drop = self._script("lobby_drop.lua")
        self._due = self._script("due.lua")
        self._settle = self._script("settle.lua")
        self._sweep_at = 0
        self._adopted = False
        self._adopting = asyncio.Lock()

    @_translated
    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        """The version, the token's role and up to `limit` events after `after` (read.lua: the
        role is looked up first, and only a known token's bucket is charged, `cost`)."""
        keys = game_keys(game_id)
        tag = keys["log"].rsplit(":", 1)[0]
        reply: list[Any] = await self._run(
            self._read,
            keys=[keys["log"], keys["auth"], f"{tag}:rate:{token_hash}"],
            args=[
                after,
                token_hash,
                _now_ms(),
                self.rate_per_s if rate else 0,
                self.burst,
                limit,
                cost,
            ],
        )
        role = reply[1]
        return ReadResult(
            version=int(reply[0]),
            role=role.decode() if isinstance(role, bytes) else str(role),
            retry_after_ms=int(reply[2]),
            records=list(reply[3:]),
        )

    @_translated
    async def append(
        self,
        game_id: str,
        expected: int,
        records: Sequence[bytes],
        *,
        ttl_s: int,
        token_hash: str = "",
        auth: Sequence[tuple[str, str]] = (),
        summary: Summary,
        stored: Callable[[], None] | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> AppendResult:
        keys = game_keys(game_id)
        tag = keys["log"].rsplit(":", 1)[0]
        rate_on = bool(token_hash) and self.rate_per_s > 0
        record = msgspec.json.encode(
            SummaryRecord(
                summary.kind, summary.status, summary.players, summary.created_ms, summary.seeded
            )
        )
        script_keys = [keys["log"], keys["meta"], keys["auth"], f"{tag}:rate:{token_hash}"]
        # A table is listed in the lobby by its first append, in the same script on one server;
        # on a cluster the lobby's slot is another, and `_list_new` follows the append.
        list_here = expected == 0 and not self._cluster
        if list_here:
            script_keys += [LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(summary.kind, summary.status)]
        args: list[Any] = [
            expected,
            ttl_s,
            record,
            _now_ms(),
            self.rate_per_s if rate_on else 0,
            self.burst,
            notify_channel(game_id),
            summary.status,
            game_id if list_here else "",
            summary.created_ms if list_here else "",
            len(auth),
        ]
        for token, role in auth:
            args += [token, role]
        args += list(records)
        early = None if stored is None else functools.partial(_when_stored, stored)
        # A first try that may have been applied (its reply lost or late) is followed by a
        # second, whose answer tells: made now, or a conflict whose events after `expected`
        # begin with these records (unique to this append: a nonce, or a new table's random id),
        # made by the first. A move's time-out is not tried again (it may still be running):
        # its caller hears that the outcome is unknown. A new table's is: nobody else could
        # retry it (the host token is only in its answer).
        maybe_applied = False
        try:
            reply: int | list[Any] = await self._call(
                self._append, script_keys, args, early, meanwhile
            )
        except (RedisConnectionError, RedisTimeoutError) as exc:
            maybe_applied = self._maybe_run(exc)
            if maybe_applied and isinstance(exc, RedisTimeoutError) and expected != 0:
                raise _unknown(exc) from exc
            await self._reconnect(exc)
            try:
                reply = await self._call(self._append, script_keys, args, early)
            except (RedisConnectionError, RedisTimeoutError, ResponseError) as again:
                if maybe_applied or self._maybe_run(again):
                    raise _unknown(again) from again
                raise
        if isinstance(reply, int):  # made (append.lua)
            result = AppendResult("ok", version=reply)
        else:
            outcome = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
            if outcome == "ok":
                if len(reply) > 2:
                    await self._relist(game_id, summary, _text(reply[2]))
                result = AppendResult("ok", version=int(reply[1]))
            elif outcome == "conflict":
                after = list(reply[2:])
                if maybe_applied and records and after[: len(records)] == list(records):
                    return AppendResult("ok", version=expected + len(records))  # ours, listed
                return AppendResult("conflict", version=int(reply[1]), records=after)
            else:
                return AppendResult("limited", retry_after_ms=int(reply[1]))
        if expected == 0 and not list_here:
            await self._list_new(game_id, summary)
        return result

    async def _list_new(self, game_id: str, summary: Summary) -> None:
        """On a cluster: list a table its first append made; should that fail, remove the table
        (nobody was given its host token) and fail."""
        try:
            await self._run(
                self._lobby_add,
                keys=[LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(summary.kind, summary.status)],
                args=[game_id, summary.created_ms],
            )
            await self.redis.hset(game_keys(game_id)["meta"], "listed", summary.status)
        except RedisError as exc:
            try:
                await self.redis.delete(*game_keys(game_id).values())
            except RedisError:
                log.warning("a new table could be neither listed nor removed: it lapses unseen")
                raise _unknown(exc) from exc
            raise

    def _maybe_run(self, error: BaseException) -> bool:
        """Whether a failed script call may have been run all the same: the line tells (a reply
        lost or late); redis-py does not, and only a failure to connect is known to be before."""
        if self._line is not None:
            return maybe_run(error)
        if isinstance(error, ResponseError):
            return False
        text = str(error)
        return "connecting" not in text and "No connection available" not in text

    async def _reconnect(self, error: BaseException) -> None:
        """Before a second try through redis-py: its pool's connections may have outlived a
        restart (the line connects again by itself)."""
        if self._line is None and isinstance(error, RedisConnectionError):
            pool = getattr(self.redis, "connection_pool", None)
            if pool is not None:
                await pool.disconnect()

    def _script(self, name: str) -> AsyncScript:
        """A script of `lua/`, for redis-py and for the line alike."""
        text = _lua(name)
        line_script = LineScript(text)
        self._line_scripts[line_script.sha] = line_script
        return self.redis.register_script(text)

    async def _run(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        early: Early | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> Any:
        """Run a script; after a lost connection, try once more on a new one. On the store's
        own line, `early` sees the reply as soon as it is read, and `meanwhile` is called once
        the call is on its way (adapters/script_line.py); through redis-py, before it is sent.

        For reads and the lobby's scripts, which are safe to run twice: a connection that
        outlived a Redis restart fails on its next use. An append makes its own second try
        (`append`), which knows its own events should the first have been applied after all.
        """
        try:
            return await self._call(script, keys, args, early, meanwhile)
        except RedisConnectionError as exc:
            await self._reconnect(exc)
            return await self._call(script, keys, args, early)

    async def _call(
        self,
        script: AsyncScript,
        keys: list[str],
        args: list[Any],
        early: Early | None = None,
        meanwhile: Callable[[], None] | None = None,
    ) -> Any:
        """Run a script once (`_run` says how)."""
        if self._line is not None:
            known = self._line_scripts[script.sha]
            return await self._line.evalsha(known, keys, args, early, meanwhile)
        if meanwhile is not None:
            meanwhile()
        return await script(keys=keys, args=args)

    async def aclose(self) -> None:
        """Close the scripts' own connection (the redis-py client is its owner's to close)."""
        if self._line is not None:
            await self._line.aclose()

    @_translated
    async def arm(self, game_id: str, due_ms: int) -> None:
        """Wake the table at `due_ms` at the latest (an earlier deadline stays)."""
        await self.redis.zadd(DEADLINES, {game_id: due_ms}, lt=True)

    @_translated
    async def due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[int, list[str]]:
        """Lease up to `limit` due tables until `now_ms + lease_ms`; and that lease's end."""
        reply = await self._run(self._due, keys=[DEADLINES], args=[now_ms, lease_ms, limit])
        return int(reply[0]), [_text(r) for r in reply[1:]]

    @_translated
    async def settle(self, game_id: str, lease: int, due_ms: int | None) -> None:
        """Give a leased table its next deadline (an earlier one armed meanwhile stays)."""
        args = [game_id, lease, "" if due_ms is None else due_ms]
        await self._run(self._settle, keys=[DEADLINES], args=args)

    @_translated
    async def take(self, key: str, rate_per_s: float, burst: int, n: int = 1) -> int:
        """Take `n` from the bucket `key` (at most its burst at once): 0 when taken, else ms to
        wait.

        A bucket Redis cannot write for memory allows the request: reads go on while Redis is
        full, and a change is refused by its own write (`unavailable`) all the same."""
        try:
            wait = await self._run(
                self._bucket, keys=[f"kr:bucket:{key}"], args=[_now_ms(), rate_per_s, burst, n]
            )
        except ResponseError as exc:
            if not out_of_memory(exc):
                raise
            log.warning("store out of memory: a rate bucket was not charged")
            return 0
        return int(wait)

    @_translated
    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        answer = await self.redis.get(_replay_key(game_id, key))
        return answer if isinstance(answer, bytes) else None

    @_translated
    async def keep_answer(self, game_id: str, key: str, answer: bytes, ttl_s: int) -> None:
        """(A Redis full for memory keeps nothing: the next retry makes the answer again.)"""
        try:
            await self.redis.set(_replay_key(game_id, key), answer, ex=max(1, ttl_s))
        except ResponseError as exc:
            if not out_of_memory(exc):
                raise
            log.warning("store out of memory: a replayed answer was not kept")

    # -- the lobby ---------------------------------------------------------------------------------
    #
    # One sorted set per filter (all tables; a kind; a status; a kind and a status), all on one
    # Redis Cluster slot (`LOBBY_TAG`) and scored by creation, so a page is a range of one of them.
    # A table's own keys are on its own slot, so its append cannot move it between indexes in the
    # same script: the append reports when the indexes were last told another status than the new
    # summary's (the meta's `listed` field), and `_relist` moves the table and records the status.
    # That can be lost (a process that dies in between), so a read still checks every entry it
    # returns against the table's meta: it skips and repairs an entry of another status and drops
    # tables that expired. A move enters the new indexes before it leaves the old ones; a lost move
    # is made by the table's next append (`listed` still differs), or by a read that meets it.

    async def register(self, game_id: str, created_ms: int) -> None:
        """List a table its first append did not list (every table is listed by it now: one
        an older version made); check a few of the oldest entries for expiry. Best effort: a
        new table's answer must not be lost to the sweep."""
        try:
            await self._register(game_id, created_ms)
        except RedisError:
            log.warning("could not register a table", extra={"game_id": game_id}, exc_info=True)

    async def _register(self, game_id: str, created_ms: int) -> None:
        meta = game_keys(game_id)["meta"]
        pipe = self.redis.pipeline(transaction=False)
        pipe.hmget(meta, ["summary", "listed"])
        pipe.zrange(LOBBY_KEY, self._sweep_at, self._sweep_at + _SWEEP - 1)
        (raw, listed), oldest = await pipe.execute()
        if raw is None:
            return  # expired already
        pipe = self.redis.pipeline(transaction=False)
        if listed is None:
            rec = msgspec.json.decode(raw, type=SummaryRecord)
            await self._run(
                self._lobby_add,
                keys=[LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(rec.kind, rec.status)],
                args=[game_id, created_ms],
            )
            pipe.hset(meta, "listed", rec.status)
        ids = [_text(i) for i in oldest]
        for other in ids:
            pipe.exists(game_keys(other)["meta"])
        alive = (await pipe.execute())[-len(ids) :] if ids else []
        expired = [i for i, a in zip(ids, alive, strict=True) if not a]
        self._sweep_at = self._sweep_at + len(ids) - len(expired) if len(ids) == _SWEEP else 0
        if expired:
            await self._drop(expired)

    @_translated
    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables, newest first, filtered; and whether more follow.

        A page reads `limit` + 1 entries of the filter's index from `offset` (which counts its
        entries), and more only to replace stale ones, which it repairs.
        """
        await self._adopt_old_lobby()
        index = lobby_index(kind, status)
        found: list[Summary] = []
        seen: set[str] = set()
        expired: list[str] = []
        moves: dict[str, tuple[str, str, set[str]]] = {}
        start, count = offset, limit + 1
        while len(found) <= limit:
            got: list[Any] = await self.redis.zrevrange(index, start, start + count - 1)
            ids = [_text(i) for i in got]
            start += len(ids)
            for game_id, entry in zip(ids, await self._entries(ids), strict=True):
                if entry is None:
                    expired.append(game_id)
                    continue
                summary, listed = entry
                leave = {s for s in (listed, status) if s and s != summary.status}
                if leave:
                    moves[game_id] = (summary.kind, summary.status, leave)
                if (status and summary.status != status) or (kind and summary.kind != kind):
                    continue
                if game_id not in seen:
                    seen.add(game_id)
                    found.append(summary)
            if len(ids) < count:
                break
            count = min(max(2 * (limit + 1 - len(found)), 32), 1000)
        await self._repair(expired, moves)
        return found[:limit], len(found) > limit

    async def _entries(self, ids: list[str]) -> list[tuple[Summary, str | None] | None]:
        """Each table's summary and the status the indexes were last told; None once expired."""
        if not ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.hmget(game_keys(game_id)["meta"], ["summary", "version", "listed"])
        replies: list[list[bytes | None]] = await pipe.execute()
        out: list[tuple[Summary, str | None] | None] = []
        for game_id, (raw, version, listed) in zip(ids, replies, strict=True):
            if raw is None:
                out.append(None)
                continue
            rec = msgspec.json.decode(raw, type=SummaryRecord)
            summary = Summary(
                game_id,
                rec.kind,
                rec.status,
                rec.players,
                rec.created_ms,
                int(version or 0),
                rec.seeded,
            )
            out.append((summary, listed.decode() if listed else None))
        return out

    async def _relist(self, game_id: str, summary: Summary, listed: str) -> None:
        """Move a table whose status changed into its new indexes, then record that status.

        `listed` is the status the indexes were told ("" when never told: a table an older version
        listed). Best effort: the append stands; the next append or a read makes a lost move.
        """
        leave = [listed] if listed else [s for s in STATUSES if s != summary.status]
        try:
            await self._move(game_id, summary.kind, summary.status, leave)
            await self.redis.hset(game_keys(game_id)["meta"], "listed", summary.status)
        except RedisError:
            log.warning("could not move a table between lobby indexes", extra={"game_id": game_id})

    async def _move(self, game_id: str, kind: str, status: str, leave: Iterable[str]) -> None:
        keys = [LOBBY_KEY, LOBBY_INDEXES, lobby_index(None, status), lobby_index(kind, status)]
        for old in leave:
            if old != status:
                keys += [lobby_index(None, old), lobby_index(kind, old)]
        await self._run(self._lobby_move, keys=keys, args=[game_id])

    async def _drop(self, ids: Sequence[str]) -> None:
        """Remove expired tables from every index."""
        names = await self.redis.smembers(LOBBY_INDEXES)
        keys = sorted({LOBBY_KEY, *(_text(n) for n in names)})
        for at in range(0, len(ids), 1000):  # Lua unpacks a few thousand values at most
            await self._run(self._lobby_drop, keys=keys, args=list(ids[at : at + 1000]))

    async def _repair(
        self, expired: list[str], moves: dict[str, tuple[str, str, set[str]]]
    ) -> None:
        """Drop the expired tables a read met, and move those it met in another status's index."""
        try:
            if expired:
                await self._drop(expired)
            for game_id, (kind, status, leave) in moves.items():
                await self._move(game_id, kind, status, leave)
        except RedisError:
            log.warning("could not repair the lobby indexes", exc_info=True)

    async def _adopt_old_lobby(self) -> None:
        """Once per process: list the tables that an older version listed in `OLD_LOBBY_KEY`.

        They keep their order (a score of created_ms * 1024, below the tables listed since in the
        same millisecond); expired ones are dropped. Tables an older process lists after this are
        adopted when a process starts again.
        """
        if self._adopted:
            return
        async with self._adopting:
            while not self._adopted:
                batch: list[Any] = await self.redis.zrange(OLD_LOBBY_KEY, 0, 499, withscores=True)
                if not batch:
                    self._adopted = True
                    break
                ids = [_text(member) for member, _ in batch]
                pipe = self.redis.pipeline(transaction=False)
                for (game_id, (_, score)), entry in zip(
                    zip(ids, batch, strict=True), await self._entries(ids), strict=True
                ):
                    if entry is not None:
                        list_in(pipe, game_id, entry[0].kind, entry[0].status, int(score) * _TIE)
                pipe.zrem(OLD_LOBBY_KEY, *ids)
                await pipe.execute()


def list_in(pipe: Any, game_id: str, kind: str, status: str, score: int) -> None:
    """Queue on a pipeline the commands that list a table in its indexes with `score`.

    For adopting an older version's lobby and for filling one in bulk (benchmarks/lobby.py); a new
    table is listed by `register`, which makes its score.
    """
    indexes = [LOBBY_KEY, *lobby_indexes(kind, status)]
    for index in indexes:
        pipe.zadd(index, {game_id: score})
    pipe.sadd(LOBBY_INDEXES, *indexes)
