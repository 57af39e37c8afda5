"""The store on Redis: one list per game, appended by one Lua script, all keys in one slot;
beside it the rate buckets, the answers kept for replayed keys and the tables' deadlines, each
a port of its own (application/ports.py), and the lobby (adapters/lobby.py). `RedisStores` is
all of them on one Redis, sharing one runner of their scripts (adapters/scripts.py)."""

from __future__ import annotations

import functools
import logging
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas import metrics
from kronikas.adapters.lobby import (
    LOBBY_INDEXES,
    LOBBY_KEY,
    RedisLobby,
    SummaryRecord,
    lobby_indexes,
)
from kronikas.adapters.scripts import (
    Scripts,
    TableKeys,
    game_keys,
    now_ms,
    out_of_memory,
    table_keys,
    text,
    translated,
    unknown,
)
from kronikas.application.errors import OutcomeUnknown, Unavailable
from kronikas.application.ports import (
    AppendProgress,
    AppendRequest,
    AppendResult,
    ReadResult,
    Stores,
)

log = logging.getLogger("kronikas.store")

NOTIFY_PREFIX = "kr:notify:"
DEADLINES = "kr:{clock}:due"
"""Every table's earliest deadline (sorted set: table id -> epoch ms), in one slot of its own."""


def _replay_key(game_id: str, key: str) -> str:
    """Where a replayed idempotency key's answer is kept: on the table's slot."""
    return f"{table_keys(game_id).tag}:replay:{key}"


def notify_channel(game_id: str) -> str:
    """The pub/sub channel on which each append publishes the game's new version."""
    return f"{NOTIFY_PREFIX}{game_id}"


def _when_stored(progress: AppendProgress, reply: Any) -> None:
    """An append's reply, as soon as the line reads it: `stored` when it says the append was
    made (append.lua). A reply is read once, so `stored` is called at most once."""
    if type(reply) is int or (type(reply) is list and reply and reply[0] == b"ok"):
        progress.stored()


@functools.lru_cache(maxsize=1024)
def _summary_json(kind: str, status: str, players: int, created_ms: int, seeded: bool) -> bytes:
    """A table's lobby entry as the append stores it (`SummaryRecord`), made once for the
    appends that do not change it (most: a move changes neither status nor players)."""
    return msgspec.json.encode(SummaryRecord(kind, status, players, created_ms, seeded))


def _made(reply: Any) -> bool:
    """Whether append.lua's reply says the append was made."""
    return type(reply) is int or (type(reply) is list and bool(reply) and reply[0] == b"ok")


def _version(reply: Any) -> int:
    """The version after an append made (`_made`)."""
    return reply if type(reply) is int else int(reply[1])


