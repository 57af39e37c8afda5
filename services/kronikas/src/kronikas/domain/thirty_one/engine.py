"""Thirty-One as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import get_args

from kronikas.domain.engine import Engine
from kronikas.domain.thirty_one.commands import COMMANDS, Command
from kronikas.domain.thirty_one.decide import created, decide
from kronikas.domain.thirty_one.events import Event
from kronikas.domain.thirty_one.evolve import evolve
from kronikas.domain.thirty_one.legal import legal, legal_moves
from kronikas.domain.thirty_one.options import (
    KIND,
    MIN_PLAYERS,
    ThirtyOneOptions,
    max_players,
    validate_options,
)
from kronikas.domain.thirty_one.states import State, initial_state, is_terminal
from kronikas.domain.thirty_one.view import redact, view
from kronikas.domain.thirty_one.view_types import ThirtyOneGameView

ENGINE: Engine[ThirtyOneOptions, State, Command, Event, ThirtyOneGameView] = Engine(
    kind=KIND,
    title="Thirty-One",
    options=ThirtyOneOptions,
    states=get_args(State),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=ThirtyOneGameView,
    min_players=MIN_PLAYERS,
    max_players=max_players,
    validate_options=validate_options,
    created=created,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal=legal,
    legal_moves=legal_moves,
    view=view,
    redact=redact,
    is_terminal=is_terminal,
)
