"""An arena table's deal, as its first record keeps it (never on the wire)."""

from __future__ import annotations

import msgspec


class ArenaDeal(msgspec.Struct, frozen=True, gc=False):
    """On the first record of an arena table: its set, its index in the set, the set's secret
    (hex; every table of the set deals from it, `SharedDeal`) and the seats the random policy
    plays. Never on the wire: only the service reads it."""

    set: str
    table: int
    players: int
    secret: str
    random: tuple[int, ...] = ()
