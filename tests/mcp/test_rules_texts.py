"""The rules the MCP endpoint ships inside the package (the Docker image has no docs/) are the
rules of docs/rules.md, word for word: a change to the docs that is not shipped fails here."""

from __future__ import annotations

from tests.apps import ENGINES
from tests.mcp.rules_texts import DOCS, packaged, sections, shipped

FIX = "run `python -m tests.mcp.rules_texts` to ship docs/rules.md again"


def test_each_game_ships_its_rules_as_docs_rules_md_has_them() -> None:
    for kind, game in ENGINES.items():
        assert game.rules_text == packaged(kind), f"{kind}: {FIX}"
        assert shipped(kind).read_text(encoding="utf-8") == game.rules_text, FIX


def test_a_shipped_text_holds_its_game_and_the_shared_parts_alone() -> None:
    for game in ENGINES.values():
        text = game.rules_text
        assert text is not None
        headings = [line for line in text.splitlines() if line.startswith("## ")]
        assert f"## {game.title}" in headings
        others = {other.title for other in ENGINES.values()} - {game.title}
        assert not {f"## {title}" for title in others} & set(headings)


def test_an_edit_of_the_docs_changes_what_would_be_shipped() -> None:
    docs = (DOCS).read_text(encoding="utf-8")
    kind, game = next(iter(ENGINES.items()))
    edited = docs.replace(f"## {game.title}\n", f"## {game.title}\n\nA new rule.\n", 1)
    assert "A new rule." in sections(edited)[game.title]
    assert packaged(kind, edited) != game.rules_text
