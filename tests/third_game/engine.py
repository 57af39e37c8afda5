"""High Card as one `Engine`, and the registry the tests hand to the app factory."""

from __future__ import annotations

from typing import get_args

from kronikas.application.engines import service_games
from kronikas_rules.builder import build
from kronikas_rules.engine import Engine, Seats, Timing, registry, rules
from tests.third_game.account import account
from tests.third_game.commands import COMMANDS, Command
from tests.third_game.decide import created, decide
from tests.third_game.events import Event, HighCardMatchEnded, HighCardRoundDealt
from tests.third_game.evolve import evolve
from tests.third_game.legal import allowed
from tests.third_game.options import EVENT_CAP, KIND, PLAYERS, HighCardOptions, max_players
from tests.third_game.places import places
from tests.third_game.seats import PLACE, waiting_for
from tests.third_game.states import State, initial_state
from tests.third_game.strategy import house
from tests.third_game.view import HighCardGameView, redact, view

ENGINE: Engine[HighCardOptions, State, Command, Event, HighCardGameView] = build(
    package=__package__,
    kind=KIND,
    title="High Card",
    options=HighCardOptions,
    states=get_args(State),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=HighCardGameView,
    deal_event=HighCardRoundDealt,
    end_event=HighCardMatchEnded,
    seats=Seats(PLAYERS, PLAYERS),
    event_cap=EVENT_CAP,
    max_players=max_players,
    created=created,
    initial_state=initial_state,
    place=PLACE,
    own_decide=decide,
    own_evolve=evolve,
    allowed=allowed,
    show=view,
    redact=redact,
    waiting_for=waiting_for,
    timing=lambda options: Timing(options.turn_seconds, 0),
    house_command=house,
    account=account,
    places=places,
)

GAMES = registry(*service_games().values(), rules(ENGINE))
"""The service's games and High Card: what the tests hand to `create_app(games=...)`."""
