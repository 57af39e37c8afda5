"""The domain keeps no mutable state at module level (docs/engines.md): the houses remember
nothing between questions but what a pure function's memo (`functools.cache`) keeps, so no test
has to clear anything and two tables never share a memory."""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from types import ModuleType

import kronikas_rules

_MUTABLE = (dict, list, set, bytearray, Counter)


def _modules() -> list[ModuleType]:
    found = [kronikas_rules]
    for info in pkgutil.walk_packages(kronikas_rules.__path__, "kronikas_rules."):
        found.append(importlib.import_module(info.name))
    return found


def test_no_domain_module_holds_a_mutable_container_it_could_fill() -> None:
    """A container at module level is a constant table (`Final`, built at import), never a
    cache filled as the service runs."""
    tables: set[int] = set()  # the containers some module declares `Final`
    held: dict[int, str] = {}
    for module in _modules():
        annotations = getattr(module, "__annotations__", {})
        for name, value in vars(module).items():
            if name.startswith("__") or not isinstance(value, _MUTABLE):
                continue
            held.setdefault(id(value), f"{module.__name__}.{name}")
            if "Final" in str(annotations.get(name, "")):
                tables.add(id(value))
    assert sorted(where for key, where in held.items() if key not in tables) == []
