"""given/when/then over a game's `Engine` (its pure decide and evolve), typed by the game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Generic, TypeVar

import msgspec
import pytest

from kronikas_rules.common import CapReached, DomainError, Randomness, Start
from kronikas_rules.engine import Engine, View
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join, TimeOut

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
ViewT = TypeVar("ViewT", bound=View)


class Given(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    """`Given(engine, events, initial).when(command, seat).then(events)` or `.raises(Error)`;
    `.when(command, seat, by_house=True)` when the house chose the command for the seat."""

    def __init__(
        self,
        engine: Engine[OptionsT, StateT, CommandT, EventT, ViewT],
        history: Sequence[EventT],
        initial: StateT,
    ) -> None:
        self.engine = engine
        state = initial
        for event in history:
            state = engine.evolve(state, event)
        self.state = state

    def when(
        self,
        command: CommandT | Join | Start | TimeOut | CapReached,
        seat: int | None,
        rng: Randomness | None = None,
        *,
        by_house: bool = False,
    ) -> When[OptionsT, StateT, CommandT, EventT, ViewT]:
        return When(self, command, seat, rng or SeededRandomness(0), by_house)


class When(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    def __init__(
        self,
        given: Given[OptionsT, StateT, CommandT, EventT, ViewT],
        command: CommandT | Join | Start | TimeOut | CapReached,
        seat: int | None,
        rng: Randomness,
        by_house: bool,
    ) -> None:
        self.given, self.command, self.seat, self.rng = given, command, seat, rng
        self.by_house = by_house

    def events(self) -> list[EventT]:
        engine, state = self.given.engine, self.given.state
        if not self.by_house:  # as the application calls decide for a player
            return list(engine.decide(state, self.command, self.seat, self.rng))
        return list(engine.decide(state, self.command, self.seat, self.rng, by_house=True))

    def then(self, expected: Sequence[EventT]) -> StateT:
        """Assert the exact events; returns the state after them."""
        got = self.events()
        assert got == list(expected)
        state = self.given.state
        for event in got:
            state = self.given.engine.evolve(state, event)
        return state

    def raises(self, error: type[DomainError], match: str | None = None) -> DomainError:
        with pytest.raises(error, match=match) as info:
            self.events()
        return info.value
