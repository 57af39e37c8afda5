"""The lobby on Redis: one sorted set per filter, all on one slot, scored by creation.

One sorted set per filter (all tables; a kind; a status; a kind and a status), all on one Redis
Cluster slot (`LOBBY_TAG`) and scored by creation, so a page is a range of one of them. A table's
first append lists it, in the append's own script on one server (adapters/lua/append.lua); on a
cluster the lobby's slot is another, and `list_new` follows the append (`appended`: the log's
one call here, after an append it made). A table's own keys are
on its own slot, so its append cannot move it between indexes in the same script: the append
reports when the indexes were last told another status than the new summary's (the meta's
`listed` field), and `relist` moves the table and records the status. That can be lost (a
process that dies in between), so a read still checks every entry it returns against the
table's meta: it skips and repairs an entry of another status and drops tables that expired. A
move enters the new indexes before it leaves the old ones; a lost move is made by the table's
next append (`listed` still differs), or by a read that meets it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Sequence
from typing import Any

import msgspec
from redis.exceptions import RedisError

from kronikas.adapters.scripts import Scripts, game_keys, text, translated, unknown
from kronikas.application.ports import Summary

log = logging.getLogger("kronikas.store")

LOBBY_TAG = "kr:{lobby}"
"""Every lobby key shares this hash tag: one slot, so one script can update several indexes."""
LOBBY_KEY = f"{LOBBY_TAG}:all"
"""The index of every listed table; the other indexes hold a subset of it, with the same scores."""
LOBBY_INDEXES = f"{LOBBY_TAG}:indexes"
"""The set of the names of every index, which dropping an expired table clears it from."""
OLD_LOBBY_KEY = "kr:lobby"
"""The one sorted set (id -> created_ms) of older versions; the first lobby read adopts it."""
STATUSES = ("open", "playing", "finished")
"""A table's statuses, in the only order it goes through them."""
_TIE = 1024
"""A score is created_ms * 1024 + the table's rank among those listed in that millisecond."""
_SWEEP = 4
"""Entries of the index of all tables that each registration checks for expiry, oldest first."""


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


class SummaryRecord(msgspec.Struct, frozen=True, array_like=True):
    kind: str
    status: str
    players: int
    created_ms: int
    seeded: bool = False
    """Stored after the fields older versions wrote: their entries read as not seeded, and
    they read this one's first four fields (msgspec ignores an array's extra items)."""


def list_in(pipe: Any, game_id: str, kind: str, status: str, score: int) -> None:
    """Queue on a pipeline the commands that list a table in its indexes with `score`.

    For adopting an older version's lobby and for filling one in bulk (benchmarks/lobby.py); a new
    table is listed by its first append (or `register`), which makes its score.
    """
    indexes = [LOBBY_KEY, *lobby_indexes(kind, status)]
    for index in indexes:
        pipe.zadd(index, {game_id: score})
    pipe.sadd(LOBBY_INDEXES, *indexes)


class RedisLobby:
    """`LobbyIndex` on Redis; the event log (adapters/event_store.py) lists and moves its tables."""

    def __init__(self, scripts: Scripts) -> None:
        self.scripts = scripts
        self.redis = scripts.redis
        self._add = scripts.script("lobby_add.lua")
        self._move_script = scripts.script("lobby_move.lua")
        self._drop_script = scripts.script("lobby_drop.lua")
        self._sweep_at = 0
        self._adopted = False
        self._adopting = asyncio.Lock()

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
            await self.scripts.run(
                self._add,
                keys=[LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(rec.kind, rec.status)],
                args=[game_id, created_ms],
            )
            pipe.hset(meta, "listed", rec.status)
        ids = [text(i) for i in oldest]
        for other in ids:
            pipe.exists(game_keys(other)["meta"])
        alive = (await pipe.execute())[-len(ids) :] if ids else []
        expired = [i for i, a in zip(ids, alive, strict=True) if not a]
        self._sweep_at = self._sweep_at + len(ids) - len(expired) if len(ids) == _SWEEP else 0
        if expired:
            await self._drop(expired)

    async def appended(
        self, game_id: str, keys: dict[str, str], summary: Summary, listed: str | None, new: bool
    ) -> None:
        """Follow an append made (`keys`: its table's, `game_keys`) in the lobby, the log's one
        call here: move a table whose status changed (`listed`: the status its indexes were
        told, when the append reported one), and list a table its first append made (`new`: on
        a cluster, where the append's own script could not)."""
        if listed is not None:
            await self.relist(game_id, summary, listed, keys["meta"])
        if new:
            await self.list_new(game_id, summary, keys)

    async def list_new(self, game_id: str, summary: Summary, keys: dict[str, str]) -> None:
        """On a cluster: list a table its first append made; should that fail, remove the table
        (nobody was given its host token) and fail."""
        try:
            await self.scripts.run(
                self._add,
                keys=[LOBBY_KEY, LOBBY_INDEXES, *lobby_indexes(summary.kind, summary.status)],
                args=[game_id, summary.created_ms],
            )
            await self.redis.hset(keys["meta"], "listed", summary.status)
        except RedisError as exc:
            try:
                await self.redis.delete(*keys.values())
            except RedisError:
                log.warning("a new table could be neither listed nor removed: it lapses unseen")
                raise unknown(exc) from exc
            raise

    @translated
    async def page(
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
            ids = [text(i) for i in got]
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

    async def relist(self, game_id: str, summary: Summary, listed: str, meta: str) -> None:
        """Move a table whose status changed into its new indexes, then record that status in
        its `meta` key.

        `listed` is the status the indexes were told ("" when never told: a table an older version
        listed). Best effort: the append stands; the next append or a read makes a lost move.
        """
        leave = [listed] if listed else [s for s in STATUSES if s != summary.status]
        try:
            await self._move(game_id, summary.kind, summary.status, leave)
            await self.redis.hset(meta, "listed", summary.status)
        except RedisError:
            log.warning("could not move a table between lobby indexes", extra={"game_id": game_id})

    async def _move(self, game_id: str, kind: str, status: str, leave: Iterable[str]) -> None:
        keys = [LOBBY_KEY, LOBBY_INDEXES, lobby_index(None, status), lobby_index(kind, status)]
        for old in leave:
            if old != status:
                keys += [lobby_index(None, old), lobby_index(kind, old)]
        await self.scripts.run(self._move_script, keys=keys, args=[game_id])

    async def _drop(self, ids: Sequence[str]) -> None:
        """Remove expired tables from every index."""
        names = await self.redis.smembers(LOBBY_INDEXES)
        keys = sorted({LOBBY_KEY, *(text(n) for n in names)})
        for at in range(0, len(ids), 1000):  # Lua unpacks a few thousand values at most
            await self.scripts.run(self._drop_script, keys=keys, args=list(ids[at : at + 1000]))

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
                ids = [text(member) for member, _ in batch]
                pipe = self.redis.pipeline(transaction=False)
                for (game_id, (_, score)), entry in zip(
                    zip(ids, batch, strict=True), await self._entries(ids), strict=True
                ):
                    if entry is not None:
                        list_in(pipe, game_id, entry[0].kind, entry[0].status, int(score) * _TIE)
                pipe.zrem(OLD_LOBBY_KEY, *ids)
                await pipe.execute()
