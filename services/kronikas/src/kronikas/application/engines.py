"""The games this service runs: one line each. Every per-game list is built from this one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from kronikas.domain.cheat.engine import ENGINE as CHEAT
from kronikas.domain.engine import Rules, registry, rules
from kronikas.domain.thirty_one.engine import ENGINE as THIRTY_ONE

Registry: TypeAlias = Mapping[str, Rules]
"""Games by kind, as `registry` makes them: what the app factory and the use cases are given."""


def service_games() -> Registry:
    """The games this service runs, by kind, in the order the kinds listing shows them. Built
    by the composition root (`kronikas.serve.app`, `export_openapi`) and handed to
    `create_app(games=...)`, which hands it down: nothing below the app factory has a registry
    of its own."""
    return registry(rules(CHEAT), rules(THIRTY_ONE))
