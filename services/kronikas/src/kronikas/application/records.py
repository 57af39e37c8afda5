"""How events are kept in the log: an envelope around the engine's event."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Generic, TypeVar

import msgspec

E = TypeVar("E")


class Record(msgspec.Struct, Generic[E], frozen=True, omit_defaults=True):
    """A stored event: version, time, and on the first record the table's kind and seed."""

    v: int
    at: str
    e: E
    k: str | None = None
    seed: int | None = None
    n: str | None = None
    """On the first record of each append: a random nonce, so an append can know its own."""


def utc_now() -> str:
    """The current time as RFC 3339 UTC with milliseconds."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def ms_of(at: str) -> int:
    """Milliseconds since the epoch of a time written by `utc_now`."""
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


_encoder = msgspec.json.Encoder()


def encode(record: Record[Any]) -> bytes:
    """A record's stored bytes."""
    return _encoder.encode(record)
