"""Thirty-One as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import get_args

from kronikas_rules.builder import build
from kronikas_rules.engine import Engine, Seats, Timing
from kronikas_rules.thirty_one.account import account
from kronikas_rules.thirty_one.commands import COMMANDS, Command
from kronikas_rules.thirty_one.decide import created, decide
from kronikas_rules.thirty_one.events import Event, ThirtyOneMatchEnded, ThirtyOneRoundDealt
from kronikas_rules.thirty_one.evolve import evolve
from kronikas_rules.thirty_one.legal import allowed, choices
from kronikas_rules.thirty_one.options import (
    EVENT_CAP,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    ThirtyOneOptions,
    max_players,
)
from kronikas_rules.thirty_one.places import places
from kronikas_rules.thirty_one.seats import PLACE, waiting_for
from kronikas_rules.thirty_one.states import State, initial_state
from kronikas_rules.thirty_one.strategy import house_command
from kronikas_rules.thirty_one.view import redact, view
from kronikas_rules.thirty_one.view_types import ThirtyOneGameView

ENGINE: Engine[ThirtyOneOptions, State, Command, Event, ThirtyOneGameView] = build(
    package=__package__,
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
    created=created,
    initial_state=initial_state,
    place=PLACE,
    own_decide=decide,
    own_evolve=evolve,
    allowed=allowed,
    choices=choices,
    show=view,
    redact=redact,
    waiting_for=waiting_for,
    timing=lambda options: Timing(options.turn_seconds, pause_seconds=0),  # nobody calls
    house_command=house_command,
    account=account,
    places=places,
)
