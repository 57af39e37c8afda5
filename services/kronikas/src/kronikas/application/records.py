"""A table's record and the views it served at past versions (docs/api.md, Records): what a
replay is made of, read as any viewer's events are.

The record is the asker's events page with the table beside it and the openings its events
hold; a past view is made from the table folded to that version, for the seat the asker's token
held then (a player who had not sat down yet sees what a spectator saw), exactly as it was
served live: the same state, the same `at`, the same view function. Nothing is made from what
the viewer may know now, so a past view never shows a card it could not see then.

What they cost (docs/api.md, Rate limits): a record page is paid as an events page
(`read_cost` of the events it carries); a page of past views as that many views (one each).
Folding a table to a past version reads its log from a checkpoint: this process keeps folds of
the tables it replayed at every `CHECKPOINT_EVERY` versions and where each page ended, so that
paging through a record reads each event about once.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

import msgspec

from kronikas.application.errors import NotFound, Unavailable
from kronikas.application.folds import READ_PAGE
from kronikas.application.ids import NO_TABLE
from kronikas.application.queries import Queries
from kronikas.application.session import page_after, seat_view
from kronikas.application.tables import Fold, seat_in
from kronikas.application.wire import record_json, views_json

CHECKPOINT_EVERY = 500
"""A fold of a replayed table is kept at every this many versions."""
CHECKPOINT_TABLES = 64
"""How many tables' checkpoints this process keeps (the least recently replayed go first)."""
PAGE_ENDS = 4
"""How many folds where a page of past views ended are kept a table: the next page starts
there."""


class _Openings(msgspec.Struct):
    openings: list[msgspec.Raw] | None = None


class _Opened(msgspec.Struct):
    """What a record reads of an event on the wire: the openings its `data` holds."""

    data: _Openings


_opened = msgspec.json.Decoder(_Opened)


def openings_of(events: Sequence[bytes]) -> list[bytes]:
    """Every opening the events (as a viewer was given them) hold, in their order."""
    found: list[bytes] = []
    for event in events:
        openings = _opened.decode(event).data.openings
        if openings:
            found.extend(bytes(opening) for opening in openings)
    return found


class _Table(msgspec.Struct):
    """What a record says of its table, read from the asker's view as it was served."""

    id: msgspec.Raw
    kind: msgspec.Raw
    options: msgspec.Raw
    seeded: msgspec.Raw
    players: msgspec.Raw
    status: msgspec.Raw


_table = msgspec.json.Decoder(_Table)


def seat_then(table: Fold, role: str | None) -> int | None:
    """The seat `role` held in the table at its version (None: the host, a spectator, and a
    player who had not sat down yet); a seat-number role of an old table before that seat was
    taken holds none."""
    seat = seat_in(table.engine, table.state, role)
    if seat is not None and seat >= table.engine.standing(table.state).players:
        return None
    return seat


class Checkpoints:
    """Folds of tables at past versions, kept to replay from: for each table (its id and when it
    was made: a log made again under the same id starts afresh), one every `CHECKPOINT_EVERY`
    versions and the last `PAGE_ENDS` where a page ended."""

    def __init__(self) -> None:
        self._tables: OrderedDict[tuple[str, int], dict[int, Fold]] = OrderedDict()

    def before(self, table: Fold, version: int) -> Fold | None:
        """The latest fold kept of `table` at `version` or before, if any."""
        kept = self._tables.get((table.game_id, table.created_ms))
        if not kept:
            return None
        self._tables.move_to_end((table.game_id, table.created_ms))
        best = max((v for v in kept if v <= version), default=None)
        return None if best is None else kept[best]

    def keep(self, fold: Fold, page_end: bool = False) -> None:
        """Keep `fold` when it is at a checkpoint's version, or ends a page (`page_end`)."""
        if fold.version % CHECKPOINT_EVERY and not page_end:
            return
        key = (fold.game_id, fold.created_ms)
        kept = self._tables.get(key)
        if kept is None:
            kept = self._tables[key] = {}
            while len(self._tables) > CHECKPOINT_TABLES:
                self._tables.popitem(last=False)
        kept[fold.version] = fold
        ends = sorted(v for v in kept if v % CHECKPOINT_EVERY)
        for version in ends[:-PAGE_ENDS]:
            del kept[version]


class Records:
    """The record of a table and its past views, as one viewer may see them."""

    def __init__(self, queries: Queries) -> None:
        self.queries = queries
        self.folds = queries.folds
        self.checkpoints = Checkpoints()

    async def record(
        self, game_id: str, token: str | None, after: int, limit: int, client: str | None = None
    ) -> bytes:
        """A page of the table's record after `after` (`limit` events at most) as the token's
        holder may see it, paid as an events page."""
        queries, folds = self.queries, self.folds
        cost = queries.page_cost(game_id, after, limit)
        table, role = await queries.reader(game_id, token, client, cost)
        seat = folds.seated_now(table, role)
        delivered, version = await page_after(folds, table, after, seat, limit)
        events = [d.json for d in delivered]
        more = bool(delivered) and delivered[-1].version < version
        about = _table.decode(seat_view(table, seat).body)
        return record_json(about, events, openings_of(events), version, more)

    async def views(
        self, game_id: str, token: str | None, after: int, limit: int, client: str | None = None
    ) -> bytes:
        """The views the token's holder was served at the versions after `after` (`limit` at
        most), paid as that many views."""
        queries = self.queries
        cost = max(1, queries.page_size(game_id, after, limit))  # one a view, as `look`
        table, role = await queries.reader(game_id, token, client, cost)
        last = min(table.version, after + limit)
        past = await self._past(table, after, last) if after < last else []
        views = [seat_view(fold, seat_then(fold, role)).body for fold in past]
        return views_json(views, table.version, last < table.version)

    async def _past(self, table: Fold, after: int, last: int) -> list[Fold]:
        """The table folded to each version after `after` up to `last`, read from the store
        from the latest checkpoint at `after` or before."""
        folds, game_id = self.folds, table.game_id
        fold = self.checkpoints.before(table, after)
        past: list[Fold] = []
        while (at := 0 if fold is None else fold.version) < last:
            read = await folds.log.read(game_id, at, "", min(READ_PAGE, last - at), False)
            if not read.records:
                break  # the log is shorter than the table read: it expired meanwhile
            for raw in read.records:
                if fold is None:
                    fold = folds.new_table(game_id, raw)
                else:
                    record = folds.codec.decode(fold.kind, raw)
                    if record.v != fold.version + 1:
                        raise Unavailable(f"table {game_id}: event {record.v} after {fold.version}")
                    # What the views need; not the round's events, which only the house reads.
                    state = fold.engine.evolve(fold.state, record.e)
                    fold = fold._replace(version=record.v, state=state, at=record.at)
                self.checkpoints.keep(fold)
                if fold.version > after:
                    past.append(fold)
        if fold is None:
            raise NotFound(NO_TABLE.format(game_id))
        self.checkpoints.keep(fold, page_end=True)
        return past
