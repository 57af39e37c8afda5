"""Cheat as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import assert_never, get_args

from kronikas.domain.cheat.commands import COMMANDS, Call, Command
from kronikas.domain.cheat.decide import created, decide
from kronikas.domain.cheat.events import CheatMatchEnded, CheatRoundDealt, Event
from kronikas.domain.cheat.evolve import evolve
from kronikas.domain.cheat.house import house_command
from kronikas.domain.cheat.legal import legal, legal_moves
from kronikas.domain.cheat.options import (
    EVENT_CAP,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CheatOptions,
    max_players,
)
from kronikas.domain.cheat.seats import house_seats, may_call, seat_of, waiting_for
from kronikas.domain.cheat.states import (
    Finished,
    Lobby,
    RoundOver,
    State,
    Turn,
    Window,
    initial_state,
    is_terminal,
)
from kronikas.domain.cheat.view import CheatGameView, redact, view
from kronikas.domain.common import check_options
from kronikas.domain.engine import Engine, Seats, Standing, Timing


def timing(state: State) -> Timing:
    """A Cheat table's clocks, from its options."""
    options = state.options if isinstance(state, Lobby) else state.table.options
    return Timing(options.turn_seconds, pause_seconds=options.house_pause_seconds)


def standing(state: State) -> Standing:
    """A Cheat table's status and number of players, as its views give them."""
    match state:
        case Lobby():
            return Standing("open", len(state.seats))
        case Turn() | Window() | RoundOver():
            return Standing("playing", len(state.table.seats))
        case Finished():
            return Standing("finished", len(state.table.seats))
        case _:
            assert_never(state)


ENGINE: Engine[CheatOptions, State, Command, Event, CheatGameView] = Engine(
    kind=KIND,
    title="Cheat",
    options=CheatOptions,
    states=get_args(State),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=CheatGameView,
    deal_event=CheatRoundDealt,
    end_event=CheatMatchEnded,
    seats=Seats(MIN_PLAYERS, MAX_PLAYERS),
    event_cap=EVENT_CAP,
    max_players=max_players,
    validate_options=check_options,
    created=created,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal=legal,
    legal_moves=legal_moves,
    view=view,
    redact=redact,
    is_terminal=is_terminal,
    waiting_for=waiting_for,
    house_seats=house_seats,
    seat_of=seat_of,
    timing=timing,
    standing=standing,
    house_command=house_command,
    answers=(Call,),
    may_answer=may_call,
)
