"""The arena's wire types: what its routes take and answer (docs/api.md, The arena)."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

EntrantId = Annotated[str, msgspec.Meta(description="The entrant's id.")]


class RegisterEntrant(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """An entrant to register: its name and the games it plays."""

    name: Annotated[
        str, msgspec.Meta(description="1 to 40 printable characters, shown on the leaderboard.")
    ]
    games: Annotated[
        list[str],
        msgspec.Meta(min_length=1, max_length=16, description="The kinds it plays."),
    ]


class EntrantCreated(msgspec.Struct, frozen=True):
    """A new entrant, with its token: shown once, kept only as its hash. Send it as
    `Authorization: Bearer <token>` to the queue; `DELETE` the entrant to revoke it."""

    entrant_id: EntrantId
    name: str
    games: list[str]
    token: str
    created_at: str


class PoolRating(msgspec.Struct, frozen=True):
    """An entrant's rating in one pool (kind, players): OpenSkill Plackett–Luce."""

    kind: str
    players: int
    mu: float
    sigma: float
    ordinal: Annotated[float, msgspec.Meta(description="`mu - 3*sigma`: what ranks it.")]
    matches: Annotated[int, msgspec.Meta(description="Sets it played in the pool.")]
    last_played: str | None = None


class ArenaMatch(msgspec.Struct, frozen=True):
    """One table an entrant played in a finished set."""

    set_id: str
    table_id: str
    kind: str
    players: int
    seat: int
    position: Annotated[int, msgspec.Meta(description="The hand position it held.")]
    place: Annotated[float, msgspec.Meta(description="1 best; tied seats share the average.")]
    finished_at: str


class EntrantPage(msgspec.Struct, frozen=True):
    """An entrant: its ratings and its recent matches (of finished sets only)."""

    entrant_id: EntrantId
    name: str
    games: list[str]
    standing: Annotated[
        bool, msgspec.Meta(description="A standing entrant: the house's policy, or random.")
    ]
    revoked: bool
    ratings: list[PoolRating]
    matches: list[ArenaMatch]
    created_at: str | None = None


class QueueRequest(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The pool to wait in: a game and a table size."""

    kind: str
    players: Annotated[int, msgspec.Meta(ge=2, le=8)] = 2


class Ticket(msgspec.Struct, frozen=True, omit_defaults=True):
    """Where an entrant stands: `idle`, `waiting` in a pool, or `seated` at a table of a set
    (then `token` is its seat token there, for it alone)."""

    status: Literal["idle", "waiting", "seated"]
    kind: str | None = None
    players: int | None = None
    since: str | None = None
    set_id: str | None = None
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None


class LeaderboardEntry(msgspec.Struct, frozen=True):
    rank: int
    entrant_id: str
    name: str
    standing: bool
    mu: float
    sigma: float
    ordinal: float
    matches: int
    last_played: str | None = None


class Leaderboard(msgspec.Struct, frozen=True):
    """A pool's entrants by their conservative rating (`ordinal`, `mu - 3*sigma`)."""

    kind: str
    players: int
    entries: list[LeaderboardEntry]


class SetTable(msgspec.Struct, frozen=True):
    table_id: str
    entrants: Annotated[list[str], msgspec.Meta(description="The entrant of each seat.")]
    places: Annotated[list[float], msgspec.Meta(description="Each seat's place.")]


class RatingChange(msgspec.Struct, frozen=True):
    entrant_id: str
    mu_before: float
    sigma_before: float
    mu: float
    sigma: float


class SetPage(msgspec.Struct, frozen=True):
    """A finished set: its tables, each hand position's ranking, and the ratings it changed."""

    set_id: str
    kind: str
    players: int
    finished_at: str
    tables: list[SetTable]
    rankings: Annotated[
        list[list[list[str]]],
        msgspec.Meta(
            description="Per hand position: its holders from best to worst, tied ones together."
        ),
    ]
    changes: list[RatingChange]