class RedisEventLog:
    """`EventLog` on one Redis server or a Redis Cluster: each token's bucket at a table is
    charged `rate_per_s`, `burst` (0: no limit) in the read's or the append's own script.

    With `WRITE_REPLICAS` (the scripts' `replicas`), an append is made only once that many
    replicas have it: `WAIT` follows it on its connection; then ack.lua raises the meta's
    `acked` to its version and publishes it (the append's script does not), and only then are
    this process's followers told. Fewer in time: `OutcomeUnknown`. A read shows no version past
    `acked` unless a `WAIT` confirms the rest (an unacknowledged tail: its writer's `WAIT` is
    under way, failed, or its writer died), which then raises `acked` for it."""

    def __init__(
        self, scripts: Scripts, lobby: RedisLobby, rate_per_s: float = 0, burst: int = 1
    ) -> None:
        self.scripts = scripts
        self.lobby = lobby
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._append = scripts.script("append.lua")
        self._read = scripts.script("read.lua")
        self._ack = scripts.script("ack.lua")
        self.replicas = scripts.replicas

    @translated
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
        role is looked up first, and only a known token's bucket is charged, `cost`). A read
        cut at `acked` says how many events the log holds (`stored`)."""
        keys = table_keys(game_id)
        read_keys = [keys.log, keys.auth, f"{keys.tag}:rate:{token_hash}"]
        if self.replicas:
            read_keys.append(keys.meta)
        reply: list[Any] = await self.scripts.run(
            self._read,
            keys=read_keys,
            args=[
                after,
                token_hash,
                now_ms(),
                self.rate_per_s if rate else 0,
                self.burst,
                limit,
                cost,
            ],
        )
        role = reply[1]
        version, records = int(reply[0]), list(reply[3:])
        stored: int | None = None  # the log's length, when the read stops short of it
        if self.replicas and len(reply) > 3:
            acked, records = int(reply[3]), records[1:]
            if acked < version and not await self._acknowledged(game_id, version):
                stored, version, records = version, acked, records[: max(0, acked - after)]
                if version == 0:
                    raise Unavailable("The store's replicas do not confirm this table yet.")
        return ReadResult(
            version=version,
            role=role.decode() if isinstance(role, bytes) else str(role),
            retry_after_ms=int(reply[2]),
            records=records,
            stored=stored,
        )

    async def _acknowledged(self, game_id: str, version: int) -> bool:
        """Whether the replicas have the table's log up to `version` (a `WAIT` after a write of
        nothing covers every earlier write); if so `acked` is raised to it, and its followers
        elsewhere told the version (they read what they missed)."""
        if await self.scripts.acknowledge(game_id) < self.replicas:
            metrics.replica_shortfall()
            return False
        self.scripts.fire(
            self._ack, [table_keys(game_id).meta], [version, notify_channel(game_id), version]
        )
        return True

    @translated
    async def append(self, request: AppendRequest) -> AppendResult:
        """Append the request's records or none (append.lua). A table is listed in the lobby by
        its first append, in the same script on one server; on a cluster the lobby's slot is
        another, and the lobby lists it once the append is made."""
        new = request.expected == 0
        list_here = new and not self.scripts.cluster
        script_keys, args = self._arguments(request, table_keys(request.game_id), list_here)
        reply, maybe_applied = await self._reply(request, script_keys, args)
        listed: str | None = None  # the status the lobby was told, when the append reports it
        if isinstance(reply, int):  # made (append.lua)
            result = AppendResult("ok", version=reply)
        elif (outcome := text(reply[0])) == "ok":
            if len(reply) > 2:
                listed = text(reply[2])
            result = AppendResult("ok", version=int(reply[1]))
        elif outcome == "conflict":
            return await self._conflict(request, reply, maybe_applied)
        else:
            return AppendResult("limited", retry_after_ms=int(reply[1]))
        if listed is not None or (new and not list_here):
            keys = game_keys(request.game_id)
            await self.lobby.appended(request.game_id, keys, request.summary, listed, new)
        return result

    async def _conflict(
        self, request: AppendRequest, reply: list[Any], maybe_applied: bool
    ) -> AppendResult:
        """A conflict's result: ours when a first try that may have been applied made it (with
        `WRITE_REPLICAS`, not known to be on the replicas: its outcome is unknown); else the
        events after `expected`, confirmed on the replicas first (with `WRITE_REPLICAS`)."""
        version, after, records = int(reply[1]), list(reply[2:]), list(request.records)
        if self.replicas:
            acked, after = int(after[0]), after[1:]
        if maybe_applied and records and after[: len(records)] == records:
            if self.replicas:
                raise unknown(RedisConnectionError("an append made on a second try"))
            return AppendResult("ok", version=request.expected + len(records))  # ours
        if (
            self.replicas
            and acked < version
            and not await self._acknowledged(request.game_id, version)
        ):
            raise Unavailable("The store's replicas do not confirm the table; try again.")
        return AppendResult("conflict", version=version, records=after)

    def _arguments(
        self, request: AppendRequest, keys: TableKeys, list_here: bool
    ) -> tuple[list[str], list[Any]]:
        """append.lua's keys and arguments for `request` at the table's `keys` (`table_keys`),
        listing the table when `list_here`."""
        game_id, summary, token_hash = request.game_id, request.summary, request.token_hash
        script_keys = [keys.log, keys.meta, keys.auth, f"{keys.tag}:rate:{token_hash}"]
        if list_here:
            script_keys += [LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(summary.kind, summary.status)]
        args: list[Any] = [
            request.expected,
            request.ttl_s,
            _summary_json(
                summary.kind, summary.status, summary.players, summary.created_ms, summary.seeded
            ),
            now_ms(),
            self.rate_per_s if token_hash and self.rate_per_s > 0 else 0,
            self.burst,
            "" if self.replicas else notify_channel(game_id),
            summary.status,
            game_id if list_here else "",
            summary.created_ms if list_here else "",
            len(request.auth),
        ]
        for token, role in request.auth:
            args += [token, role]
        args += list(request.records)
        return script_keys, args

    async def _reply(
        self, request: AppendRequest, keys: list[str], args: list[Any]
    ) -> tuple[int | list[Any], bool]:
        """append.lua's reply, and whether a first try may have been applied.

        A first try that may have been applied (its reply lost or late) is followed by a second,
        whose answer tells: made now, or a conflict whose events after `expected` begin with
        these records (unique to this append: a nonce, or a new table's random id), made by the
        first. A move's time-out is not tried again (it may still be running): its caller hears
        that the outcome is unknown. A new table's is: nobody else could retry it (the host
        token is only in its answer).
        """
        progress, scripts = request.progress, self.scripts
        early = None if progress is None else functools.partial(_when_stored, progress)
        meanwhile = None if progress is None else progress.meanwhile
        if self.replicas:
            early = functools.partial(self._when_acked, request, keys[1])
        try:
            if self.replicas:
                return await self._acked_reply(request, keys, args, early, meanwhile), False
            return await scripts.call(self._append, keys, args, early, meanwhile), False
        except (RedisConnectionError, RedisTimeoutError) as exc:
            maybe_applied = scripts.maybe_run(exc)
            if maybe_applied and isinstance(exc, RedisTimeoutError) and request.expected != 0:
                raise unknown(exc) from exc
            await scripts.reconnect(exc)
            try:
                if self.replicas:  # a conflict with ours, or made now
                    return await self._acked_reply(request, keys, args, early, None), maybe_applied
                return await scripts.call(self._append, keys, args, early), maybe_applied
            except (RedisConnectionError, RedisTimeoutError, ResponseError) as again:
                if maybe_applied or scripts.maybe_run(again):
                    raise unknown(again) from again
                raise

    async def _acked_reply(
        self,
        request: AppendRequest,
        keys: list[str],
        args: list[Any],
        early: Any,
        meanwhile: Any,
    ) -> Any:
        """append.lua's reply, followed by `WAIT`: an append made that fewer than `replicas`
        confirmed in time may be lost in a failover, or may not: its outcome is unknown."""
        scripts = self.scripts
        reply, count = await scripts.call_acked(self._append, keys, args, early, meanwhile)
        if _made(reply) and count < self.replicas:
            metrics.replica_shortfall()
            log.warning("an append reached %d of %d replicas in time", count, self.replicas)
            raise OutcomeUnknown(
                "The store's replicas did not confirm the command in time; it may or may not "
                "have been applied. Retry with the same Idempotency-Key, or read the table."
            )
        return reply

    def _when_acked(self, request: AppendRequest, meta: str, reply: Any) -> None:
        """An append the replicas have, as soon as the line reads their `WAIT`: `acked` raised
        and the notice published (ack.lua, sent before the answer leaves), then this process's
        followers told (`stored`)."""
        if not _made(reply):
            return
        version = _version(reply)
        notice = b"\n".join([str(version).encode(), *request.records])
        self.scripts.fire(self._ack, [meta], [version, notify_channel(request.game_id), notice])
        if request.progress is not None:
            request.progress.stored()


class RedisBuckets:
    """`RateBuckets` on Redis (bucket.lua): one key a bucket, forgotten once it has refilled."""

    def __init__(self, scripts: Scripts) -> None:
        self.scripts = scripts
        self._bucket = scripts.script("bucket.lua")

    @translated
    async def take(self, key: str, rate_per_s: float, burst: int, n: int = 1) -> int:
        """Take `n` from the bucket `key` (at most its burst at once): 0 when taken, else ms to
        wait.

        A bucket Redis cannot write for memory allows the request: reads go on while Redis is
        full, and a change is refused by its own write (`unavailable`) all the same."""
        try:
            wait = await self.scripts.run(
                self._bucket, keys=[f"kr:bucket:{key}"], args=[now_ms(), rate_per_s, burst, n]
            )
        except ResponseError as exc:
            if not out_of_memory(exc):
                raise
            log.warning("store out of memory: a rate bucket was not charged")
            return 0
        return int(wait)


class RedisAnswers:
    """`StoredAnswers` on Redis: a key on the table's slot for each replayed idempotency key."""

    def __init__(self, redis: Redis | RedisCluster) -> None:
        self.redis = redis

    @translated
    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        answer = await self.redis.get(_replay_key(game_id, key))
        return answer if isinstance(answer, bytes) else None

    @translated
    async def keep_answer(self, game_id: str, key: str, answer: bytes, ttl_s: int) -> None:
        """(A Redis full for memory keeps nothing: the next retry makes the answer again.)"""
        try:
            await self.redis.set(_replay_key(game_id, key), answer, ex=max(1, ttl_s))
        except ResponseError as exc:
            if not out_of_memory(exc):
                raise
            log.warning("store out of memory: a replayed answer was not kept")


