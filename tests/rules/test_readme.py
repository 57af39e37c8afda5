"""The rules package's README runs as written (tests/snippets.py: how its blocks are marked)."""

from __future__ import annotations

import contextlib
import io

from tests.snippets import snippet

README = "rules/README.md"


def test_the_tables_example_plays_a_match_and_shows_a_refusal() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet(README, "rules-table"), README, "exec"), {"__name__": "readme"})
    lines = out.getvalue().splitlines()
    assert lines[0] == "['cheat', 'thirty_one']"
    assert lines[1].startswith("['") and len(eval(lines[1])) == 10  # 32 cards to 3 seats, 2 aside
    assert "after" in lines[2] and lines[2].startswith("[")
    assert lines[3] == "not_your_turn"
