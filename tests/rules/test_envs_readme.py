"""The package README's examples of the environments run as written (its table's example:
test_readme.py)."""

from __future__ import annotations

import contextlib
import io

import pytest

from tests.snippets import snippet

README = "rules/README.md"


def _run(code: str) -> str:
    """Run a README block as written; what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "<readme>", "exec"), {"__name__": "readme"})
    return printed.getvalue()


def test_the_pettingzoo_example_plays_a_match_and_tells_it() -> None:
    assert "The match is over" in _run(snippet(README, "rules-pettingzoo"))


def test_the_driver_example_plays_a_match_to_its_rewards() -> None:
    rewards = eval(_run(snippet(README, "rules-driver")).strip().splitlines()[-1])
    assert sorted(rewards) == [-1.0, 0.0, 1.0]


def test_the_openspiel_example_plays_a_match() -> None:
    pytest.importorskip("pyspiel", reason="open-spiel is not installed here")
    assert "The match is over" in _run(snippet(README, "rules-openspiel"))


def test_the_search_bot_example_plays_a_match() -> None:
    assert _run(snippet(README, "rules-search-bot")).strip().startswith("(")
