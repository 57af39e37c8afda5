"""A table as this process holds it (`Held`): its fold and the memos kept beside it, which only
the fold cache (application/folds.py) touches; and the fold after appended records
(`advanced`)."""

from __future__ import annotations

import msgspec

from kronikas.application.access import seat_in
from kronikas.application.tables import Fold, Keys, Recent, Seen
from kronikas.application.wire import Record


def advanced(table: Fold, state: object, records: list[Record[msgspec.Struct]]) -> Fold:
    """The fold after `table` moved on to `state` by appended `records` (the version of the
    last): a new value; the round's events start again at a deal."""
    if not records:
        return table._replace(state=state)
    deal = table.engine.deal_event
    events = [record.e for record in records]
    for i in range(len(events) - 1, -1, -1):
        if isinstance(events[i], deal):
            round = tuple(events[i:])
            break
    else:
        round = (*table.round, *events)
    last = records[-1]
    return Fold(
        table.game_id,
        table.kind,
        table.engine,
        table.seed,
        last.v,
        state,
        table.created_ms,
        last.at,
        round,
        table.arena,
    )


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
        """Role → the seat it holds in `seats_in`, as looked up for deliveries (`seat_held`):
        every stream's frame asks, and the state changes once a move."""
        self.seats_in: object = None
        """The state `seats` were looked up in: a frozen state, so another one means start
        again."""

    def moved(self, fold: Fold, records: list[Record[msgspec.Struct]], seen: list[Seen]) -> None:
        """The fold moved on to `fold` by `records` (`seen`: their events as kept)."""
        self.fold = fold
        for record in records:
            if record.i is not None:
                self.keys.add(record.i, record.v, record.at)
        self.recent.add(seen)
