"""High Card's `evolve`: the state after one of its own events."""

from __future__ import annotations

from typing import assert_never

import msgspec

from kronikas_rules.common import EventOutOfPlace
from tests.third_game.events import (
    HighCardFolded,
    HighCardGameCreated,
    HighCardMatchEnded,
    HighCardRevealed,
    HighCardRoundDealt,
    HighCardRoundEnded,
    OwnEvent,
)
from tests.third_game.options import PLAYERS
from tests.third_game.states import Finished, Lobby, Playing, State


def evolve(state: State, event: OwnEvent) -> State:
    """Only assigns what the event says."""
    match event:
        case HighCardGameCreated():
            return Lobby(event.options, event.seeded, state.seats)
        case HighCardRoundDealt():
            points = state.points if isinstance(state, Playing) else (0,) * PLAYERS
            last = state.last if isinstance(state, Playing) else None
            return Playing(
                state.options,
                state.seeded,
                state.seats,
                event.round,
                tuple(c or "" for c in event.cards),
                (None,) * PLAYERS,
                tuple(event.deck or ()),
                tuple(event.salts or ()),
                points,
                last,
            )
        case HighCardRevealed() | HighCardFolded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            choices = list(state.choices)
            choices[event.seat] = "reveal" if isinstance(event, HighCardRevealed) else "fold"
            return msgspec.structs.replace(state, choices=tuple(choices))
        case HighCardRoundEnded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            return msgspec.structs.replace(state, points=tuple(event.points), last=event)
        case HighCardMatchEnded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            reason = None if isinstance(event.reason, msgspec.UnsetType) else event.reason
            return Finished(
                state.options,
                state.seeded,
                state.seats,
                state.round,
                state.points,
                tuple(event.winners),
                reason,
                state.last,
            )
        case _:
            assert_never(event)
