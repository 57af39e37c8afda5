"""High Card's places at a finished table: by the rounds each seat won."""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.places import ended, seat_count, shared_places
from tests.third_game.events import Event, HighCardMatchEnded, HighCardRoundEnded


def places(events: Sequence[Event]) -> list[float]:
    """Each seat's place by the rounds it won (its last `round_ended`'s points); all tied when
    no round was scored. ValueError before the match has ended."""
    ended(events, HighCardMatchEnded)
    points = next(
        (list(e.points) for e in reversed(events) if isinstance(e, HighCardRoundEnded)),
        [0] * seat_count(events),
    )
    return shared_places([float(p) for p in points])
