"""The service's random source for a table: one secure source per process, or its seed's
(the sources themselves are the rules package's, `kronikas_rules.randomness`); an arena
table's, its set's shared deal (`kronikas_rules.duplicate.SharedDeal`)."""

from __future__ import annotations

from kronikas.application.deals import ArenaDeal
from kronikas_rules.common import Randomness
from kronikas_rules.duplicate import SharedDeal
from kronikas_rules.randomness import SecureRandomness, SeededRandomness

_SECURE = SecureRandomness()


def for_table(seed: int | None, arena: ArenaDeal | None = None, /) -> Randomness:
    """The random source of a table: at an arena table its set's shared deal (the same
    shuffles at every table of the set, the first dealer rotated by the table's index, salts of
    its own: `SharedDeal`); else its seed's, or the one secure source of the process."""
    if arena is not None:
        return SharedDeal(bytes.fromhex(arena.secret), arena.table, arena.players)
    return _SECURE if seed is None else SeededRandomness(seed)
