"""The folds this process holds: tables read from the store, kept current by the change feed;
each held with its memos (`Held`), which only the repository (`Folds`) touches."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Iterable, Sequence

import msgspec

from kronikas.application.access import seated
from kronikas.application.engines import Registry
from kronikas.application.errors import NotFound, Unavailable, rate_limited
from kronikas.application.ids import NO_TABLE
from kronikas.application.ports import AppendResult, ChangeFeed, EventLog
from kronikas.application.tables import (
    HOST,
    Accepted,
    Appended,
    Codec,
    Fold,
    Keys,
    Recent,
    Seen,
    seat_in,
)
from kronikas.application.wire import Record, ms_of

_CACHE_SIZE = 4096
READ_PAGE = 1_000
"""The most events one read of a log asks for: a table not held here is read in pages of this
many, folded as they come, so that no single store call carries a whole log (a table keeps up
to its engine's `event_cap` events)."""


def seat_of(held: Held, role: str) -> int | None:
    """The seat `role` holds in the fold held, looked up once a state."""
    state = held.fold.state
    seats = held.seats
    if held.seats_in is not state:
        seats.clear()
        held.seats_in = state
    try:
        return seats[role]
    except KeyError:
        seat = seats[role] = seat_in(held.fold.engine, state, role)
        return seat


class Held:
    """A table as this process holds it: its fold, and the memos kept beside it. Only the
    repository (`Folds`) touches them; each follows the fold as it moves on."""

    __slots__ = ("fold", "keys", "live", "recent", "roles", "seats", "seats_in")

    def __init__(self, fold: Fold) -> None:
        self.fold = fold
        self.roles: dict[str, str] = {}
        """Token hash → role: `host`, `p:<player id>`, or a seat number (tables made before
        players could leave); a token's role never changes once issued."""
        self.recent = Recent()
        """The table's latest events, for streams and long-polls."""
        self.keys = Keys()
        """The idempotency keys its log records."""
        self.live: int | None = None
        """The change feed's generation under which the fold was read and kept up since: while
        the feed reports the same generation, the fold is current without asking the store."""
        self.seats: dict[str, int | None] = {}
        """Role → the seat it holds in `seats_in` (`seat_held`): every stream's frame asks, and
        the state changes once a move."""
        self.seats_in: object = None
        """The state `seats` were looked up in (a frozen state: another one means again)."""

    def moved(self, fold: Fold, records: list[Record[msgspec.Struct]], seen: list[Seen]) -> None:
        """The fold moved on to `fold` by `records` (`seen`: their events as kept)."""
        self.fold = fold
        for record in records:
            if record.i is not None:
                self.keys.add(record.i, record.v, record.at)
        self.recent.add(seen)


class Folds:
    """The tables this process holds: one repository in front of a bounded cache of folds,
    each up to the version this process last saw, of the games of `engines` (a table of a game
    not among them is unreadable here). A fold is a frozen value; the repository holds the
    latest of each table, and its memos beside it (`Held`), which it alone touches.

    Its verbs: the table and the caller's role for a token (`for_token`); the table as the
    change feed vouches for it (`followed`) or as the store has it (`load`); after an append
    from here (`advance`: `expect` tells it one is in flight, should the feed bring it first);
    after a lost race (`after_conflict`); and what the memos know of a fold (`role`,
    `seat_held`, `recent`, `accepted`)."""

    def __init__(self, log: EventLog, changes: ChangeFeed, engines: Registry) -> None:
        self.log = log
        self.changes = changes
        self.engines = engines
        self.codec = Codec(engines)
        self._cache: OrderedDict[str, Held] = OrderedDict()
        self._gaps = 0
        """Appends heard that could not be folded in (counted, so a read can tell it missed one)."""
        self._reading: dict[str, asyncio.Task[Fold]] = {}
        """Tables being read for their followers, each read shared by all of them."""
        self._own: dict[str, Appended] = {}
        """Appends this process has in flight, to fold in without decoding them should the
        change feed bring them before their answer (the command made the state already)."""
        changes.listen(self._heard)

    # -- what the memos know ------------------------------------------------------------------

    def held(self, game_id: str) -> Fold | None:
        """The fold held here, as it is (it may be behind the store)."""
        held = self._cache.get(game_id)
        return None if held is None else held.fold

    def role(self, table: Fold, token_hash: str) -> str | None:
        """The role of a token the table is known here to know, else None."""
        held = self._cache.get(table.game_id)
        return None if held is None else held.roles.get(token_hash)

    def seat_held(self, table: Fold, role: str | None) -> int | None:
        """The seat `role` holds in `table` (`seat_in`), looked up once a state for the fold
        held here: each stream of the table asks for every frame."""
        if role is None:
            return None
        held = self._cache.get(table.game_id)
        if held is not None and held.fold.state is table.state:
            return seat_of(held, role)
        return seat_in(table.engine, table.state, role)

    def seated_now(self, table: Fold, role: str | None) -> int | None:
        """The seat a reader's role holds now (None: the host, a spectator); 401 when its player
        left the table before the start (`access.seated`)."""
        return seated(self.seat_held(table, role), role)

    def recent(self, table: Fold, after: int) -> list[Seen] | None:
        """The events after `after` up to the table's version, when this process keeps them
        all at hand; else None."""
        held = self._cache.get(table.game_id)
        return None if held is None else held.recent.after(after, table.version)

    def at_hand(
        self, game_id: str, after: int, role: str | None
    ) -> tuple[list[Seen], int | None] | None:
        """The events after `after` of a table the change feed vouches for (`vouched`), when
        this process keeps them all at hand, and the seat `role` holds after them (`seat_held`);
        else None. What a stream sends without awaiting anything."""
        held = self._cache.get(game_id)
        generation = self.changes.generation(game_id)
        if held is None or generation is None or held.live != generation:
            return None
        version = held.fold.version
        if version <= after:
            return [], None
        seen = held.recent.after(after, version)
        if seen is None:
            return None
        return seen, None if role is None else seat_of(held, role)

    def accepted(self, table: Fold, key: str, now_ms: int) -> Accepted | None:
        """The command the table's log records as accepted under `key` within the last day, with
        its append's events when that append is the table's latest (`Accepted.latest`)."""
        held = self._cache.get(table.game_id)
        accepted = None if held is None else held.keys.get(key, now_ms)
        if accepted is None or held is None:
            return None
        seen = held.recent.after(accepted.version - 1, table.version)
        if not seen or seen[0].version != accepted.version:
            return accepted
        # the table moved on when another append (its first event has a nonce) followed the key's
        return accepted if any(s.record.n for s in seen[1:]) else accepted._replace(latest=seen)

    # -- the table for a token ----------------------------------------------------------------

    async def for_token(self, game_id: str, token_hash: str) -> tuple[Fold, str | None, bool]:
        """The table, the role of a token it knows (None: not the table's; the access rules
        refuse it), and whether the table was just read: the fold held here when it knows the
        token (a token is not asked about again), else read."""
        held = self._cache.get(game_id)
        if held is not None:
            role = held.roles.get(token_hash)
            if role is not None:
                return held.fold, role, False
        table = await self.load(game_id, token_hash, rate=False)
        return table, self.role(table, token_hash), True

    async def for_move(
        self, game_id: str, token_hash: str
    ) -> tuple[Fold, str | None, int | None, bool]:
        """What a move asks of the table, in one call: the table (`for_token`), the token's
        role (None: not the table's), the seat that role holds there, and whether the table was
        just read. A player's seat the fold held here does not know (its player left, or joined
        after it) is looked for again in a read; the access rules judge the rest (`mover`)."""
        held = self._cache.get(game_id)
        role = None if held is None else held.roles.get(token_hash)
        if held is not None and role is not None:
            seat = seat_of(held, role)
            if seat is not None or role == HOST:
                return held.fold, role, seat, False
        asker = token_hash if role is None else ""  # a read learns the role of a token new here
        table = await self.load(game_id, asker, rate=False)
        if asker:
            role = self.role(table, token_hash)
        return table, role, self.seat_held(table, role), True

    # -- moving on ------------------------------------------------------------------------------

    def made(self, table: Fold, roles: Iterable[tuple[str, str]]) -> None:
        """A table just made here, and the roles of the tokens it gave."""
        held = self._hold(Held(table))
        held.roles.update(roles)

    def _hold(self, held: Held) -> Held:
        """Hold a table here (the least recently used beyond the cache's size go)."""
        game_id = held.fold.game_id
        self._cache[game_id] = held
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)
        return held

    def expect(self, appended: Appended) -> None:
        """`appended` is in flight from here: should the change feed bring it before its answer
        does, it is folded in as it was decided (`advance`)."""
        self._own[appended.before.game_id] = appended

    def expected(self, appended: Appended, unknown: bool = False) -> None:
        """The append has its answer (`unknown`: not its outcome; the table held is dropped)."""
        game_id = appended.before.game_id
        if unknown:
            self._cache.pop(game_id, None)
        if self._own.get(game_id) is appended:
            del self._own[game_id]

    def advance(self, appended: Appended) -> None:
        """An append made from here is stored: the table held here moves on to its fold, from
        the state and JSON made for it (no decoding), unless it moved on already (the change
        feed folded it in); and learns the tokens it gave."""
        held = self._cache.get(appended.before.game_id)
        if held is None:
            return
        before = appended.before
        if held.fold.version == before.version:
            held.moved(
                before.after(appended.state, appended.folded), appended.folded, appended.seen
            )
        held.roles.update(appended.auth)

    def new_table(self, game_id: str, first: bytes) -> Fold:
        """The table at version 1, from its log's first record (`first`, as stored)."""
        head = self.codec.first(first)
        kind = head.k or ""
        engine = self.engines.get(kind)
        if engine is None:
            raise Unavailable(f"table {game_id} has an unreadable log")
        # The first event assigns the table's options: fold it into any lobby.
        created = self.codec.decode(kind, first).e
        state = engine.evolve(engine.initial_state(engine.options(), False), created)
        return Fold(game_id, kind, engine, head.seed, 1, state, ms_of(head.at), arena=head.a)

    def _apply(
        self, table: Fold, records: Sequence[bytes]
    ) -> tuple[Fold, list[Record[msgspec.Struct]]]:
        """Stored records folded into the table (those it holds already are skipped), and the
        records folded."""
        engine, state, version = table.engine, table.state, table.version
        folded: list[Record[msgspec.Struct]] = []
        for raw in records:
            record = self.codec.decode(table.kind, raw)
            if record.v <= version:
                continue  # another request on this process folded it in while we awaited Redis
            if record.v != version + 1:
                raise Unavailable(f"table {table.game_id}: event {record.v} after {version}")
            state = engine.evolve(state, record.e)
            version = record.v
            folded.append(record)
        if not folded:
            return table, folded
        return table.after(state, folded), folded

    def _fold_in(self, held: Held, records: Sequence[bytes]) -> Fold:
        """Stored records folded into the table held here."""
        fold, folded = self._apply(held.fold, records)
        if folded:
            seen = self.codec.seen(fold, folded)
            held.moved(fold, folded, seen)
        return fold

    def _heard(self, game_id: str, version: int, records: list[bytes]) -> None:
        """An append heard on the change feed: fold it into the cached table, if it follows on."""
        held = self._cache.get(game_id)
        if held is None or version <= held.fold.version:
            return  # not held here, or our own append (already folded)
        own = self._own.get(game_id)
        if (
            own is not None
            and own.before is held.fold  # else the cache holds a newer read of the table: decode
            and version == own.before.version + len(records)
            and own.records == records
        ):
            self.advance(own)  # our own append, heard before its answer came back
            return
        try:
            if not records:
                raise Unavailable("only the version was heard")
            self._fold_in(held, records)
        except Unavailable:  # a gap: the next reader reads
            held.live = None
            self._gaps += 1

    def vouched(self, game_id: str) -> Fold | None:
        """The table held here when the change feed vouches that it is current, else None."""
        held = self._cache.get(game_id)
        generation = self.changes.generation(game_id)
        if held is not None and generation is not None and held.live == generation:
            return held.fold
        return None

    def unvouched(self, game_id: str) -> None:
        """The table held here is no longer vouched for: the next follower reads it."""
        held = self._cache.get(game_id)
        if held is not None:
            held.live = None

    async def followed(self, game_id: str) -> Fold:
        """The table, current as far as the change feed can vouch; else read (and vouched for
        from then on, when nothing was missed during the read)."""
        table = self.vouched(game_id)
        if table is not None:
            return table
        generation = self.changes.generation(game_id)
        # Every stream of a table that falls back to reading shares one read: a crowd of
        # followers woken by one gap must not take the pool's every connection.
        reading = self._reading.get(game_id)
        if reading is None:
            reading = asyncio.create_task(self._read_followed(game_id, generation))
            self._reading[game_id] = reading
            reading.add_done_callback(lambda done: self._read_done(game_id, done))
        return await asyncio.shield(reading)

    async def _read_followed(self, game_id: str, generation: int | None) -> Fold:
        gaps = self._gaps
        table = await self.load(game_id, rate=False)
        unbroken = gaps == self._gaps and self.changes.generation(game_id) == generation
        held = self._cache.get(game_id)
        if generation is not None and unbroken and held is not None:
            held.live = generation
        return table

    def _read_done(self, game_id: str, done: asyncio.Task[Fold]) -> None:
        if self._reading.get(game_id) is done:
            del self._reading[game_id]
        if not done.cancelled():
            done.exception()  # retrieved here too: every sharer may have gone

    async def load(
        self,
        game_id: str,
        token_hash: str = "",
        rate: bool = True,
        cost: int = 1,
    ) -> Fold:
        """The table at its current version (one round trip when this process holds it nearly
        current; else a page of `READ_PAGE` events a round trip); also learns the token's
        role. With `rate`, a token the table knows pays `cost` from its bucket in the first
        round trip. `game_id` is a table id (`ids.table_id`): its use case checked it."""
        return (await self.reach(game_id, token_hash, rate, cost))[0]

    async def reach(
        self, game_id: str, token_hash: str = "", rate: bool = True, cost: int = 1
    ) -> tuple[Fold, int]:
        """The table as `load` reads it, and how many events its log holds: more than the
        table's version while its replicas have not confirmed the tail (`ReadResult.stored`;
        a follower within it waits), fewer than a follower's version when a failover lost the
        tail (the log shrank: the follower goes back to its end)."""
        held = self._cache.get(game_id)
        after = held.fold.version if held else 0
        asker, role = token_hash, None
        while True:
            result = await self.log.read(game_id, after, asker, READ_PAGE, rate, cost)
            if result.retry_after_ms:
                raise rate_limited(result.retry_after_ms)
            if asker:
                asker, rate, role = "", False, result.role
            if result.version == 0:
                self._cache.pop(game_id, None)
                raise NotFound(NO_TABLE.format(game_id))
            held = self._cache.get(game_id)  # as it is now: the feed may have moved it on
            # A log shorter than the table held was replaced (expired and made again) or lost
            # its tail in a failover. A read cut short of the table held (`acked` lags after a
            # failover) is not: every version held here was confirmed by its replicas.
            if 0 < result.length < after:
                self._cache.pop(game_id, None)
                held = None
            if held is None and after:  # read over, from the first event
                after, rate = 0, False
                continue
            records = result.records
            if held is None:
                held = self._hold(Held(self.new_table(game_id, records[0])))
                records = records[1:]
            table = self._fold_in(held, records)
            if table.version >= result.version or not result.records:
                break
            # the next page, from what is folded: the log may have grown meanwhile
            after, rate = table.version, False
        if role:
            held.roles[token_hash] = role
        self._cache.move_to_end(game_id)
        return table, max(table.version, result.length)

    async def before(self, game_id: str, first: int) -> tuple[Fold, list[Record[msgspec.Struct]]]:
        """The table read from the store as it was before the append whose first event is at
        `first` (a table of its own, not kept), and that append's records: up to the next
        append's first (each carries its nonce). For answering a replay."""
        table: Fold | None = None
        appended: list[Record[msgspec.Struct]] = []
        after = 0
        while True:
            read = await self.log.read(game_id, after, "", READ_PAGE, False)
            raws = read.records
            if table is None:
                if not raws:
                    raise NotFound(NO_TABLE.format(game_id))
                table, raws = self.new_table(game_id, raws[0]), raws[1:]
            if not raws:
                return table, appended
            # a log's record is at its version's place: those before `first` fold unread
            earlier = max(0, min(len(raws), first - 1 - table.version))
            table, _ = self._apply(table, raws[:earlier])
            for raw in raws[earlier:]:
                record = self.codec.decode(table.kind, raw)
                if appended and record.n is not None:  # the next append's first
                    return table, appended
                appended.append(record)
            after = table.version + len(appended)
            if after >= read.version:
                return table, appended

    async def after_conflict(self, table: Fold, lost: AppendResult | None = None) -> Fold:
        """The table to decide on again: after a `lost` race, the winner's records when they
        follow on; else (or without one: the table was not current enough) a read."""
        records = [] if lost is None else lost.records
        if records and lost is not None and lost.version == table.version + len(records):
            held = self._cache.get(table.game_id)
            if held is not None and held.fold.version >= table.version:
                return self._fold_in(held, records)
            return self._apply(table, records)[0]
        return await self.load(table.game_id, rate=False)
