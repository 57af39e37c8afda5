"""Thirty-One as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import get_args

from kronikas.domain.common import check_options
from kronikas.domain.engine import Engine, Seats, Standing, Timing
from kronikas.domain.thirty_one.commands import COMMANDS, Command
from kronikas.domain.thirty_one.decide import created, decide
from kronikas.domain.thirty_one.events import Event, ThirtyOneMatchEnded, ThirtyOneRoundDealt
from kronikas.domain.thirty_one.evolve import evolve
from kronikas.domain.thirty_one.house import house_command
from kronikas.domain.thirty_one.legal import legal, legal_moves
from kronikas.domain.thirty_one.options import (
    EVENT_CAP,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ThirtyOneOptions,
    max_players,
)
from kronikas.domain.thirty_one.seats import house_seats, seat_of, waiting_for
from kronikas.domain.thirty_one.states import (
    Finished,
    Lobby,
    State,
    initial_state,
    is_terminal,
)
from kronikas.domain.thirty_one.view import redact, view
from kronikas.domain.thirty_one.view_types import ThirtyOneGameView


def timing(state: State) -> Timing:
    """A Thirty-One table's clocks, from its options (nobody calls: the house never waits)."""
    return Timing(state.match.options.turn_seconds, pause_seconds=0)


def standing(state: State) -> Standing:
    """A Thirty-One table's status and number of players, as its views give them."""
    players = len(state.match.seats)
    if isinstance(state, Lobby):
        return Standing("open", players)
    if isinstance(state, Finished):
        return Standing("finished", players)
    return Standing("playing", players)


ENGINE: Engine[ThirtyOneOptions, State, Command, Event, ThirtyOneGameView] = Engine(
    kind=KIND,
    title="Thirty-One",
    options=ThirtyOneOptions,
    states=get_args(State),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=ThirtyOneGameView,
    deal_event=ThirtyOneRoundDealt,
    end_event=ThirtyOneMatchEnded,
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
)
