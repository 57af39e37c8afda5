"""A finished set's rankings, and the ratings they update (OpenSkill Plackett–Luce, on the rules
package's `kronikas_rules.ratings`): decided once, by whichever process appends `SetRated`."""

from __future__ import annotations

from kronikas.application.arena.log import Change, InPlay, Placed, Rated, SetRated
from kronikas.application.arena.matchmaking import position

MU, SIGMA = 25.0, 25.0 / 3
"""A new entrant's rating (OpenSkill's defaults)."""


def initial() -> Rated:
    return Rated(MU, SIGMA)


def ordinal(rated: Rated | None) -> float:
    """The conservative rating the leaderboard orders by: `mu - 3*sigma`."""
    rated = rated or initial()
    return rated.mu - 3 * rated.sigma


def placed(held: InPlay, places: list[list[float]]) -> list[Placed]:
    """Where each entrant of the set finished, at each of its tables."""
    n = held.players
    return [
        Placed(entrant, j, s, position(s, j, n), places[j][s])
        for j, row in enumerate(held.seats)
        for s, entrant in enumerate(row)
    ]


def rankings(held: InPlay, places: list[list[float]]) -> list[list[list[str]]]:
    """Per hand position, its holders (one a table) from best to worst, tied ones together."""
    n = held.players
    found: list[list[list[str]]] = []
    for p in range(n):
        holders = [(places[j][(p - j) % n], held.seats[j][(p - j) % n]) for j in range(n)]
        groups: dict[float, list[str]] = {}
        for place, entrant in sorted(holders):
            groups.setdefault(place, []).append(entrant)
        found.append(list(groups.values()))
    return found


def rate(
    held: InPlay,
    tables: list[str],
    places: list[list[float]],
    pool: dict[str, Rated],
    finished_at: str,
) -> SetRated:
    """The set's `SetRated`: its places, rankings and the ratings they change."""
    ranked = rankings(held, places)
    entrants = sorted({e for row in held.seats for e in row})
    before = {e: pool.get(e) or initial() for e in entrants}
    after = _updated(before, ranked)
    changes = [
        Change(
            e,
            before[e],
            Rated(after[e].mu, after[e].sigma, before[e].matches + 1, finished_at),
        )
        for e in entrants
    ]
    return SetRated(
        held.set_id,
        held.kind,
        held.players,
        tables,
        held.seats,
        placed(held, places),
        ranked,
        changes,
        finished_at,
    )


def _updated(before: dict[str, Rated], ranked: list[list[list[str]]]) -> dict[str, Rated]:
    """The ratings after the set's rankings, each one match (until the rules package's
    `ratings` lands: unchanged)."""
    return dict(before)
