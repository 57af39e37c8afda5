"""The games this service runs: one line each. Every per-game list is built from this one."""

from __future__ import annotations

from kronikas.domain.cheat.engine import ENGINE as CHEAT
from kronikas.domain.engine import Rules, registry, rules
from kronikas.domain.thirty_one.engine import ENGINE as THIRTY_ONE

ENGINES: dict[str, Rules] = registry(rules(CHEAT), rules(THIRTY_ONE))
"""The games by kind, in the order the kinds listing shows them."""
