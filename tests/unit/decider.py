"""given/when/then over a game engine's pure functions (decide, evolve)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from kronikas.adapters.randomness import SeededRandomness
from kronikas.domain.common import DomainError, Randomness


class Given:
    """`Given(engine, state_or_events).when(command, seat).then(events)` or `.raises(Error)`;
    `.when(command, seat, by_house=True)` when the house chose the command for the seat."""

    def __init__(self, engine: ModuleType, history: Sequence[Any], initial: Any) -> None:
        self.engine = engine
        state = initial
        for event in history:
            state = engine.evolve(state, event)
        self.state = state

    def when(
        self,
        command: Any,
        seat: int | None,
        rng: Randomness | None = None,
        *,
        by_house: bool = False,
    ) -> When:
        return When(self, command, seat, rng or SeededRandomness(0), by_house)


class When:
    def __init__(
        self, given: Given, command: Any, seat: int | None, rng: Randomness, by_house: bool
    ) -> None:
        self.given, self.command, self.seat, self.rng = given, command, seat, rng
        self.by_house = by_house

    def events(self) -> list[Any]:
        engine, state = self.given.engine, self.given.state
        if not self.by_house:  # as the application calls decide for a player
            return list(engine.decide(state, self.command, self.seat, self.rng))
        return list(engine.decide(state, self.command, self.seat, self.rng, by_house=True))

    def then(self, expected: Sequence[Any]) -> Any:
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
