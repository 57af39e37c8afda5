"""The arena's decisions, as events of one log in Redis, and the fold every process makes of it.

Every decision of the arena — an entrant queued, left or dropped, a set formed and opened, a
table of it finished, a set rated — is an event appended at an expected version (one log for
every pool, so that an entrant is in at most one queue or set at once, across pools too). Each
process folds the log (`ArenaState.apply`), keeping its fold by version; a decision is made on
a fold and appended at its version, so two processes never both seat an entrant and a set is
rated exactly once. `decide` computes every derived fact (the seats, the rating changes) and
puts it in the event: folding only assigns.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Union

import msgspec

RECENT_MATCHES = 20
"""How many of an entrant's latest matches its page lists."""


class ArenaEvent(msgspec.Struct, frozen=True, tag_field="type"):
    """One decision of the arena."""


class Queued(ArenaEvent, frozen=True, tag="queued"):
    entrant: str
    kind: str
    players: int
    owner: str
    """Who registered the entrant (a hash of its address): never shown."""
    at_ms: int


class Left(ArenaEvent, frozen=True, tag="left"):
    entrant: str
    reason: str
    """`left` (asked to), `dropped` (stopped polling), `revoked`."""


class Revoked(ArenaEvent, frozen=True, tag="revoked"):
    entrant: str


class SetFormed(ArenaEvent, frozen=True, tag="set_formed"):
    """Entrants claimed for a set: `seats[j][s]` holds seat `s` of table `j`."""

    set_id: str
    kind: str
    players: int
    seats: list[list[str]]
    at_ms: int


class SetOpened(ArenaEvent, frozen=True, tag="set_opened"):
    """The set's tables were made and started: `tables[j]` is table `j`."""

    set_id: str
    tables: list[str]


class SetAbandoned(ArenaEvent, frozen=True, tag="set_abandoned"):
    """A set whose tables were never opened in time: its entrants are free again."""

    set_id: str


class TableFinished(ArenaEvent, frozen=True, tag="table_finished"):
    """A table of a set finished: its entrants may queue again."""

    set_id: str
    table: int


class Rated(msgspec.Struct, frozen=True):
    """An entrant's rating in a pool."""

    mu: float
    sigma: float
    matches: int = 0
    last_played: str | None = None


class Change(msgspec.Struct, frozen=True):
    entrant: str
    before: Rated
    after: Rated


class Placed(msgspec.Struct, frozen=True):
    """Where an entrant finished at one table of a set, holding one hand position."""

    entrant: str
    table: int
    seat: int
    position: int
    place: float


class SetRated(ArenaEvent, frozen=True, tag="set_rated"):
    """The whole set finished and its rankings updated the pool's ratings (once)."""

    set_id: str
    kind: str
    players: int
    tables: list[str]
    seats: list[list[str]]
    placed: list[Placed]
    rankings: list[list[list[str]]]
    """Per position: its holders from best to worst, tied ones in one group."""
    changes: list[Change]
    finished_at: str


Event = Union[  # noqa: UP007 - a tagged union msgspec decodes
    Queued, Left, Revoked, SetFormed, SetOpened, SetAbandoned, TableFinished, SetRated
]
encode = msgspec.json.Encoder().encode
decode_event = msgspec.json.Decoder(Event).decode


@dataclass(frozen=True)
class Waiting:
    kind: str
    players: int
    owner: str
    since_ms: int


@dataclass
class InPlay:
    """A set formed, its tables opened or not yet."""

    set_id: str
    kind: str
    players: int
    seats: list[list[str]]
    formed_ms: int
    tables: list[str] | None = None
    finished: set[int] = field(default_factory=set)


@dataclass
class ArenaState:
    """The arena as its log says at `version`."""

    version: int = 0
    waiting: dict[str, Waiting] = field(default_factory=dict)
    seated: dict[str, tuple[str, int]] = field(default_factory=dict)
    """A real entrant at an unfinished table: its set and table."""
    in_play: dict[str, InPlay] = field(default_factory=dict)
    ratings: dict[tuple[str, int], dict[str, Rated]] = field(default_factory=dict)
    revoked: set[str] = field(default_factory=set)
    results: dict[str, SetRated] = field(default_factory=dict)
    recent: dict[str, deque[tuple[SetRated, Placed]]] = field(default_factory=dict)

    def apply(self, event: ArenaEvent) -> None:
        """Fold one event in (the state changes in place: a fold is one process's own)."""
        self.version += 1
        match event:
            case Queued():
                self.waiting[event.entrant] = Waiting(
                    event.kind, event.players, event.owner, event.at_ms
                )
            case Left() | Revoked():
                self.waiting.pop(event.entrant, None)
                if isinstance(event, Revoked):
                    self.revoked.add(event.entrant)
            case SetFormed():
                self.in_play[event.set_id] = InPlay(
                    event.set_id, event.kind, event.players, event.seats, event.at_ms
                )
                for j, table in enumerate(event.seats):
                    for entrant in table:
                        if self.waiting.pop(entrant, None) is not None:
                            self.seated[entrant] = (event.set_id, j)
            case SetOpened():
                if (held := self.in_play.get(event.set_id)) is not None:
                    held.tables = list(event.tables)
            case SetAbandoned():
                if (held := self.in_play.pop(event.set_id, None)) is not None:
                    self._free(held, range(len(held.seats)))
            case TableFinished():
                if (held := self.in_play.get(event.set_id)) is not None:
                    held.finished.add(event.table)
                    self._free(held, [event.table])
            case SetRated():
                self._rated(event)

    def _free(self, held: InPlay, tables: object) -> None:
        for j in tables:  # type: ignore[attr-defined]
            for entrant in held.seats[j]:
                if self.seated.get(entrant) == (held.set_id, j):
                    del self.seated[entrant]

    def _rated(self, event: SetRated) -> None:
        held = self.in_play.pop(event.set_id, None)
        if held is not None:
            self._free(held, range(len(held.seats)))
        pool = self.ratings.setdefault((event.kind, event.players), {})
        for change in event.changes:
            pool[change.entrant] = change.after
        self.results[event.set_id] = event
        for placed in event.placed:
            self.recent.setdefault(placed.entrant, deque(maxlen=RECENT_MATCHES)).appendleft(
                (event, placed)
            )

    def busy(self, entrant: str) -> bool:
        """Queued or at an unfinished table."""
        return entrant in self.waiting or entrant in self.seated
