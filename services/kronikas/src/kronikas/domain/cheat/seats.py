"""Where a Cheat table keeps its seats, its stage and its options (what seating is composed from,
`builder.Place`), and whose clock runs and who may call: what the application's clocks and the
house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import assert_never

import msgspec

from kronikas.domain import seating
from kronikas.domain.builder import Place
from kronikas.domain.cheat.options import CheatOptions
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


def reseat(state: State, seats: seating.Seating) -> State:
    """The state with this seating (seating takes no event once the match is over)."""
    match state:
        case Lobby():
            return msgspec.structs.replace(state, seats=seats)
        case Turn() | Window() | RoundOver():
            return msgspec.structs.replace(
                state, table=msgspec.structs.replace(state.table, seats=seats)
            )
        case Finished():
            raise AssertionError("seating takes no event once the match is over")
        case _:
            assert_never(state)


def options_of(state: State) -> CheatOptions:
    """The table's options, in every phase."""
    return state.options if isinstance(state, Lobby) else state.table.options


PLACE = Place(seats_of, stage_of, reseat, options_of)


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
