"""Who sits where and who plays each seat at a Thirty-One table: what the application's clocks
and the house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import assert_never

from kronikas.domain import seating
from kronikas.domain.thirty_one.states import (
    DealerChoice,
    Finished,
    LastCircuit,
    Lobby,
    RoundOver,
    State,
    Turns,
)


def stage_of(state: State) -> seating.Stage:
    """Whether the match takes players, is started, or is over."""
    match state:
        case Lobby():
            return "lobby"
        case DealerChoice() | Turns() | LastCircuit() | RoundOver():
            return "playing"
        case Finished():
            return "over"
        case _:
            assert_never(state)


def waiting_for(state: State) -> int | None:
    """The seat whose clock runs: the dealer during the dealer's choice, else the player on turn
    (in the last circuit too); None in the lobby, between rounds and once the match is over."""
    match state:
        case Turns() | LastCircuit():
            return state.turn
        case DealerChoice():
            return state.match.dealer
        case Lobby() | RoundOver() | Finished():
            return None
        case _:
            assert_never(state)


def house_seats(state: State) -> frozenset[int]:
    """The seats the house plays now: house players', those whose players left after the start,
    and those away."""
    return seating.house_seats(state.match.seats)


def seat_of(state: State, player_id: str) -> int | None:
    """The seat of a player now (seats move down when a player leaves the lobby); None when no
    seat has that id."""
    return seating.seat_of(state.match.seats, player_id)
