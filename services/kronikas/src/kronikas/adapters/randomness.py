"""The service's random source for a table: one secure source per process, or its seed's
(the sources themselves are the rules package's, `kronikas_rules.randomness`)."""

from __future__ import annotations

from kronikas_rules.common import Randomness
from kronikas_rules.randomness import SecureRandomness, SeededRandomness

_SECURE = SecureRandomness()


def for_table(seed: int | None) -> Randomness:
    """The random source of a table: one secure source per process, or its seed's."""
    return _SECURE if seed is None else SeededRandomness(seed)
