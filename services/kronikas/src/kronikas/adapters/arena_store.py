"""The arena's store on Redis (application/arena/ports.py). Every key shares the hash tag
`{arena}`, so that the log's script runs on one node of a cluster.

Keys: `{arena}:log` (list: the arena's events, appended only at an expected length by
`APPEND`), `{arena}:entrant:<id>` (an entrant's record), `{arena}:token:<sha256>` (the entrant
an entrant token's hash belongs to), `{arena}:seats:<set>` (hash: each real entrant's seat and
seat token, for it alone; lapses after the tables' time), `{arena}:tables` (hash: the arena's
tables, to their set), `{arena}:done` (set: finished sets), `{arena}:polled` (hash: when each
waiting entrant last asked for its ticket).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from kronikas.adapters.scripts import translated

PREFIX = "{arena}"
LOG = f"{PREFIX}:log"
TABLES = f"{PREFIX}:tables"
DONE = f"{PREFIX}:done"
POLLED = f"{PREFIX}:polled"

APPEND = """
local length = redis.call('LLEN', KEYS[1])
if length ~= tonumber(ARGV[1]) then
  return -1
end
for i = 2, #ARGV do
  redis.call('RPUSH', KEYS[1], ARGV[i])
end
return length + #ARGV - 1
"""
"""Append ARGV[2..] to the log if it holds ARGV[1] events; -1 else."""


def _entrant(entrant_id: str) -> str:
    return f"{PREFIX}:entrant:{entrant_id}"


def _token(token_hash: str) -> str:
    return f"{PREFIX}:token:{token_hash}"


def _seats(set_id: str) -> str:
    return f"{PREFIX}:seats:{set_id}"


class RedisArenaStore:
    """`ArenaStore` on one Redis server or cluster (a redis-py client)."""

    def __init__(self, redis: Any) -> None:
        self.redis = redis
        self._append = redis.register_script(APPEND)

    @translated
    async def read_log(self, after: int) -> list[bytes]:
        found: list[bytes] = await self.redis.lrange(LOG, after, -1)
        return found

    @translated
    async def append(self, expected: int, events: Sequence[bytes]) -> bool:
        reply = await self._append(keys=[LOG], args=[expected, *events])
        return int(reply) >= 0

    @translated
    async def add_entrant(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(_entrant(entrant_id), record)
            pipe.set(_token(token_hash), entrant_id)
            await pipe.execute()

    @translated
    async def entrant(self, entrant_id: str) -> bytes | None:
        found: bytes | None = await self.redis.get(_entrant(entrant_id))
        return found

    @translated
    async def entrant_of(self, token_hash: str) -> str | None:
        found: bytes | None = await self.redis.get(_token(token_hash))
        return None if found is None else found.decode()

    @translated
    async def revoke(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.set(_entrant(entrant_id), record)
            pipe.delete(_token(token_hash))
            await pipe.execute()

    @translated
    async def keep_seats(self, set_id: str, seats: dict[str, bytes], ttl_s: int) -> None:
        if not seats:
            return
        async with self.redis.pipeline(transaction=True) as pipe:
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
