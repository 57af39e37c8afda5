"""Duplicate deals (`kronikas_rules.duplicate`): every table of a set deals the same shuffles
with the first dealer rotated, so table j is table 0 with its seats relabelled by j — card for
card when each hand position is played alike — while each table salts its deals of its own and
nothing holds the set's secret."""

from __future__ import annotations

import base64
import random
from typing import Any

import msgspec
import pytest

from benchmarks.arena_players import House, play
from kronikas_rules.cards import STANDARD
from kronikas_rules.duplicate import (
    SECRET_BYTES,
    SharedDeal,
    new_secret,
    position,
    rankings,
    seat_of,
)
from kronikas_rules.proofs import SALT_BYTES
from kronikas_rules.table import Table

SECRET = bytes(range(32))
SEAT_FIELDS = {"seat", "dealer", "turn", "caller", "taker", "winner", "player", "three_aces"}
SEAT_LISTS = {"seats", "winners", "out", "lost_life"}
BY_SEAT = {"hands", "points", "places", "totals", "hand_sizes", "scores", "lives"}
UNSHARED = {"commitment", "salt", "salts", "openings", "player_id", "name"}
"""A table's own: its salts and what is made of them, and the names of its players."""


def test_every_table_of_a_set_deals_the_same_deck_with_salts_of_its_own() -> None:
    shuffles = [SharedDeal(SECRET, j, 3).shuffle(STANDARD, 2) for j in range(3)]
    assert len({s.deck for s in shuffles}) == 1
    assert sorted(shuffles[0].deck) == sorted(STANDARD)
    assert len({s.commitment for s in shuffles}) == 3
    assert not set(shuffles[0].salts) & set(shuffles[1].salts)
    assert all(len(salt) == 2 * SALT_BYTES for s in shuffles for salt in s.salts)
    assert SharedDeal(SECRET, 0, 3).shuffle(STANDARD, 2) == shuffles[0]


def test_each_round_and_each_secret_shuffles_anew() -> None:
    deal = SharedDeal(SECRET, 0, 2)
    assert deal.shuffle(STANDARD, 1).deck != deal.shuffle(STANDARD, 2).deck
    other = SharedDeal(bytes(reversed(SECRET)), 0, 2)
    assert other.shuffle(STANDARD, 1).deck != deal.shuffle(STANDARD, 1).deck


def test_the_first_dealer_turns_back_one_seat_a_table() -> None:
    first = SharedDeal(SECRET, 0, 4).pick(4)
    assert [SharedDeal(SECRET, j, 4).pick(4) for j in range(4)] == [
        (first - j) % 4 for j in range(4)
    ]
    with pytest.raises(ValueError, match="4-seat"):
        SharedDeal(SECRET, 0, 4).pick(3)


def test_a_set_has_one_table_a_seat_and_a_secret_of_32_bytes() -> None:
    with pytest.raises(ValueError):
        SharedDeal(SECRET, 2, 2)
    with pytest.raises(ValueError):
        SharedDeal(SECRET[:16], 0, 2)
    assert len(new_secret()) == SECRET_BYTES
    assert new_secret() != new_secret()


def test_a_seat_plays_its_position_and_the_position_its_seat() -> None:
    for n in (2, 3, 4):
        for j in range(n):
            assert sorted(position(s, j, n) for s in range(n)) == list(range(n))
            assert all(seat_of(position(s, j, n), j, n) == s for s in range(n))
    assert position(0, 1, 2) == 1 and seat_of(0, 1, 2) == 1


def test_rankings_gather_each_positions_holders_and_rank_an_entrant_once() -> None:
    seated = [["good", "house"], ["random", "house"]]
    placed = [[1.0, 2.0], [2.0, 1.0]]
    # Position 0: seat 0 at table 0, seat 1 at table 1; position 1: the other two.
    assert rankings(seated, placed) == [
        [("good", 1.0), ("house", 1.0)],
        [("house", 2.0), ("random", 2.0)],
    ]
    twice = [["house", "good"], ["bad", "house"]]
    assert rankings(twice, placed)[1] == [("good", 2.0), ("bad", 2.0)]
    assert rankings([["a", "b"], ["b", "a"]], placed) == [[("a", 1.0)], [("b", 2.0)]]


def _relabelled(events: list[msgspec.Struct], table: int, n: int) -> list[dict[str, Any]]:
    """The log with each seat named by the position it plays, less what a table salts itself."""

    def pos(seat: int | None) -> int | None:
        return None if seat is None else position(seat, table, n)

    found = []
    for event in events:
        data = msgspec.to_builtins(event)
        if data["type"] == "player_joined":
            continue
        for key, value in list(data.items()):
            if key in UNSHARED:
                del data[key]
            elif key in SEAT_FIELDS:
                data[key] = pos(value)
            elif key in SEAT_LISTS:
                data[key] = sorted(position(s, table, n) for s in value)
            elif key in BY_SEAT and isinstance(value, list):
                data[key] = [value[seat_of(p, table, n)] for p in range(n)]
        found.append(data)
    return found


@pytest.mark.parametrize(("kind", "n", "options"), [("cheat", 3, {}), ("thirty_one", 3, {})])
def test_a_set_played_alike_by_position_is_one_match_relabelled(
    kind: str, n: int, options: dict[str, Any]
) -> None:
    logs, places = [], []
    for j in range(n):
        table = Table(kind, n, options=options, randomness=SharedDeal(SECRET, j, n))
        # Each position's player is the house with a generator of that position's own.
        houses = [House(random.Random(f"position:{position(s, j, n)}")) for s in range(n)]
        play(table, houses, [seat_of(p, j, n) for p in range(n)])
        logs.append(_relabelled(table.events, j, n))
        places.append([table.places()[seat_of(p, j, n)] for p in range(n)])
        encoded = msgspec.json.encode(table.events)
        for form in (SECRET, SECRET.hex().encode(), base64.b64encode(SECRET)):
            assert form not in encoded
    assert len(logs[0]) > 10
    assert all(log == logs[0] for log in logs)
    assert all(p == places[0] for p in places)
    assert "secret" not in repr(SharedDeal(SECRET, 0, n)) and SECRET.hex() not in repr(
        SharedDeal(SECRET, 0, n)
    )
