"""Who sits where and who plays each seat at a Cheat table: what the application's clocks and
the house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import assert_never

from kronikas.domain import seating
from kronikas.domain.cheat.states import Finished, Lobby, RoundOver, State, Turn, Window


def seats_of(state: State) -> seating.Seating:
    """The seating, in every phase."""
    match state:
        case Lobby():
            return state.seats
        case Turn() | Window() | RoundOver() | Finished():
            return state.table.seats
        case _:
            assert_never(state)


def stage_of(state: State) -> seating.Stage:
    """Whether the match takes players, is started, or is over."""
    match state:
        case Lobby():
            return "lobby"
        case Turn() | Window() | RoundOver():
            return "playing"
        case Finished():
            return "over"
        case _:
            assert_never(state)


def waiting_for(state: State) -> int | None:
    """The seat whose clock runs: the player on turn (during the challenge window the next
    player, who plays or accepts); None in the lobby, between rounds and once the match is
    over."""
    match state:
        case Turn() | Window():
            return state.table.turn
        case Lobby() | RoundOver() | Finished():
            return None
        case _:
            assert_never(state)


def house_seats(state: State) -> frozenset[int]:
    """The seats the house plays now: house players', those whose players left after the start,
    and those away."""
    return seating.house_seats(seats_of(state))


def seat_of(state: State, player_id: str) -> int | None:
    """The seat of a player now (seats move down when a player leaves the lobby); None when no
    seat has that id."""
    return seating.seat_of(seats_of(state), player_id)


def may_call(state: State) -> frozenset[int]:
    """The seats that may call the open play now (every seat but its player's, those the house
    plays included); empty outside the challenge window."""
    match state:
        case Window():
            top = state.top.seat
            return frozenset(s for s in range(len(state.table.seats)) if s != top)
        case Lobby() | Turn() | RoundOver() | Finished():
            return frozenset()
        case _:
            assert_never(state)
