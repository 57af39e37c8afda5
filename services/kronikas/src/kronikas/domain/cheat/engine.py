"""Cheat as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import get_args

from kronikas.domain.cheat.commands import COMMANDS, Command
from kronikas.domain.cheat.decide import created, decide
from kronikas.domain.cheat.events import Event
from kronikas.domain.cheat.evolve import evolve
from kronikas.domain.cheat.legal import legal, legal_moves
from kronikas.domain.cheat.options import (
    KIND,
    MIN_PLAYERS,
    CheatOptions,
    max_players,
    validate_options,
)
from kronikas.domain.cheat.states import State, initial_state, is_terminal
from kronikas.domain.cheat.view import CheatGameView, redact, view
from kronikas.domain.engine import Engine

ENGINE: Engine[CheatOptions, State, Command, Event, CheatGameView] = Engine(
    kind=KIND,
    title="Cheat",
    options=CheatOptions,
    states=get_args(State),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=CheatGameView,
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
