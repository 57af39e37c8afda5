"""The arena's ratings: OpenSkill's Plackett–Luce model over duplicate sets (README, "Duplicate
deals and ratings"). Needs the `arena` extra (`openskill`); `import kronikas_rules` does not
load it.

An entrant's `Rating` is a belief about its skill: `mu`, the estimate, and `sigma`, how unsure
it is. Each finished set updates them once: every position's ranking (`duplicate.rankings`, the
entrants who held the same cards, by their places) is one Plackett–Luce match of one-entrant
teams, ties allowed. The leaderboard orders by the conservative `ordinal`, `mu - 3 * sigma`:
an entrant climbs by winning AND by being seen enough to be sure of.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import msgspec
from openskill.models import PlackettLuce, PlackettLuceRating

MU: Final = 25.0
"""A new entrant's `mu` (OpenSkill's default)."""
SIGMA: Final = MU / 3
"""A new entrant's `sigma` (OpenSkill's default)."""
Z95: Final = 1.96
"""Half the width of a 95% interval, in sigmas: `mu ± 1.96 sigma`."""


class Rating(msgspec.Struct, frozen=True):
    """An entrant's rating in one pool: `mu` and `sigma` (OpenSkill's), and `matches`, the sets
    it has played there."""

    mu: float
    sigma: float
    matches: int = 0


def initial() -> Rating:
    """The rating of an entrant that has played no set."""
    return Rating(mu=MU, sigma=SIGMA, matches=0)


def ordinal(rating: Rating) -> float:
    """The conservative skill the leaderboard orders by: `mu - 3 * sigma`."""
    return rating.mu - 3 * rating.sigma


def interval(rating: Rating) -> tuple[float, float]:
    """The rating's 95% interval: `mu ± 1.96 sigma`."""
    return rating.mu - Z95 * rating.sigma, rating.mu + Z95 * rating.sigma


def _dense(places: Sequence[float]) -> list[int]:
    """Places as ranks 1, 2, … with ties kept (`[1, 2.5, 2.5]` → `[1, 2, 2]`): OpenSkill reads
    only their order, and whole numbers are what it is tested on."""
    levels = sorted(set(places))
    return [levels.index(place) + 1 for place in places]


def rate_set(
    ratings: Mapping[str, Rating], rankings: Sequence[Sequence[tuple[str, float]]]
) -> dict[str, Rating]:
    """The ratings after one finished set: each ranking (entrant, place; 1 the best, ties
    shared) one Plackett–Luce match, in the order given, from `ratings` (an entrant missing
    there starts at `initial()`). Every entrant of the set counts one more `matches`, once; a
    ranking of fewer than two distinct entrants rates nobody; an entrant named twice in one
    ranking is ranked by its first place. Only the set's entrants are in the result."""
    model = PlackettLuce()
    current = {name: ratings.get(name, initial()) for ranking in rankings for name, _ in ranking}
    for ranking in rankings:
        seen: dict[str, float] = {}
        for name, place in ranking:
            seen.setdefault(name, place)
        if len(seen) < 2:
            continue
        names = list(seen)
        teams = [[model.rating(mu=current[n].mu, sigma=current[n].sigma)] for n in names]
        rated: list[list[PlackettLuceRating]] = model.rate(
            teams, ranks=[float(r) for r in _dense(list(seen.values()))]
        )
        for name, (after,) in zip(names, rated, strict=True):
            current[name] = Rating(mu=after.mu, sigma=after.sigma, matches=current[name].matches)
    return {
        name: msgspec.structs.replace(rating, matches=rating.matches + 1)
        for name, rating in current.items()
    }


def leaderboard(ratings: Mapping[str, Rating]) -> list[tuple[str, Rating]]:
    """The entrants by `ordinal`, best first; equal ordinals by name."""
    return sorted(ratings.items(), key=lambda item: (-ordinal(item[1]), item[0]))
