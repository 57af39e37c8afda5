"""Where a Thirty-One table keeps its seats, its stage and its options (what seating is
composed from, `builder.Place`), and whose clock runs: what the application's clocks and the
house need (docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

from typing import Final, assert_never

from msgspec.structs import replace

import kronikas_rules.thirty_one.states as st
from kronikas_rules import seating
from kronikas_rules.builder import Place
from kronikas_rules.thirty_one.options import ThirtyOneOptions

_STAGES: Final[dict[type[st.State], seating.Stage]] = {
    st.Lobby: "lobby",
    st.DealerChoice: "playing",
    st.Turns: "playing",
    st.LastCircuit: "playing",
    st.RoundOver: "playing",
    st.Finished: "over",
}


def stage_of(state: st.State) -> seating.Stage:
    """Whether the match takes players, is started, or is over (looked up by the state's type:
    the builder asks it several times a move)."""
    return _STAGES[type(state)]


def seats_of(state: st.State) -> seating.Seating:
    """The seating, kept in the match in every phase."""
    return state.match.seats


def reseat(state: st.State, seats: seating.Seating) -> st.State:
    """The state with this seating; in the lobby every seat has the table's lives and none is
    out."""
    game = state.match
    if isinstance(state, st.Lobby):
        n = len(seats)
        return st.Lobby(
            replace(game, seats=seats, lives=(game.options.lives,) * n, out=(False,) * n)
        )
    return replace(state, match=replace(game, seats=seats))


def options_of(state: st.State) -> ThirtyOneOptions:
    """The table's options, kept in the match."""
    return state.match.options


PLACE = Place(seats_of, stage_of, reseat, options_of)


def waiting_for(state: st.State) -> int | None:
    """The seat whose clock runs: the dealer during the dealer's choice, else the player on turn
    (in the last circuit too); None in the lobby, between rounds and once the match is over."""
    match state:
        case st.Turns() | st.LastCircuit():
            return state.turn
        case st.DealerChoice():
            return state.match.dealer
        case st.Lobby() | st.RoundOver() | st.Finished():
            return None
        case _:
            assert_never(state)
