"""given/when/then over a game engine's pure functions (decide, evolve)."""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import pytest

from kronikas.adapters.randomness import SeededRandomness
from kronikas.domain.common import DomainError, Randomness


class Given:
    """`Given(engine, state_or_events).when(command, seat).then(events)` or `.raises(Error)`."""

    def __init__(self, engine: ModuleType, history: Sequence[Any], initial: Any) -> None:
        self.engine = engine
        state = initial
        for event in history:
            state = engine.evolve(state, event)
        self.state = state

    def when(self, command: Any, seat: int | None, rng: Randomness | None = None) -> When:
        return When(self, command, seat, rng or SeededRandomness(0))


class When:
    def __init__(self, given: Given, command: Any, seat: int | None, rng: Randomness) -> None:
        self.given, self.command, self.seat, self.rng = given, command, seat, rng

    def events(self) -> list[Any]:
        return list(self.given.engine.decide(self.given.state, self.command, self.seat, self.rng))

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
