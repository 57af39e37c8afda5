"""Fixtures of the hostile-input tests: each uses the `service` its module has (the session's,
or a module's own with other settings)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ServiceProcess


@pytest.fixture
def clean_log(service: ServiceProcess) -> Iterator[None]:
    """No traceback, no failure logged while the test ran (by whichever `service` the module
    has)."""
    start = service.log.stat().st_size
    yield
    written = written_since(service.log, start)
    assert "Traceback" not in written and "unexpected failure" not in written, written[-3000:]
    assert '"level": "error"' not in written, written[-3000:]


def written_since(log: Path, start: int) -> str:
    """What a service wrote to its log after `start` bytes."""
    with log.open("rb") as f:
        f.seek(start)
        return f.read().decode(errors="replace")
