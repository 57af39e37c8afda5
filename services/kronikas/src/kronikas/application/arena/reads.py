"""What the arena shows: an entrant's page, a pool's leaderboard, a finished set. Finished sets
only: nothing of a set in play is shown (`set_in_play`)."""

from __future__ import annotations

from kronikas.application.arena import rating
from kronikas.application.arena.entrants import Entrant, Entrants
from kronikas.application.arena.log import ArenaState, Rated
from kronikas.application.arena.wire import (
    ArenaMatch,
    EntrantPage,
    Leaderboard,
    LeaderboardEntry,
    PoolRating,
    RatingChange,
    SetPage,
    SetTable,
)
from kronikas.application.errors import NotFound, SetInPlay


def _pool_rating(kind: str, players: int, rated: Rated) -> PoolRating:
    return PoolRating(
        kind,
        players,
        rated.mu,
        rated.sigma,
        rating.ordinal(rated),
        rated.matches,
        rated.last_played,
    )


def entrant_page(state: ArenaState, entrant: Entrant) -> EntrantPage:
    """An entrant's page: its ratings by pool and its latest matches of finished sets."""
    entrant_id = entrant.entrant_id
    ratings = [
        _pool_rating(kind, players, pool[entrant_id])
        for (kind, players), pool in sorted(state.ratings.items())
        if entrant_id in pool
    ]
    matches = [
        ArenaMatch(
            rated.set_id,
            rated.tables[placed.table],
            rated.kind,
            rated.players,
            placed.seat,
            placed.position,
            placed.place,
            rated.finished_at,
        )
        for rated, placed in state.recent.get(entrant_id, ())
    ]
    return EntrantPage(
        entrant_id,
        entrant.name,
        entrant.games,
        entrant.standing,
        entrant.revoked,
        ratings,
        matches,
        entrant.created_at,
    )


async def leaderboard(
    state: ArenaState, entrants: Entrants, kind: str, players: int, limit: int
) -> Leaderboard:
    """The pool's entrants by ordinal, best first (revoked ones left out)."""
    pool = state.ratings.get((kind, players), {})
    ranked = sorted(
        (e for e in pool if e not in state.revoked),
        key=lambda e: (-rating.ordinal(pool[e]), e),
    )[:limit]
    entries = []
    for rank, entrant_id in enumerate(ranked, start=1):
        try:
            entrant = await entrants.get(entrant_id)
        except NotFound:  # pragma: no cover - an entrant's record outlives its ratings
            continue
        rated = pool[entrant_id]
        entries.append(
            LeaderboardEntry(
                rank,
                entrant_id,
                entrant.name,
                entrant.standing,
                rated.mu,
                rated.sigma,
                rating.ordinal(rated),
                rated.matches,
                rated.last_played,
            )
        )
    return Leaderboard(kind, players, entries)


def set_page(state: ArenaState, set_id: str) -> SetPage:
    """A finished set; 409 `set_in_play` before, 404 for none."""
    rated = state.results.get(set_id)
    if rated is None:
        if set_id in state.in_play:
            raise SetInPlay("This set is still in play: it is shown once all its tables finished.")
        raise NotFound("There is no such set.")
    places: dict[tuple[int, int], float] = {(p.table, p.seat): p.place for p in rated.placed}
    tables = [
        SetTable(table_id, rated.seats[j], [places[(j, s)] for s in range(len(rated.seats[j]))])
        for j, table_id in enumerate(rated.tables)
    ]
    changes = [
        RatingChange(c.entrant, c.before.mu, c.before.sigma, c.after.mu, c.after.sigma)
        for c in rated.changes
    ]
    return SetPage(
        set_id, rated.kind, rated.players, rated.finished_at, tables, rated.rankings, changes
    )
