"""Places at a finished table, as every game states them (`Engine.places`): 1 the best, seats
tied sharing the average of the places they span. The environments' rewards and the arena's
rankings both read them, so a match is placed one way everywhere."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from kronikas_rules.seating import PlayerJoined, PlayerLeft


def shared_places(scores: Sequence[float]) -> list[float]:
    """Each seat's place by `scores` (higher is better), 1 the best; seats tied share the
    average of the places they span (`[7, 3, 7]` places `[1.5, 3, 1.5]`)."""
    return [
        1
        + sum(1 for other in scores if other > score)
        + (sum(1 for o in scores if o == score) - 1) / 2
        for score in scores
    ]


def seat_count(events: Sequence[msgspec.Struct]) -> int:
    """How many seats the match was played with: the joins, less those who left the lobby
    (a seat left after the start stays, played by the house)."""
    joined = sum(1 for event in events if isinstance(event, PlayerJoined))
    left = sum(1 for event in events if isinstance(event, PlayerLeft) and not event.started)
    return joined - left


def ended(events: Sequence[msgspec.Struct], end: type[msgspec.Struct]) -> None:
    """ValueError unless the log holds the match's end (`end`, the game's `end_event`): places
    belong to a finished table alone."""
    if not any(isinstance(event, end) for event in reversed(events)):
        raise ValueError("the match has not ended: a table is placed once it is finished")
