"""Each game's stage is looked up by its state's type (`seats.stage_of`): every state of the
game has one, so no state reaches the builder without a stage."""

from __future__ import annotations

from typing import get_args

import pytest

import kronikas_rules.cheat.seats as cheat_seats
import kronikas_rules.cheat.states as cheat_states
import kronikas_rules.thirty_one.seats as thirty_one_seats
import kronikas_rules.thirty_one.states as thirty_one_states


@pytest.mark.parametrize(
    ("seats", "states"),
    [(cheat_seats, cheat_states), (thirty_one_seats, thirty_one_states)],
    ids=["cheat", "thirty_one"],
)
def test_every_state_of_a_game_has_a_stage(seats: object, states: object) -> None:
    every = set(get_args(states.State))  # type: ignore[attr-defined]
    assert set(seats._STAGES) == every  # type: ignore[attr-defined]
    assert set(seats._STAGES.values()) == {"lobby", "playing", "over"}  # type: ignore[attr-defined]
