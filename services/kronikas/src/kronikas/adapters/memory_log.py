"""The event log and the lobby in memory, as the Redis ones behave (adapters/event_store.py,
adapters/lobby.py and their scripts): both read a game's meta, which the log's appends write,
on the data of one `MemoryRedis` (adapters/memory_data.py)."""

from __future__ import annotations

import asyncio

from kronikas.adapters.memory_data import REFRESH_S, TIE, MemoryRedis, Meta, take_from
from kronikas.application.ports import AppendRequest, AppendResult, ReadResult, Summary


class MemoryLog:
    """`EventLog` in memory: each token's reads and appends at a table limited to `rate_per_s`,
    `burst` (0: no limit), as the Redis log's are; every append is handed to the change feeds
    attached to its `MemoryRedis`."""

    def __init__(self, data: MemoryRedis, rate_per_s: float = 0, burst: int = 1) -> None:
        self.data = data
        self.rate_per_s = rate_per_s
        self.burst = burst

    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        """The version, the token's role and up to `limit` events after `after` (read.lua)."""
        await asyncio.sleep(0)  # a round trip: other tasks run; the read itself is atomic
        data, now = self.data, self.data.clock()
        stored = data.logs.get(game_id, now) or []
        version = len(stored)
        role = ""
        if token_hash:
            role = (data.auths.get(game_id, now) or {}).get(token_hash, "")
        rate_per_s = self.rate_per_s if rate else 0
        if rate_per_s > 0 and role:  # only a token the table knows has a bucket
            wait = take_from(data.rates, (game_id, token_hash), now, rate_per_s, self.burst, cost)
            if wait:
                return ReadResult(version=0, role="", retry_after_ms=wait, records=[])
            data.wrote(now)
        records: list[bytes] = []
        if after < version and limit > 0:
            records = stored[after : min(version, after + limit)]
        return ReadResult(version=version, role=role, retry_after_ms=0, records=records)

    async def append(self, request: AppendRequest) -> AppendResult:
        """All of the records or none, only at `expected` (append.lua); then the progress hears
        it is stored and the feeds hear it (as the Redis log's answer comes before its
        publication), and the followers they woke run before the caller resumes (as on the
        Redis log's line)."""
        game_id, expected, progress = request.game_id, request.expected, request.progress
        if progress is not None:
            progress.meanwhile()
        await asyncio.sleep(0)
        data, now = self.data, self.data.clock()
        kept = data.logs.get(game_id, now)
        version = len(kept) if kept is not None else 0
        if version != expected:  # before the rate: a conflict takes no token
            tail = kept[expected:] if kept is not None and expected < version else []
            return AppendResult("conflict", version=version, records=list(tail))
        if request.token_hash and self.rate_per_s > 0:
            bucket = (game_id, request.token_hash)
            wait = take_from(data.rates, bucket, now, self.rate_per_s, self.burst)
            if wait:
                return AppendResult("limited", retry_after_ms=wait)
            data.wrote(now)
        if request.records:
            if kept is None:
                kept = data.logs.make(game_id, [])
            kept.extend(request.records)
            version = len(kept)
        if request.auth:
            roles = data.auths.get(game_id, now)
            if roles is None:
                roles = data.auths.make(game_id, {})
            roles.update(request.auth)
        self._keep_meta(request, version, bool(request.auth) or expected == 0, now)
        if expected == 0:
            list_in(data, game_id, request.summary.created_ms)  # as it is made (append.lua)
        data.wrote(now)
        if progress is not None:
            progress.stored()
        for feed in list(data.feeds):
            feed.publish(game_id, version, list(request.records))
        if progress is not None:
            await asyncio.sleep(0)
        return AppendResult("ok", version=version)

    def _keep_meta(self, request: AppendRequest, version: int, authed: bool, now: float) -> None:
        """Write the meta; set every key of the game to live `ttl_s` more seconds when that moves
        their deadline by more than a minute, or auth was written, or the log starts (as
        append.lua does)."""
        data, game_id, summary, ttl_s = self.data, request.game_id, request.summary, request.ttl_s
        meta = data.metas.get(game_id, now)
        if meta is None:
            meta = data.metas.make(game_id, Meta(0, "", "", 0, 0))
        meta.version = version
        meta.kind, meta.status = summary.kind, summary.status
        meta.players, meta.created_ms = summary.players, summary.created_ms
        meta.seeded = summary.seeded
        until_s = int(now * 1000) // 1000 + ttl_s
        if authed or meta.until_s is None or abs(until_s - meta.until_s) > REFRESH_S:
            meta.until_s = until_s
            for keys in (data.logs, data.metas, data.auths):
                keys.expire(game_id, ttl_s, now)


def list_in(data: MemoryRedis, game_id: str, created_ms: int) -> None:
    """List a table after the tables listed before it in its millisecond (the 1023rd and later
    of one millisecond tie, then order by id, as in Redis)."""
    base = created_ms * TIE
    top = max((s for s in data.listed.values() if base <= s < base + TIE), default=None)
    data.listed[game_id] = base + (1 if top is None else min(TIE - 1, top - base + 1))


class MemoryLobby:
    """`LobbyIndex` in memory: the tables listed, each shown as its latest append's meta says."""

    def __init__(self, data: MemoryRedis) -> None:
        self.data = data

    async def page(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Registered tables that have not lapsed, newest first, of `kind` and in `status` (any
        when None) as their latest append says; a page from `offset`, and whether more follow."""
        await asyncio.sleep(0)
        data, now = self.data, self.data.clock()
        found: list[tuple[int, str, Summary]] = []
        for game_id, score in list(data.listed.items()):
            meta = data.metas.get(game_id, now)
            if meta is None:
                del data.listed[game_id]
                continue
            if (kind is not None and meta.kind != kind) or (
                status is not None and meta.status != status
            ):
                continue
            entry = Summary(
                game_id,
                meta.kind,
                meta.status,
                meta.players,
                meta.created_ms,
                meta.version,
                meta.seeded,
            )
            found.append((score, game_id, entry))
        found.sort(key=lambda f: (f[0], f[1]), reverse=True)  # as ZREVRANGE orders ties
        page = [entry for _, _, entry in found[offset : offset + limit]]
        return page, len(found) > offset + limit

    async def register(self, game_id: str, created_ms: int) -> None:
        """List a table its first append did not list (every first append lists its table); a
        table that has lapsed is not listed."""
        await asyncio.sleep(0)
        data, now = self.data, self.data.clock()
        if data.metas.get(game_id, now) is None or game_id in data.listed:
            return  # lapsed, or listed by its first append
        list_in(data, game_id, created_ms)
        data.wrote(now)
