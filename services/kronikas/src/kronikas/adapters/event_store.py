"""The event store on Redis: one list per game, appended by one Lua script, all keys in one slot."""

from __future__ import annotations

import time
from collections.abc import Sequence
from importlib import resources
from typing import Any

import msgspec
from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError as RedisConnectionError

from kronikas.application.ports import AppendResult, Idempotency, ReadResult, Summary

NOTIFY_PREFIX = "kr:notify:"
LOBBY_KEY = "kr:lobby"
_LOBBY_SCAN = 200


def _lua(name: str) -> str:
    return resources.files("kronikas.adapters").joinpath("lua", name).read_text()


def game_keys(game_id: str) -> dict[str, str]:
    """Every key of a game shares the Redis Cluster hash tag `{<game id>}`."""
    tag = f"kr:{{{game_id}}}"
    return {
        "log": f"{tag}:log",
        "meta": f"{tag}:meta",
        "auth": f"{tag}:auth",
    }


def notify_channel(game_id: str) -> str:
    """The pub/sub channel on which each append publishes the game's new version."""
    return f"{NOTIFY_PREFIX}{game_id}"


def _now_ms() -> int:
    return int(time.time() * 1000)


class SummaryRecord(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    status: str
    players: int
    created_ms: int


class RedisEventStore:
    """`EventStore` on one Redis server or a Redis Cluster."""

    def __init__(self, redis: Redis | RedisCluster, rate_per_s: int = 0, burst: int = 1) -> None:
        self.redis = redis
        self.rate_per_s = rate_per_s
        self.burst = burst
        self._append: AsyncScript = redis.register_script(_lua("append.lua"))
        self._read: AsyncScript = redis.register_script(_lua("read.lua"))
        self._bucket: AsyncScript = redis.register_script(_lua("bucket.lua"))

    async def read(
        self, game_id: str, after: int, token_hash: str, limit: int, rate: bool = True
    ) -> ReadResult:
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
            ],
        )
        role = reply[1]
        return ReadResult(
            version=int(reply[0]),
            role=role.decode() if isinstance(role, bytes) else str(role),
            retry_after_ms=int(reply[2]),
            records=list(reply[3:]),
        )

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
        idempotency: Idempotency | None = None,
    ) -> AppendResult:
        keys = game_keys(game_id)
        tag = keys["log"].rsplit(":", 1)[0]
        idem_key = f"{tag}:idem:{idempotency.key}" if idempotency else f"{tag}:idem:-"
        rate_on = bool(token_hash) and self.rate_per_s > 0
        record = msgspec.json.encode(
            SummaryRecord(summary.kind, summary.status, summary.players, summary.created_ms)
        )
        args: list[Any] = [
            expected,
            ttl_s,
            record,
            _now_ms(),
            self.rate_per_s if rate_on else 0,
            self.burst,
            idempotency.fingerprint if idempotency else "",
            idempotency.response if idempotency else b"",
            notify_channel(game_id),
            len(auth),
        ]
        for token, role in auth:
            args += [token, role]
        args += list(records)
        reply: list[Any] = await self._run(
            self._append,
            keys=[keys["log"], keys["meta"], keys["auth"], idem_key, f"{tag}:rate:{token_hash}"],
            args=args,
        )
        outcome = reply[0].decode() if isinstance(reply[0], bytes) else reply[0]
        if outcome == "ok":
            return AppendResult("ok", version=int(reply[1]))
        if outcome == "conflict":
            return AppendResult("conflict", version=int(reply[1]), records=list(reply[2:]))
        if outcome == "replay":
            return AppendResult("replay", replay=reply[1])
        return AppendResult("limited", retry_after_ms=int(reply[1]))

    async def _run(self, script: AsyncScript, keys: list[str], args: list[Any]) -> Any:
        """Run a script; after a lost connection, drop the pool and try once more.

        A pooled connection that outlived a Redis restart fails on its next use without the
        command reaching the new server, so the second try is safe; were the first one to have
        been applied after all, the append's version check answers `conflict` with our own events,
        which the use case recognises (application/games.py).
        """
        try:
            return await script(keys=keys, args=args)
        except RedisConnectionError:
            pool = getattr(self.redis, "connection_pool", None)
            if pool is not None:
                await pool.disconnect()
            return await script(keys=keys, args=args)

    async def take(self, key: str, rate_per_s: float, burst: int) -> int:
        """Take one request from the bucket `key`: 0 when allowed, else ms to wait."""
        wait = await self._run(
            self._bucket, keys=[f"kr:bucket:{key}"], args=[_now_ms(), rate_per_s, burst]
        )
        return int(wait)

    async def idempotent(self, game_id: str, key: str) -> bytes | None:
        """The recorded `fingerprint \\n response` of an idempotency key, if any."""
        tag = game_keys(game_id)["log"].rsplit(":", 1)[0]
        record = await self.redis.get(f"{tag}:idem:{key}")
        return record if isinstance(record, bytes) else None

    async def register(self, game_id: str, created_ms: int) -> None:
        """List a new table in the lobby index."""
        await self.redis.zadd(LOBBY_KEY, {game_id: created_ms})

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        found: list[Summary] = []
        skipped = 0
        start = 0
        while True:
            ids: list[Any] = await self.redis.zrevrange(LOBBY_KEY, start, start + _LOBBY_SCAN - 1)
            if not ids:
                return found, False
            start += len(ids)
            metas = await self._summaries([i.decode() for i in ids])
            gone = [i for i, m in zip(ids, metas, strict=True) if m is None]
            if gone:
                await self.redis.zrem(LOBBY_KEY, *gone)
            for entry in metas:
                if entry is None:
                    continue
                if (kind and entry.kind != kind) or (status and entry.status != status):
                    continue
                if skipped < offset:
                    skipped += 1
                    continue
                if len(found) == limit:
                    return found, True
                found.append(entry)

    async def _summaries(self, ids: list[str]) -> list[Summary | None]:
        pipe = self.redis.pipeline(transaction=False)
        for game_id in ids:
            pipe.hmget(game_keys(game_id)["meta"], ["summary", "version"])
        replies: list[list[bytes | None]] = await pipe.execute()
        out: list[Summary | None] = []
        for game_id, (raw, version) in zip(ids, replies, strict=True):
            if raw is None:
                out.append(None)
                continue
            rec = msgspec.json.decode(raw, type=SummaryRecord)
            out.append(
                Summary(
                    game_id, rec.kind, rec.status, rec.players, rec.created_ms, int(version or 0)
                )
            )
        return out
