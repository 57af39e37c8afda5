"""The two rules engines, by kind, as the application sees them."""

from __future__ import annotations

from types import ModuleType

from kronikas.domain import cheat, thirty_one

ENGINES: dict[str, ModuleType] = {cheat.KIND: cheat, thirty_one.KIND: thirty_one}
