"""What the fold cache holds for minutes is kept out of the collector's passes where it can be
(issue 43): a stored record refers to its event and strings, never back, so it is in no cycle
and is not tracked (`gc=False`)."""

from __future__ import annotations

import gc

import msgspec

from kronikas.application.wire import Record


def test_a_stored_record_is_not_tracked_by_the_collector() -> None:
    record = Record(v=1, at="2026-12-07T00:00:00.000Z", e={"x": 1})
    assert not gc.is_tracked(record)
    decoded = msgspec.json.decode(msgspec.json.encode(record), type=Record[dict[str, int]])
    assert not gc.is_tracked(decoded)
