"""The service names cards as the web table does: one set of words in each language, kept
alike (the web table's in web/ui.js, the service's in kronikas_rules/cards.py for the accounts)."""

from __future__ import annotations

import re
from pathlib import Path

from kronikas_rules.cards import CHRONICLER_NAMES, RANK_NAMES, RANKS_PLURAL, SUIT_NAMES


def _js_table(source: str, name: str) -> dict[str, str]:
    """A `const NAME = { key: "value", … };` of web/ui.js, as a dict."""
    body = re.search(rf"const {name} = \{{(.*?)\}};", source, re.S)
    assert body is not None, name
    return dict(re.findall(r"(\w+): \"([^\"]+)\"", body.group(1)))


def test_cards_are_named_as_the_web_table_names_them() -> None:
    """The service's names of cards (kronikas_rules/cards.py) are the web table's, word for word."""
    source = (Path(__file__).resolve().parents[1] / "web" / "ui.js").read_text(encoding="utf-8")
    assert _js_table(source, "RANKS") == RANK_NAMES
    assert _js_table(source, "RANKS_PLURAL") == RANKS_PLURAL
    assert _js_table(source, "SUITS") == SUIT_NAMES
    for code, name in CHRONICLER_NAMES.items():
        assert f'if (code === "{code}") return "{name}";' in source
