"""The arena's store on Redis (application/arena/ports.py). Every key shares the hash tag
`{arena}`, so that the log's script runs on one node of a cluster.

Keys: `{arena}:log` (list: the arena's events, appended only at an expected version by
`APPEND`, its head trimmed by `COMPACT`), `{arena}:base` (how many events were trimmed),
`{arena}:snapshot` (the fold at `base`), `{arena}:entrant:<id>` (an entrant's record),
`{arena}:token:<sha256>` (the entrant an entrant token's hash belongs to), `{arena}:seats:<set>`
(hash: each real entrant's seat and seat token, for it alone; lapses after the tables' time),
`{arena}:tables` (hash: the arena's tables, to their set), `{arena}:done` (set: finished sets),
`{arena}:set:<set>` (a finished set's result), `{arena}:polled` (hash: when each waiting
entrant last asked for its ticket).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kronikas.adapters.scripts import translated
from kronikas.application.arena.ports import LogRead

PREFIX = "{arena}"
LOG = f"{PREFIX}:log"
BASE = f"{PREFIX}:base"
SNAPSHOT = f"{PREFIX}:snapshot"
TABLES = f"{PREFIX}:tables"
DONE = f"{PREFIX}:done"
POLLED = f"{PREFIX}:polled"

APPEND = """
local length = redis.call('LLEN', KEYS[1]) + tonumber(redis.call('GET', KEYS[2]) or '0')
if length ~= tonumber(ARGV[1]) then
  return -1
end
for i = 2, #ARGV do
  redis.call('RPUSH', KEYS[1], ARGV[i])
end
return length + #ARGV - 1
"""
"""Append ARGV[2..] to the log if it holds ARGV[1] events (those trimmed, KEYS[2], counted);
-1 else."""

READ = """
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
local after = tonumber(ARGV[1])
if after < base then
  return {base, redis.call('GET', KEYS[3]) or '', redis.call('LRANGE', KEYS[1], 0, -1)}
end
return {base, '', redis.call('LRANGE', KEYS[1], after - base, -1)}
"""
"""The log after ARGV[1] events: (base, snapshot or "", events); the snapshot when ARGV[1] lies
before the trimmed head."""

COMPACT = """
local base = tonumber(redis.call('GET', KEYS[2]) or '0')
local version = tonumber(ARGV[1])
if version <= base or version > redis.call('LLEN', KEYS[1]) + base then
  return 0
end
redis.call('SET', KEYS[3], ARGV[2])
redis.call('LTRIM', KEYS[1], version - base, -1)
redis.call('SET', KEYS[2], version)
return 1
"""
"""Keep the snapshot ARGV[2] of version ARGV[1] and trim the log's events up to it, unless the
snapshot kept is as new."""


def _entrant(entrant_id: str) -> str:
    return f"{PREFIX}:entrant:{entrant_id}"


def _token(token_hash: str) -> str:
    return f"{PREFIX}:token:{token_hash}"


def _result(set_id: str) -> str:
    return f"{PREFIX}:set:{set_id}"


def _seats(set_id: str) -> str:
    return f"{PREFIX}:seats:{set_id}"


class RedisArenaStore:
    """`ArenaStore` on one Redis server or cluster (a redis-py client)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._append = redis.register_script(APPEND)
        self._read = redis.register_script(READ)
        self._compact = redis.register_script(COMPACT)

    @translated
    async def read_log(self, after: int) -> LogRead:
        base, snapshot, records = await self._read(keys=[LOG, BASE, SNAPSHOT], args=[after])
        return LogRead(int(base), bytes(snapshot) or None, list(records))

    @translated
    async def log_length(self) -> int:
        return int(await self.redis.llen(LOG))

    @translated
    async def append(self, expected: int, events: Sequence[bytes]) -> bool:
        reply = await self._append(keys=[LOG, BASE], args=[expected, *events])
        return int(reply) >= 0

    @translated
    async def compact(self, version: int, snapshot: bytes) -> bool:
        reply = await self._compact(keys=[LOG, BASE, SNAPSHOT], args=[version, snapshot])
        return bool(reply)

    @translated
    async def add_entrant(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(_entrant(entrant_id), record)
            pipe.set(_token(token_hash), entrant_id)
            await pipe.execute()

    @translated
    async def entrant(self, entrant_id: str) -> bytes | None:
        found: bytes | None = await self.redis.get(_entrant(entrant_id))
        return found

    @translated
    async def entrants(self, entrant_ids: Sequence[str]) -> list[bytes | None]:
        if not entrant_ids:
            return []
        found: list[bytes | None] = await self.redis.mget([_entrant(e) for e in entrant_ids])
        return found

    @translated
    async def entrant_of(self, token_hash: str) -> str | None:
        found: bytes | None = await self.redis.get(_token(token_hash))
        return None if found is None else found.decode()

    @translated
    async def revoke(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(_entrant(entrant_id), record)
            pipe.delete(_token(token_hash))
            await pipe.execute()

    @translated
    async def keep_seats(self, set_id: str, seats: dict[str, bytes], ttl_s: int) -> None:
        if not seats:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hset(_seats(set_id), mapping=seats)
            pipe.expire(_seats(set_id), ttl_s)
            await pipe.execute()

    @translated
    async def seat(self, set_id: str, entrant_id: str) -> bytes | None:
        found: bytes | None = await self.redis.hget(_seats(set_id), entrant_id)
        return found

    @translated
    async def add_tables(self, table_ids: Sequence[str], set_id: str) -> None:
        if table_ids:
            await self.redis.hset(TABLES, mapping=dict.fromkeys(table_ids, set_id))

    @translated
    async def arena_tables(self, table_ids: Sequence[str]) -> set[str]:
        if not table_ids:
            return set()
        found = await self.redis.hmget(TABLES, list(table_ids))
        return {t for t, s in zip(table_ids, found, strict=True) if s is not None}

    @translated
    async def keep_results(self, results: dict[str, bytes]) -> None:
        if results:
            await self.redis.mset({_result(s): raw for s, raw in results.items()})

    @translated
    async def result(self, set_id: str) -> bytes | None:
        found: bytes | None = await self.redis.get(_result(set_id))
        return found

    @translated
    async def finish_sets(self, set_ids: Sequence[str]) -> None:
        if set_ids:
            await self.redis.sadd(DONE, *set_ids)

    @translated
    async def set_finished(self, set_id: str) -> bool:
        return bool(await self.redis.sismember(DONE, set_id))

    @translated
    async def polled(self, entrant_id: str, now_ms: int) -> None:
        await self.redis.hset(POLLED, entrant_id, now_ms)

    @translated
    async def last_polls(self) -> dict[str, int]:
        found = await self.redis.hgetall(POLLED)
        return {k.decode(): int(v) for k, v in found.items()}

    @translated
    async def forget_polls(self, entrant_ids: Sequence[str]) -> None:
        if entrant_ids:
            await self.redis.hdel(POLLED, *entrant_ids)
