"""The rules README's duplicate set and ratings example runs as written (tests/snippets.py)."""

from __future__ import annotations

import contextlib
import io

from tests.snippets import snippet

README = "rules/README.md"


def test_the_arena_example_rates_a_duplicate_sets_positions() -> None:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(snippet(README, "rules-arena"), README, "exec"), {"__name__": "readme"})
    first, *board = out.getvalue().splitlines()
    ranked = eval(first)
    assert [[name for name, _ in ranking] for ranking in ranked] == [
        ["anna", "dani"],
        ["bela", "cili"],
    ]
    assert sorted(line.split()[0] for line in board) == ["anna", "bela", "cili", "dani"]
    assert all(line.split()[4] == "5" for line in board)
