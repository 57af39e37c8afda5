"""The JSON of every answer, made in one place.

The application asks for it because the atomic append records the first answer's bytes, so an
idempotent retry gets them again; the API sends the bytes as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

import msgspec

from kronikas.application.records import Record
from kronikas.application.results import (
    CommandResult,
    Created,
    EventPage,
    GameEvent,
    HouseSeated,
    Joined,
    game_event,
)
from kronikas.domain.engine import Rules, View

_encoder = msgspec.json.Encoder()


class Answer(NamedTuple):
    """An answer's JSON body, and the table's version it shows (the `ETag`)."""

    body: bytes
    version: int


class Delivered(NamedTuple):
    """An event for a stream: its version, type and JSON as the stream's viewer sees it."""

    version: int
    type: str
    json: bytes


class _Version(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(_Version)


def version_of(body: bytes) -> int:
    """The version a recorded command answer shows (replays only: a fresh answer knows its own)."""
    return _version.decode(body).version


def event_json(
    rules: Rules, kind: str, record: Record[msgspec.Struct], viewer: int | None
) -> bytes:
    """A stored event as `viewer` (a seat, or None for spectators) may see it, on the wire."""
    redacted = rules.redact(record.e, viewer)
    return _encoder.encode(game_event(kind, record.v, record.at, redacted))


def view_json(view: View) -> bytes:
    """A table's view."""
    return _encoder.encode(view)


def created_json(view: View, host_token: str) -> bytes:
    """A new table's answer, with its host token."""
    return _encoder.encode(Created(game=view, host_token=host_token))


def joined_json(player_id: str, seat: int, token: str, view: View) -> bytes:
    """A taken seat's answer, with its token."""
    return _encoder.encode(Joined(player_id=player_id, seat=seat, token=token, game=view))


def house_seated_json(player_id: str, seat: int, view: View) -> bytes:
    """A house player's seat: no token (nobody plays it but the house)."""
    return _encoder.encode(HouseSeated(player_id=player_id, seat=seat, game=view))


def _raw(events: Sequence[bytes]) -> list[GameEvent]:
    # Events already made as JSON go into the answer as they are.
    return cast(list[GameEvent], [msgspec.Raw(e) for e in events])


def result_json(version: int, events: Sequence[bytes], view: View) -> bytes:
    """A command's answer: the new version, the events as the mover sees them, the view."""
    return _encoder.encode(CommandResult(version=version, events=_raw(events), game=view))


def page_json(events: Sequence[bytes], version: int, more: bool) -> bytes:
    """A page of events, each already as the asker sees it."""
    return _encoder.encode(EventPage(events=_raw(events), version=version, more=more))
