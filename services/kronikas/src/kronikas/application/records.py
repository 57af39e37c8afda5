"""How events are kept in the log: an envelope around the engine's event."""

from __future__ import annotations

import time
from datetime import datetime
from typing import Generic, TypeVar

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
    """On the first record of each append: a nonce unique to it, so an append can know its own."""


_second: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """The current time as RFC 3339 UTC with milliseconds (`2026-11-29T17:09:36.123Z`)."""
    return utc_text(time.time_ns() // 1_000_000)


def utc_text(ms: int) -> str:
    """Epoch milliseconds as RFC 3339 UTC with milliseconds (`2026-11-29T17:09:36.123Z`).

    Called on every command: the text of the current second is made once a second.
    """
    global _second
    second, fraction = divmod(ms, 1000)
    if _second[0] != second:
        _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{_second[1]}.{fraction:03d}Z"


def ms_of(at: str) -> int:
    """Milliseconds since the epoch of a time written by `utc_now`."""
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


_encoder = msgspec.json.Encoder()


def encode(record: Record[msgspec.Struct]) -> bytes:
    """A record's stored bytes."""
    return _encoder.encode(record)
