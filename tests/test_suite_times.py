"""The README's suite times are written by `tools/suite_times.py`, never by hand: the README holds
one figure for each target between the script's markers, in the script's words; the script reads
pytest's summary as pytest prints it and replaces only its own figure."""

from __future__ import annotations

import datetime
import re
from pathlib import Path

import pytest

from tools.suite_times import README, TARGETS, Run, counts, rewrite, span

ROOT = Path(__file__).resolve().parent.parent
FIGURE = (
    r"[\d,]+ tests( \([\d,]+ skipped\))? in (\d+ min )?\d+ s on \d{4}-\d\d-\d\d "
    r"\(\d+ cores, load [\d.]+ at the start\)"
)


def test_the_readme_holds_each_targets_figure_as_the_script_writes_it() -> None:
    text = README.read_text()
    for target in TARGETS:
        found = span(target).findall(text)
        assert len(found) == 1, target
        figure = found[0][1]
        assert re.fullmatch(FIGURE, figure), figure


def test_the_summary_is_read_as_pytest_prints_it() -> None:
    serial = "tests/x.py ..  [1905/1905]\n===== 1897 passed, 8 skipped in 602.31s (0:10:02) =====\n"
    assert counts(serial) == {"passed": 1897, "skipped": 8}
    xdist = "[gw0] ...\n1224 passed, 3 skipped, 2 deselected, 1 error in 35.20s\n"
    assert counts(xdist) == {"passed": 1224, "skipped": 3, "deselected": 2, "errors": 1}
    earlier = "==== 5 failed, 10 passed in 1.00s ====\nmore\n===== 12 passed in 2.00s =====\n"
    assert counts(earlier) == {"passed": 12}
    with pytest.raises(ValueError):
        counts("make: *** [Makefile:40: lint] Error 1\n")


def test_a_run_replaces_its_own_figure_and_nothing_else() -> None:
    text = README.read_text()
    run = Run(
        "test-fast", {"passed": 1224, "skipped": 3}, 35.4, datetime.date(2026, 12, 6), 2, 3.14
    )
    assert (
        run.figure()
        == "1,224 tests (3 skipped) in 35 s on 2026-12-06 (2 cores, load 3.1 at the start)"
    )
    slow = Run("test", {"passed": 1905}, 581.0, datetime.date(2026, 12, 6), 2, 1.0)
    assert "1,905 tests in 9 min 41 s" in slow.figure()
    after = rewrite(text, "test-fast", run.figure())
    assert span("test-fast").findall(after)[0][1] == run.figure()
    assert span("test").findall(after) == span("test").findall(text)
    before_start, after_start = (
        text.split("<!-- times make test-fast -->"),
        after.split("<!-- times make test-fast -->"),
    )
    assert before_start[0] == after_start[0]
    with pytest.raises(ValueError):
        rewrite("no markers here", "test", run.figure())
