"""Where a Cheat table keeps its seats, its stage and its options (what seating is composed from,
`builder.Place`), and whose clock runs and who may call: what the application's clocks and the
house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import Final, assert_never

import msgspec

from kronikas_rules import seating
from kronikas_rules.builder import Place
from kronikas_rules.cheat.states import Finished, Lobby, RoundOver, State, ToPlay, Window

_STAGES: Final[dict[type[State], seating.Stage]] = {
    Lobby: "lobby",
    ToPlay: "playing",
    Window: "playing",
    RoundOver: "playing",
    Finished: "over",
}


def stage_of(state: State) -> seating.Stage:
    """Whether the match takes players, is started, or is over (looked up by the state's type:
    the builder asks it several times a move)."""
    return _STAGES[type(state)]


def reseat(state: State, seats: seating.Seating) -> State:
    """The state with this seating, kept in the match."""
    return msgspec.structs.replace(state, match=msgspec.structs.replace(state.match, seats=seats))


PLACE = Place(lambda state: state.match.seats, stage_of, reseat, lambda state: state.match.options)


def waiting_for(state: State) -> int | None:
    """The seat whose clock runs: the player on turn (during the challenge window the next
    player, who plays or accepts); None in the lobby, between rounds and once the match is
    over."""
    match state:
        case ToPlay() | Window():
            return state.deal.turn
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
            return frozenset(s for s in range(len(state.match.seats)) if s != top)
        case Lobby() | ToPlay() | RoundOver() | Finished():
            return frozenset()
        case _:
            assert_never(state)
