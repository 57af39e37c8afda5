"""The arena ranks by strength (issue 45, item 5): players of known strength — the house, the
example bots' good bot, a uniformly random player — play seeded duplicate sets in-process on
the rules package (`Table` dealt by `SharedDeal`, `places`, `duplicate.rankings`,
`ratings.rate_set`), and the leaderboard orders them as `benchmarks/house_strength.py` measured
them (the house above the good bot, both far above random), their 95% intervals apart."""

from __future__ import annotations

import pytest

from benchmarks import arena_players
from benchmarks.arena_players import STRENGTHS, arena_rankings
from kronikas_rules.ratings import Rating, interval, leaderboard, rate_set


def _arena(kind: str, sets: int, seed: int) -> list[tuple[str, Rating]]:
    """The leaderboard after `sets` seeded sets (the arena's layouts, in turn)."""
    ratings: dict[str, Rating] = {}
    for number in range(sets):
        ratings.update(rate_set(ratings, arena_rankings(kind, number, seed)))
    return leaderboard(ratings)


def _apart(above: Rating, below: Rating) -> bool:
    return interval(above)[0] > interval(below)[1]


def test_cheat_ranks_the_house_then_the_good_bot_then_random_with_intervals_apart() -> None:
    board = _arena("cheat", 40, seed=7)
    assert [name for name, _ in board] == list(STRENGTHS)
    (_, house), (_, good), (_, random) = board
    assert _apart(house, good) and _apart(good, random)
    assert house.matches == good.matches == random.matches == 40


def test_thirty_one_ranks_them_in_order_and_random_apart_in_seconds() -> None:
    # Thirty-One's house beats the good bot less often than Cheat's (65% to 78% of matches at
    # the default options): in seconds of one-life matches the order is found, and random
    # set apart; the house's interval leaves the good bot's only after many more sets
    # (benchmarks/arena_ranking.py).
    assert arena_players.OPTIONS["thirty_one"] == {"lives": 1}
    board = _arena("thirty_one", 150, seed=7)
    assert [name for name, _ in board] == list(STRENGTHS)
    (_, house), (_, good), (_, random) = board
    assert _apart(good, random) and house.mu > good.mu


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_a_seeded_arena_rates_the_same_twice(kind: str) -> None:
    assert _arena(kind, 3, seed=11) == _arena(kind, 3, seed=11)
