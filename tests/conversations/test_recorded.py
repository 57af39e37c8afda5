"""The recorded conversations are what the service says now: each is recorded again and diffed.
`make conversations` (KRONIKAS_UPDATE_CONVERSATIONS=1) rewrites them, as `make golden` rewrites
the golden playthroughs."""

from __future__ import annotations

import os

import pytest

from tests.conversations.record import CONVERSATIONS, path_of, read, record, write


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
async def test_the_service_answers_as_recorded(
    name: str, redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = await record(name, redis_url, monkeypatch)
    if os.environ.get("KRONIKAS_UPDATE_CONVERSATIONS") == "1":
        write(name, lines)
    assert path_of(name).exists(), "run `make conversations` to record it"
    recorded = read(name)
    differs = [(n, a, b) for n, (a, b) in enumerate(zip(lines, recorded, strict=False)) if a != b]
    assert len(lines) == len(recorded) and not differs, (
        f"the service answers otherwise (`make conversations` rewrites): {differs[:1]}"
    )
