"""Who sits where and who plays each seat at a Cheat table: what the application's clocks and
the house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import assert_never

from kronikas.domain import seating
from kronikas.domain.cheat.states import (
    CheatFinished,
    CheatLobby,
    CheatRound,
    CheatRoundOver,
    State,
)


def players_of(state: State) -> seating.Seating:
    """The seating, in every phase."""
    match state:
        case CheatLobby() | CheatRound():
            return state.players
        case CheatRoundOver() | CheatFinished():
            return state.table.players
        case _:
            assert_never(state)


def stage_of(state: State) -> seating.Stage:
    """Whether the match takes players, is started, or is over."""
    match state:
        case CheatLobby():
            return "lobby"
        case CheatRound() | CheatRoundOver():
            return "playing"
        case CheatFinished():
            return "over"
        case _:
            assert_never(state)


def waiting_for(state: State) -> int | None:
    """The seat whose clock runs: the player on turn (during the challenge window the next
    player, who plays or accepts); None in the lobby, between rounds and once the match is
    over."""
    match state:
        case CheatRound():
            return state.turn
        case CheatLobby() | CheatRoundOver() | CheatFinished():
            return None
        case _:
            assert_never(state)


def house_seats(state: State) -> frozenset[int]:
    """The seats the house plays now: house players', those whose players left after the start,
    and those away."""
    return seating.house_seats(players_of(state))


def seat_of(state: State, player_id: str) -> int | None:
    """The seat of a player now (seats move down when a player leaves the lobby); None when no
    seat has that id."""
    return seating.seat_of(players_of(state), player_id)


def may_call(state: State) -> frozenset[int]:
    """The seats that may call the open play now (every seat but its player's, those the house
    plays included); empty while no challenge window is open."""
    match state:
        case CheatRound() if state.top is not None:
            top = state.top.seat
            return frozenset(s for s in range(len(state.players)) if s != top)
        case CheatLobby() | CheatRound() | CheatRoundOver() | CheatFinished():
            return frozenset()
        case _:
            assert_never(state)
