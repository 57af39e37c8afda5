"""Forming sets, as a pure function of the arena's fold: nearest ratings together, owners
apart, standing entrants never twice at a table nor in a position."""

from __future__ import annotations

import pytest

from kronikas.application.arena import rating
from kronikas.application.arena.log import ArenaState, Queued, Rated
from kronikas.application.arena.matchmaking import form, seat_set, standing_of
from kronikas_rules.duplicate import position


def waiting(*entrants: tuple[str, str], at: int = 0, players: int = 2) -> ArenaState:
    state = ArenaState()
    for entrant, owner in entrants:
        state.apply(Queued(entrant, "game", players, owner, at))
    return state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_standing_entrants_never_meet_themselves(players: int) -> None:
    least = max(1, players * players - 2 * players)
    for real in range(least, players * players + 1):
        seats = seat_set([f"en_{i}" for i in range(real)], "game", players)
        assert sorted(e for row in seats for e in row if e.startswith("en_")) == sorted(
            f"en_{i}" for i in range(real)
        )
        for row in seats:
            assert len(set(row)) == players
        for p in range(players):
            holders = [seats[j][(p - j) % players] for j in range(players)]
            assert len(set(holders)) == players
            assert all(position((p - j) % players, j, players) == p for j in range(players))
        assert {standing_of(e) is not None for row in seats for e in row} <= {True, False}


def test_a_full_set_forms_at_once_and_a_short_one_after_the_wait() -> None:
    state = waiting(*((f"en_{i}", f"o{i}") for i in range(3)), at=1000)
    assert form(state, "game", 2, 1000, 15_000, rating.ordinal) == []
    (seats,) = form(state, "game", 2, 16_000, 15_000, rating.ordinal)
    assert sum(standing_of(e) is not None for row in seats for e in row) == 1
    state.apply(Queued("en_3", "game", 2, "o3", 1000))
    (full,) = form(state, "game", 2, 1000, 15_000, rating.ordinal)
    assert all(standing_of(e) is None for row in full for e in row)


def test_nearest_ratings_go_together_and_one_owner_once_a_set() -> None:
    state = waiting(*((f"en_{i}", f"o{i}") for i in range(8)))
    pool = state.ratings.setdefault(("game", 2), {})
    for i in range(8):
        pool[f"en_{i}"] = Rated(10.0 + i, 1.0)
    first, second = form(state, "game", 2, 0, 15_000, rating.ordinal)
    assert {e for row in first for e in row} == {"en_7", "en_6", "en_5", "en_4"}
    assert {e for row in second for e in row} == {"en_3", "en_2", "en_1", "en_0"}
    same = waiting(("en_a", "x"), ("en_b", "x"), ("en_c", "y"), ("en_d", "z"))
    sets = form(same, "game", 2, 10**9, 0, rating.ordinal)
    for seats in sets:
        owners = [e for row in seats for e in row if e in ("en_a", "en_b")]
        assert len(owners) <= 1


def test_a_pool_of_three_waits_for_three_real_entrants() -> None:
    state = waiting(("en_1", "a"), ("en_2", "b"), players=3)
    assert form(state, "game", 3, 10**9, 0, rating.ordinal) == []
    state.apply(Queued("en_3", "game", 3, "c", 0))
    assert len(form(state, "game", 3, 10**9, 0, rating.ordinal)) == 1
