"""The arena's ratings (`kronikas_rules.ratings`): one OpenSkill Plackett–Luce match per
position's ranking, one more set counted per entrant, the leaderboard by `mu - 3 sigma`."""

from __future__ import annotations

import subprocess
import sys

import msgspec
import pytest

from kronikas_rules.ratings import (
    Rating,
    initial,
    interval,
    leaderboard,
    ordinal,
    rate_set,
)


def test_a_new_entrant_is_openskills_default_and_has_played_nothing() -> None:
    new = initial()
    assert (new.mu, new.sigma, new.matches) == (25.0, pytest.approx(25 / 3), 0)
    assert ordinal(new) == pytest.approx(0.0)
    assert interval(new) == pytest.approx((25 - 1.96 * 25 / 3, 25 + 1.96 * 25 / 3))


def test_the_better_place_rises_the_worse_falls_and_both_grow_surer() -> None:
    after = rate_set({}, [[("ilona", 1.0), ("bence", 2.0)]])
    assert after["ilona"].mu > 25 > after["bence"].mu
    assert after["ilona"].sigma < 25 / 3 and after["bence"].sigma < 25 / 3
    assert after["ilona"].mu - 25 == pytest.approx(25 - after["bence"].mu)


def test_tied_places_move_alike_and_shared_places_rank_as_ties() -> None:
    shared = rate_set({}, [[("a", 1.0), ("b", 2.5), ("c", 2.5)]])
    whole = rate_set({}, [[("a", 1.0), ("b", 2.0), ("c", 2.0)]])
    assert shared == whole
    assert shared["b"] == shared["c"] and shared["a"].mu > shared["b"].mu
    even = rate_set({}, [[("a", 1.5), ("b", 1.5)]])
    assert even["a"].mu == pytest.approx(25.0) == even["b"].mu


def test_a_set_counts_once_for_each_of_its_entrants_and_rates_only_them() -> None:
    before = {"house": Rating(30.0, 2.0, 7), "elsewhere": Rating(10.0, 1.0, 3)}
    rankings = [[("house", 1.0), ("bot", 2.0)], [("random", 2.0), ("house", 1.0)]]
    after = rate_set(before, rankings)
    assert set(after) == {"house", "bot", "random"}
    assert (after["house"].matches, after["bot"].matches, after["random"].matches) == (8, 1, 1)
    assert after["house"].mu > 30.0
    assert before["house"] == Rating(30.0, 2.0, 7)


def test_a_ranking_of_one_entrant_rates_nobody_and_a_repeated_entrant_keeps_its_first() -> None:
    alone = rate_set({}, [[("house", 1.0)], [("house", 2.0), ("house", 1.0)]])
    assert alone == {"house": Rating(25.0, 25 / 3, 1)}
    repeated = rate_set({}, [[("a", 2.0), ("b", 1.0), ("a", 1.0)]])
    assert repeated == rate_set({}, [[("a", 2.0), ("b", 1.0)]])


def test_rating_is_deterministic_and_goes_in_ranking_order() -> None:
    rankings = [[("a", 1.0), ("b", 2.0)], [("b", 1.0), ("c", 2.0)], [("c", 1.0), ("a", 2.0)]]
    assert rate_set({}, rankings) == rate_set({}, rankings)
    assert rate_set({}, rankings) != rate_set({}, list(reversed(rankings)))


def test_the_leaderboard_orders_by_ordinal_then_by_name() -> None:
    ratings = {
        "zoltan": Rating(30.0, 1.0, 4),
        "anna": Rating(25.0, 8.0, 1),
        "bela": Rating(27.0, 1.0, 4),
        "aron": Rating(27.0, 1.0, 4),
    }
    assert [name for name, _ in leaderboard(ratings)] == ["zoltan", "aron", "bela", "anna"]


def test_a_rating_travels_as_json() -> None:
    rating = rate_set({}, [[("a", 1.0), ("b", 2.0)]])["a"]
    assert msgspec.json.decode(msgspec.json.encode(rating), type=Rating) == rating


def test_importing_the_rules_loads_no_openskill() -> None:
    code = "import sys, kronikas_rules, kronikas_rules.duplicate; print('openskill' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "False", done.stderr
