"""A finished set's rankings, and the ratings they update: the rules package's duplicate
rankings and OpenSkill Plackett–Luce ratings (`kronikas_rules.duplicate`, `.ratings`), decided
once, by whichever process appends `SetRated`."""

from __future__ import annotations

from kronikas.application.arena.log import Change, InPlay, Placed, Rated, SetRated
from kronikas_rules import duplicate, ratings


def initial() -> Rated:
    start = ratings.initial()
    return Rated(start.mu, start.sigma)


def ordinal(rated: Rated | None) -> float:
    """The conservative rating the leaderboard orders by: `mu - 3*sigma`."""
    rated = rated or initial()
    return ratings.ordinal(ratings.Rating(rated.mu, rated.sigma, rated.matches))


def placed(held: InPlay, places: list[list[float]]) -> list[Placed]:
    """Where each entrant of the set finished, at each of its tables."""
    n = held.players
    return [
        Placed(entrant, j, s, duplicate.position(s, j, n), places[j][s])
        for j, row in enumerate(held.seats)
        for s, entrant in enumerate(row)
    ]


def grouped(ranking: list[tuple[str, float]]) -> list[list[str]]:
    """A position's ranking from best to worst, entrants tied in one group."""
    groups: dict[float, list[str]] = {}
    for entrant, place in sorted(ranking, key=lambda ep: (ep[1], ep[0])):
        groups.setdefault(place, []).append(entrant)
    return list(groups.values())


def rate(
    held: InPlay,
    tables: list[str],
    places: list[list[float]],
    pool: dict[str, Rated],
    finished_at: str,
) -> SetRated:
    """The set's `SetRated`: its places, each position's ranking, the ratings they change."""
    ranked = duplicate.rankings(held.seats, places)
    before = {e: pool.get(e) or initial() for row in held.seats for e in row}
    after = ratings.rate_set(
        {e: ratings.Rating(r.mu, r.sigma, r.matches) for e, r in before.items()}, ranked
    )
    changes = [
        Change(e, before[e], Rated(r.mu, r.sigma, r.matches, finished_at))
        for e, r in sorted(after.items())
    ]
    return SetRated(
        held.set_id,
        held.kind,
        held.players,
        tables,
        held.seats,
        placed(held, places),
        [grouped(r) for r in ranked],
        changes,
        finished_at,
    )
