"""No acknowledged move lost when Redis fails over (issue 42, item 4): each scenario of
tests/failover/scenarios.py with real Redis servers, Sentinels and two service processes, and
every check it makes. The figures are printed (`-s`); benchmarks/failover.py runs them again."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.failover.scenarios import SCENARIOS, run
from tests.redis_group import can_start


@pytest.mark.parametrize("scenario", list(SCENARIOS))
async def test_no_acknowledged_command_is_lost_when(scenario: str, tmp_path: Path) -> None:
    if why := can_start(tmp_path):
        pytest.skip(why)
    figures = await run(scenario, tmp_path)
    print(f"\n{figures.line()}\n{figures.answers}")
    assert not figures.problems, "\n".join(figures.problems)
    assert figures.lost == 0 and figures.checked > 0
