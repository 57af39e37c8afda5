"""Cheat's places at a finished table: by the match's points (its `match_ended`)."""

from __future__ import annotations

from collections.abc import Sequence

from kronikas_rules.cheat.events import CheatMatchEnded, Event
from kronikas_rules.places import ended, shared_places


def places(events: Sequence[Event]) -> list[float]:
    """Each seat's place by the points its `match_ended` gives (more is better); seats tied on
    points share their places. ValueError before the match has ended."""
    ended(events, CheatMatchEnded)
    last = next(event for event in reversed(events) if isinstance(event, CheatMatchEnded))
    return shared_places([float(points) for points in last.points])
