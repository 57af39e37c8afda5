"""High Card's options: how many rounds, and the clock."""

from __future__ import annotations

from typing import Annotated, Final

from msgspec import Meta, Struct

from kronikas_rules.common import TurnSeconds

KIND: Final = "high_card"
PLAYERS: Final = 2
EVENT_CAP: Final = 1_000
"""Far beyond the longest match: nine rounds of six events, and the seating."""

Rounds = Annotated[int, Meta(ge=1, le=9, description="Rounds in a match (1–9).")]


class HighCardOptions(Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a High Card table."""

    rounds: Rounds = 3
    turn_seconds: TurnSeconds = None


def max_players(options: HighCardOptions) -> int:
    """Two seats, whatever the options."""
    return PLAYERS
