"""The games of this package, by kind: one line each. The service runs exactly these."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeAlias

from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.engine import Rules, registry, rules
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE

Registry: TypeAlias = Mapping[str, Rules]
"""Games by kind, as `registry` makes them."""


def games() -> Registry:
    """Every game, by kind (`cheat`, `thirty_one`), in the order the service lists them."""
    return registry(rules(CHEAT), rules(THIRTY_ONE))
