"""Cheat as one `Engine`: this game's line in the registry (docs/engines.md)."""

from __future__ import annotations

from typing import get_args

from kronikas_rules.builder import build
from kronikas_rules.cheat.account import account
from kronikas_rules.cheat.commands import COMMANDS, Call, Command
from kronikas_rules.cheat.decide import created, decide
from kronikas_rules.cheat.events import CheatMatchEnded, CheatRoundDealt, Event
from kronikas_rules.cheat.evolve import evolve
from kronikas_rules.cheat.legal import allowed, choices
from kronikas_rules.cheat.options import (
    EVENT_CAP,
    KIND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    CheatOptions,
    CheatTableOptions,
    max_players,
)
from kronikas_rules.cheat.places import places
from kronikas_rules.cheat.seats import PLACE, may_call, waiting_for
from kronikas_rules.cheat.states import State, initial_state
from kronikas_rules.cheat.strategy import house_command
from kronikas_rules.cheat.view import CheatGameView, redact, view
from kronikas_rules.engine import Engine, Seats, Timing

ENGINE: Engine[CheatTableOptions, State, Command, Event, CheatGameView] = build(
    package=__package__,
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
    timing=lambda options: Timing(options.turn_seconds, options.house_pause_seconds),
    house_command=house_command,
    account=account,
    places=places,
    answers=(Call,),
    may_answer=may_call,
)
