"""The rules each game ships as package data (`rules.md` in its package), which `/mcp` serves, made
from docs/rules.md: the parts every game shares (the deck; seats, dealers and shuffling; clocks,
leaving and the house) around the game's own section, named by its title. The Docker image has
no docs/, so the package carries them; test_rules_texts.py keeps them equal to the docs.

Run `python -m tests.mcp.rules_texts` after changing docs/rules.md to write them again.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import kronikas_rules
from tests.apps import ENGINES

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
SHARED_BEFORE = ("The deck", "Seats, dealers and shuffling")
SHARED_AFTER = ("Clocks, leaving and the house",)


def sections(markdown: str) -> dict[str, str]:
    """Each `## ` section of the page by its heading, with its text (separators dropped)."""
    found: dict[str, str] = {}
    for part in re.split(r"^(?=## )", markdown, flags=re.M)[1:]:
        heading, _, body = part.partition("\n")
        found[heading[3:].strip()] = f"{heading}\n{body}".rstrip().removesuffix("---").rstrip()
    return found


def packaged(kind: str, markdown: str | None = None) -> str:
    """The text shipped for `kind`, made from docs/rules.md."""
    title = ENGINES[kind].title
    parts = sections(markdown if markdown is not None else DOCS.read_text(encoding="utf-8"))
    names = (*SHARED_BEFORE, title, *SHARED_AFTER)
    body = "\n\n".join(parts[name] for name in names)
    return (
        f"# The rules of {title}, as Krónikás enforces them\n\n"
        "(From the service's docs/rules.md; links to api.md are to the HTTP API's page.)\n\n"
        f"{body}\n"
    )


def shipped(kind: str) -> Path:
    """Where the game `kind` ships its rules: `rules.md` in its package."""
    return Path(kronikas_rules.__file__).resolve().parent / kind / "rules.md"


def main() -> None:
    for kind in ENGINES:
        shipped(kind).write_text(packaged(kind), encoding="utf-8")
        print(f"wrote {shipped(kind)}", file=sys.stderr)


if __name__ == "__main__":
    main()
