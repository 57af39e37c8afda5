"""The games this service runs: one line each. Every per-game list is built from this one."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from kronikas.domain.cheat.engine import ENGINE as CHEAT
from kronikas.domain.engine import Rules, registry, rules
from kronikas.domain.thirty_one.engine import ENGINE as THIRTY_ONE

Registry: TypeAlias = Mapping[str, Rules]
"""Games by kind, as `registry` makes them: what the app factory and the use cases are given."""

ENGINES: Registry = registry(rules(CHEAT), rules(THIRTY_ONE))
"""The games this service runs, by kind, in the order the kinds listing shows them: the app
factory's default (`create_app(games=...)`); nothing else reads it."""
