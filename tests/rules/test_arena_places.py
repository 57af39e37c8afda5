"""Places at a finished table (`Engine.places`, `Table.places()`): what the arena ranks by and
the environments reward by — Cheat by its match points, Thirty-One by when a seat went out, High
Card (the test game) by rounds won; tied seats share the average of the places they span."""

from __future__ import annotations

import random

import msgspec
import pytest

from kronikas_rules.cheat.events import CheatMatchEnded
from kronikas_rules.envs import cheat as cheat_env
from kronikas_rules.envs import thirty_one as thirty_one_env
from kronikas_rules.envs.decisions import place_rewards
from kronikas_rules.places import seat_count, shared_places
from kronikas_rules.seating import Leave, PlayerJoined, PlayerLeft
from kronikas_rules.table import Table
from kronikas_rules.thirty_one.events import ThirtyOneMatchEnded, ThirtyOneRoundEnded
from tests.third_game.engine import ENGINE as HIGH_CARD
from tests.third_game.events import HighCardMatchEnded, HighCardRoundEnded


def _house_match(table: Table, seed: int) -> Table:
    """The house for every seat, the waiting seat's move (or the lowest seat's answer) first."""
    rng = random.Random(seed)
    while not table.finished:
        wishes = [(s, table.house(s, rng)) for s in sorted(table.to_act())]
        answers = [(s, c) for s, c in wishes if isinstance(c, table.engine.answers)]
        moves = [(s, c) for s, c in wishes if s == table.waiting_for and c is not None]
        seat, command = (answers or moves)[0]
        assert command is not None and not isinstance(command, Leave)
        table.play(seat, command)
    return table


def _joins(n: int) -> list[msgspec.Struct]:
    return [PlayerJoined(player_id=f"p{s}", name=f"P{s}", seat=s) for s in range(n)]


def _out(round: int, out: list[int], lives: list[int]) -> ThirtyOneRoundEnded:
    n = len(lives)
    return ThirtyOneRoundEnded(
        round=round,
        hands=[None] * n,
        scores=[None] * n,
        lost_life=out,
        out=out,
        three_aces=None,
        lives=lives,
    )


def test_shared_places_give_ties_the_average_of_the_places_they_span() -> None:
    assert shared_places([7, 3]) == [1, 2]
    assert shared_places([5, 5]) == [1.5, 1.5]
    assert shared_places([4, 3, 3, 0]) == [1, 2.5, 2.5, 4]
    assert shared_places([1, 9, 1]) == [2.5, 1, 2.5]


def test_a_seat_left_in_the_lobby_is_no_seat_one_left_after_the_start_still_is() -> None:
    lobby_leave = PlayerLeft(seat=1, player_id="p1", started=False)
    played_leave = PlayerLeft(seat=0, player_id="p0", started=True)
    assert seat_count([*_joins(3), lobby_leave]) == 2
    assert seat_count([*_joins(3), played_leave]) == 3


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_a_table_is_placed_only_once_its_match_is_over(kind: str) -> None:
    table = Table(kind, 2, seed=3)
    with pytest.raises(ValueError, match="not over"):
        table.places()
    with pytest.raises(ValueError, match="not ended"):
        table.engine.places(table.events)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_cheat_places_by_the_match_points(seed: int) -> None:
    table = _house_match(Table("cheat", 3, seed=seed, options={"rounds": 2}), seed)
    end = next(e for e in table.events if isinstance(e, CheatMatchEnded))
    assert table.places() == shared_places([float(p) for p in end.points])
    assert table.places() == table.engine.places(table.events)
    assert cheat_env.rewards(table) == place_rewards([float(p) for p in end.points])


@pytest.mark.parametrize("seed", [1, 2])
def test_thirty_one_places_the_winner_first_and_seats_by_when_they_went_out(seed: int) -> None:
    table = _house_match(Table("thirty_one", 3, seed=seed, options={"lives": 1}), seed)
    end = next(e for e in table.events if isinstance(e, ThirtyOneMatchEnded))
    places = table.places()
    assert [places[w] for w in end.winners] == [1]
    out_round = {s: r for r, e in enumerate(_round_ends(table), 1) for s in e.out}
    for a in range(3):
        for b in range(3):
            if a in out_round and b in out_round and out_round[a] < out_round[b]:
                assert places[a] > places[b]
    assert sum(places) == 6
    assert thirty_one_env.rewards(table) == [1 - (p - 1) for p in places]


def _round_ends(table: Table) -> list[ThirtyOneRoundEnded]:
    return [e for e in table.events if isinstance(e, ThirtyOneRoundEnded)]


def test_thirty_one_shares_a_round_out_and_ranks_a_cap_ended_match_by_lives() -> None:
    engine = Table("thirty_one", 2, seed=1).engine
    out_together = [*_joins(4), _out(1, [3], [2, 1, 1, 0]), _out(2, [1, 2], [2, 0, 0, 0])]
    assert engine.places([*out_together, ThirtyOneMatchEnded(winners=[0])]) == [1, 2.5, 2.5, 4]
    capped = [*_joins(4), _out(1, [2], [3, 1, 0, 2]), ThirtyOneMatchEnded([0], "event_cap")]
    assert engine.places(capped) == [1, 3, 4, 2]
    unscored = [*_joins(3), ThirtyOneMatchEnded([], "event_cap")]
    assert engine.places(unscored) == [2, 2, 2]


def test_the_test_game_places_by_rounds_won() -> None:
    ended = HighCardRoundEnded(round=3, cards=["P7", "MA", "Z8"], winner=1, points=[1, 2, 1])
    log = [*_joins(3), ended, HighCardMatchEnded(winners=[1])]
    assert HIGH_CARD.places(log) == [2.5, 1, 2.5]
    with pytest.raises(ValueError):
        HIGH_CARD.places(log[:-1])
