"""Where High Card keeps its seats, its stage and its options, and whose clock runs."""

from __future__ import annotations

from typing import assert_never

import msgspec

from kronikas_rules import seating
from kronikas_rules.builder import Place
from tests.third_game.options import HighCardOptions
from tests.third_game.states import Finished, Lobby, Playing, State, turn_of


def stage_of(state: State) -> seating.Stage:
    """Whether the match takes players, is started, or is over."""
    match state:
        case Lobby():
            return "lobby"
        case Playing():
            return "playing"
        case Finished():
            return "over"
        case _:
            assert_never(state)


def reseat(state: State, seats: seating.Seating) -> State:
    """The state with this seating."""
    return msgspec.structs.replace(state, seats=seats)


def options_of(state: State) -> HighCardOptions:
    """The table's options."""
    return state.options


PLACE = Place(lambda state: state.seats, stage_of, reseat, options_of)


def waiting_for(state: State) -> int | None:
    """The seat to choose, while a round is played."""
    return turn_of(state) if isinstance(state, Playing) else None
