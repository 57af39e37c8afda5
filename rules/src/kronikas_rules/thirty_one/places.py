"""Thirty-One's places at a finished table: by when each seat went out."""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.places import ended, seat_count, shared_places
from kronikas_rules.thirty_one.events import Event, ThirtyOneMatchEnded, ThirtyOneRoundEnded

MOST_LIVES = 10
"""More lives than a seat ever has (the option's limit): lives rank seats still in only."""


def places(events: Sequence[Event]) -> list[float]:
    """A seat out in a later round places above one out earlier, the winner first; seats out
    in the same round share their places. A match the cap of events ended places the seats
    still in above every seat out, by their lives. ValueError before the match has ended."""
    ended(events, ThirtyOneMatchEnded)
    n = seat_count(events)
    out_round: list[float | None] = [None] * n
    lives = [0] * n
    rounds = 0
    for event in events:
        if isinstance(event, ThirtyOneRoundEnded):
            rounds += 1
            lives = list(event.lives)
            for seat in event.out:
                out_round[seat] = rounds
    return shared_places(
        [
            rounds + 1 + lives[seat] / (MOST_LIVES + 1) if out is None else out
            for seat, out in enumerate(out_round)
        ]
    )
