"""Every code block of the READMEs and docs that a reader could run is either run by a test or
marked as not meant to run, with the reason (tests/snippets.py says how blocks are marked)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from tests.snippets import ROOT, RUNNABLE, blocks, markdown_files

HERE = Path(__file__).resolve()


def test_every_block_that_would_run_is_marked() -> None:
    unmarked = [
        f"{b.path}:{b.line} ({b.lang})"
        for path in markdown_files()
        for b in blocks(path)
        if b.lang in RUNNABLE and b.mark is None
    ]
    assert not unmarked, (
        "mark each with <!-- run: NAME --> (and run it in a test) or <!-- not run: why -->: "
        + ", ".join(unmarked)
    )
    reasons = [b for path in markdown_files() for b in blocks(path) if b.mark == "not run"]
    assert all(b.name for b in reasons), [f"{b.path}:{b.line}" for b in reasons if not b.name]


def test_every_block_marked_run_is_run_by_a_test() -> None:
    named = [(b.path, b.name) for path in markdown_files() for b in blocks(path) if b.mark == "run"]
    assert named, "the docs' runnable snippets are marked"
    twice = [k for k, n in Counter(named).items() if n > 1]
    assert not twice, twice
    tests = [
        p.read_text()
        for p in (ROOT / "tests").rglob("*.py")
        if p.resolve() != HERE and p.name != "snippets.py"
    ]
    untaken = [
        f"{path}: {name}"
        for path, name in named
        if not any(re.search(rf'snippet\([^)]*"{re.escape(name)}"\)', t) for t in tests)
    ]
    assert not untaken, f"no test takes these snippets (snippet(path, NAME)): {untaken}"
