"""The folds this process holds: tables read from the store, kept current by the change feed."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Union

import msgspec

from kronikas.application.access import role_of, seat_in, seated
from kronikas.application.engines import Registry
from kronikas.application.errors import Unavailable, rate_limited
from kronikas.application.ids import no_table, table_id
from kronikas.application.ports import ChangeFeed, EventLog
from kronikas.application.tables import Fold
from kronikas.application.wire import Record, ms_of

_CACHE_SIZE = 4096
READ_PAGE = 1_000
"""The most events one read of a log asks for: a table not held here is read in pages of this
many, folded as they come, so that no single store call carries a whole log (a table keeps up
to its engine's `event_cap` events)."""


class Codec:
    """Per-game decoders of stored records, one for each game of `engines`."""

    def __init__(self, engines: Registry) -> None:
        self._decoders: dict[str, msgspec.json.Decoder[Record[msgspec.Struct]]] = {
            kind: msgspec.json.Decoder(Record[Union[game.events]])  # type: ignore[name-defined]  # noqa: UP007
            for kind, game in engines.items()
        }
        self._first = msgspec.json.Decoder(Record[msgspec.Raw])

    def first(self, raw: bytes) -> Record[msgspec.Raw]:
        """The first record, without its event: which engine reads the log, the seed, when."""
        return self._first.decode(raw)

    def decode(self, kind: str, raw: bytes) -> Record[msgspec.Struct]:
        return self._decoders[kind].decode(raw)


class Folds:
    """The tables this process holds: one repository in front of a bounded cache of folds,
    each up to the version this process last saw, of the games of `engines` (a table of a game
    not among them is unreadable here).

    Its verbs: the table and the caller's role for a token (`for_token`), the table as the
    change feed vouches for it (`followed`) or as the store has it (`load`), after a lost race
    (`after_conflict`); an append in flight from here (`expect`, `expected`). Only it touches
    a table's memos (`seat_held`)."""

    def __init__(self, log: EventLog, changes: ChangeFeed, engines: Registry) -> None:
        self.log = log
        self.changes = changes
        self.engines = engines
        self.codec = Codec(engines)
        self._cache: OrderedDict[str, Fold] = OrderedDict()
        self._gaps = 0
        """Appends heard that could not be folded in (counted, so a read can tell it missed one)."""
        self._reading: dict[str, asyncio.Task[Fold]] = {}
        """Tables being read for their followers, each read shared by all of them."""
        self._own: dict[str, tuple[Fold, Sequence[bytes], Callable[[], None]]] = {}
        """Appends this process has in flight: the fold they follow on from, their records, and
        how to fold them in without decoding them (the command made the state already)."""
        changes.listen(self._heard)

    def expect(self, table: Fold, records: Sequence[bytes], fold: Callable[[], None]) -> None:
        """An append of `records` to `table` is in flight from here: should the change feed
        bring it before its answer does, `fold` folds it in (it must do nothing once the table
        moved on)."""
        self._own[table.game_id] = (table, records, fold)

    def expected(self, game_id: str, records: Sequence[bytes]) -> None:
        """The append of `records` has its answer."""
        own = self._own.get(game_id)
        if own is not None and own[1] is records:
            del self._own[game_id]

    def held(self, game_id: str) -> Fold | None:
        """The fold held here, as it is (it may be behind the store)."""
        return self._cache.get(game_id)

    def seat_held(self, table: Fold, role: str | None) -> int | None:
        """The seat `role` holds in the table as this process holds it now (`seat_in`), looked
        up once a state: each stream of the table asks for every frame."""
        if role is None:
            return None
        if table.seats_in is not table.state:
            table.seats.clear()
            table.seats_in = table.state
        try:
            return table.seats[role]
        except KeyError:
            seat = table.seats[role] = seat_in(table.engine, table.state, role)
            return seat

    def seated_now(self, table: Fold, role: str | None) -> int | None:
        """The seat a reader's role holds now (None: the host, a spectator); 401 when its player
        left the table before the start (`access.seated`)."""
        return seated(self.seat_held(table, role), role)

    async def for_token(self, game_id: str, token_hash: str) -> tuple[Fold, str, bool]:
        """The table, the role of a token it knows, and whether the table was just read: the
        fold held here when it knows the token (a token is not asked about again), else read;
        401 when the token is not the table's."""
        table = self._cache.get(game_id)
        if table is not None and token_hash in table.roles:
            return table, table.roles[token_hash], False
        table = await self.load(game_id, token_hash, rate=False)
        return table, role_of(table, token_hash), True

    def remember(self, table: Fold, round: Sequence[msgspec.Struct] = ()) -> None:
        """Hold `table` here (the least recently used beyond the cache's size go); `round`: the
        events of a table just made, which its round starts with."""
        table.round.extend(round)
        self._cache[table.game_id] = table
        self._cache.move_to_end(table.game_id)
        while len(self._cache) > _CACHE_SIZE:
            self._cache.popitem(last=False)

    def _new_table(self, game_id: str, first: bytes) -> Fold:
        head = self.codec.first(first)
        kind = head.k or ""
        engine = self.engines.get(kind)
        if engine is None:
            raise Unavailable(f"table {game_id} has an unreadable log")
        # The first event assigns the table's options: fold it into any lobby.
        created = self.codec.decode(kind, first).e
        state = engine.evolve(engine.initial_state(engine.options(), False), created)
        return Fold(game_id, kind, engine, head.seed, 1, state, ms_of(head.at))

    def apply(self, table: Fold, records: Sequence[bytes]) -> None:
        """Fold stored records into the table (those it holds already are skipped)."""
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
        table.fold(state, version, folded)

    def _heard(self, game_id: str, version: int, records: list[bytes]) -> None:
        """An append heard on the change feed: fold it into the cached table, if it follows on."""
        table = self._cache.get(game_id)
        if table is None or version <= table.version:
            return  # not held here, or our own append (already folded)
        own = self._own.get(game_id)
        if (
            own is not None
            and own[0] is table  # else the cache holds a newer read of the table: decode
            and version == table.version + len(records)
            and own[1] == records
        ):
            own[2]()  # our own append, heard before its answer came back
            return
        try:
            if not records:
                raise Unavailable("only the version was heard")
            self.apply(table, records)
        except Unavailable:  # a gap: the next reader reads
            table.live = None
            self._gaps += 1

    def vouched(self, game_id: str) -> Fold | None:
        """The table held here when the change feed vouches that it is current, else None."""
        table = self._cache.get(game_id)
        generation = self.changes.generation(game_id)
        if table is not None and generation is not None and table.live == generation:
            return table
        return None

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
        if generation is not None and unbroken:
            table.live = generation
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
        round trip."""
        table = self._cache.get(table_id(game_id))
        after = table.version if table else 0
        result = await self.log.read(game_id, after, token_hash, READ_PAGE, rate, cost)
        if result.retry_after_ms:
            raise rate_limited(result.retry_after_ms)
        role = result.role
        while True:
            if table is not None and 0 < result.version < table.version:
                # the log was replaced (expired and made again): read over
                result = await self.log.read(game_id, 0, "", READ_PAGE, False)
                table = None
            if result.version == 0:
                self._cache.pop(game_id, None)
                raise no_table(game_id)
            if table is None:
                table = self._new_table(game_id, result.records[0])
                self.apply(table, result.records[1:])
            else:
                self.apply(table, result.records)
            if table.version >= result.version or not result.records:
                break
            # the next page, from what is folded: the log may have grown meanwhile
            result = await self.log.read(game_id, table.version, "", READ_PAGE, False)
        if role:
            table.roles[token_hash] = role
        self.remember(table)
        return table

    async def before(self, game_id: str, first: int) -> tuple[Fold, list[Record[msgspec.Struct]]]:
        """The table read from the store as it was before the append whose first event is at
        `first` (a table of its own, not kept), and that append's records: up to the next
        append's first (each carries its nonce). For answering a replay."""
        read = await self.log.read(game_id, 0, "", READ_PAGE, False)
        if not read.records:
            raise no_table(game_id)
        table = self._new_table(game_id, read.records[0])
        raws = read.records[1:]
        appended: list[Record[msgspec.Struct]] = []
        while raws:
            # a log's record is at its version's place: those before `first` fold unread
            earlier = max(0, min(len(raws), first - 1 - table.version))
            self.apply(table, raws[:earlier])
            for raw in raws[earlier:]:
                record = self.codec.decode(table.kind, raw)
                if appended and record.n is not None:  # the next append's first
                    return table, appended
                appended.append(record)
            if table.version + len(appended) >= read.version:
                break
            read = await self.log.read(game_id, table.version + len(appended), "", READ_PAGE, False)
            raws = read.records
        return table, appended

    async def after_conflict(self, table: Fold, records: list[bytes], version: int) -> Fold:
        """The table after a lost race: the winner's records when they follow on, else a read."""
        if records and version == table.version + len(records):
            self.apply(table, records)
            return table
        return await self.load(table.game_id, rate=False)