class RedisDeadlines:
    """`Deadlines` on Redis: one sorted set (`DEADLINES`), leased by due.lua, settled by
    settle.lua."""

    def __init__(self, scripts: Scripts) -> None:
        self.scripts = scripts
        self.redis = scripts.redis
        self._due = scripts.script("due.lua")
        self._settle = scripts.script("settle.lua")

    @translated
    async def arm(self, game_id: str, due_ms: int) -> None:
        """Wake the table at `due_ms` at the latest (an earlier deadline stays)."""
        await self.redis.zadd(DEADLINES, {game_id: due_ms}, lt=True)

    @translated
    async def due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[int, list[str]]:
        """Lease up to `limit` due tables until `now_ms + lease_ms`; and that lease's end."""
        reply = await self.scripts.run(self._due, keys=[DEADLINES], args=[now_ms, lease_ms, limit])
        return int(reply[0]), [text(r) for r in reply[1:]]

    @translated
    async def settle(self, game_id: str, lease: int, due_ms: int | None) -> None:
        """Give a leased table its next deadline (an earlier one armed meanwhile stays)."""
        args = [game_id, lease, "" if due_ms is None else due_ms]
        await self.scripts.run(self._settle, keys=[DEADLINES], args=args)


class RedisStores(Stores):
    """Every store port on one Redis server or cluster, their scripts on one line; a token's
    reads and appends at a table limited to `rate_per_s`, `burst` (0: no limit); each append
    confirmed by `write_replicas` replicas within `write_wait_ms` (0: by the primary alone)."""

    log: RedisEventLog
    lobby: RedisLobby

    def __init__(
        self,
        redis: Redis | RedisCluster,
        rate_per_s: float = 0,
        burst: int = 1,
        write_replicas: int = 0,
        write_wait_ms: int = 1000,
    ) -> None:
        self.scripts = scripts = Scripts(redis, write_replicas, write_wait_ms)
        lobby = RedisLobby(scripts)
        super().__init__(
            log=RedisEventLog(scripts, lobby, rate_per_s, burst),
            lobby=lobby,
            buckets=RedisBuckets(scripts),
            answers=RedisAnswers(redis),
            deadlines=RedisDeadlines(scripts),
        )

    async def aclose(self) -> None:
        """Close the scripts' own connection (the redis-py client is its owner's to close)."""
        await self.scripts.aclose()
