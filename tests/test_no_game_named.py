"""No generic layer names a real game (issue 26): a game is its package, plus one line in
`kronikas_rules/games.py`.

The code of `application/`, `adapters/`, `api/`, the Python SDK's hand-written modules and the
shared modules of `web/` and `bots/` (every module but a game's own, which is named by its kind:
`web/cheat.js`, `bots/src/kronikas_bots/thirty_one.py`) may not name a game of the registry: its
kind, its title, its kind in CamelCase (the prefix of its wire types), nor a tag of a command or
event of its own (one no other game has: `cheat_called`, `hand_kept`, and as a string `"call"`…).
Documentation (`*.md`) and the vendored docs pages (`api/static/`) are not scanned.
"""

from __future__ import annotations

import re
from pathlib import Path

from kronikas.application.wire import camel
from kronikas_rules.engine import tag_of
from tests.apps import ENGINES
from tools.gen_sdk import GENERATED, HAND_WRITTEN

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "services/kronikas/src/kronikas"
RULES = "rules/src/kronikas_rules"
SCANNED = [
    f"{PACKAGE}/application",
    f"{PACKAGE}/adapters",
    f"{PACKAGE}/api",
    *(f"sdk/{GENERATED}/{name.as_posix()}" for name in HAND_WRITTEN),
]
SHARED = ["web", "bots/src/kronikas_bots", RULES]
"""Folders whose modules are shared but for a game's own (named by its kind)."""
CODE = {".py", ".js", ".lua", ".html"}
VENDORED = f"{PACKAGE}/api/static"
"""Third-party bundles of the docs pages."""

REGISTRY = f"{RULES}/games.py"
"""The one place that names every game: a line each (the rules package's registry)."""

ALLOWED = {
    # The clients' one place each that lists their game modules, as application/engines.py is
    # the service's: a new game for the web table or the bots is its module and one line there.
    "web/games.js": "the web table's game modules by kind",
    "bots/src/kronikas_bots/games.py": "the bots' games by kind",
}
"""The places besides application/engines.py that may name a game. Any other that names one
fails the test."""


def _names() -> re.Pattern[str]:
    """What names a game: its kind, title and CamelCase kind, and its own tags."""
    words: set[str] = set()
    tags: dict[str, set[str]] = {}
    for kind, game in ENGINES.items():
        words |= {kind, game.title, camel(kind)}
        for cls in (*game.commands, *game.events):
            tags.setdefault(tag_of(cls), set()).add(kind)
    own = sorted(tag for tag, kinds in tags.items() if len(kinds) == 1)
    spelled = [re.escape(w).replace("_", "[_ -]?").replace(r"\-", "[_ -]?") for w in words]
    # A tag with an underscore is a name wherever it stands; one that is an English word
    # (`call`, `pass`) only as a string.
    worded = [rf"\b{re.escape(t)}\b" for t in own if "_" in t]
    quoted = [
        rf"(?-i:[\"'`]{re.escape(t)}[\"'`])" for t in own
    ]  # tags are lower case: not `"Accept"`
    return re.compile("|".join([*spelled, *worded, *quoted]), re.I)


def _files() -> list[Path]:
    kinds = set(ENGINES)
    found = [
        p
        for folder in SCANNED
        for p in ((ROOT / folder).rglob("*") if (ROOT / folder).is_dir() else [ROOT / folder])
        if p.suffix in CODE and not p.is_relative_to(ROOT / VENDORED)
    ]
    for folder in SHARED:
        found += [p for p in (ROOT / folder).glob("*") if p.suffix in CODE and p.stem not in kinds]
    return sorted(found)


def naming() -> dict[str, list[str]]:
    """Each scanned file that names a game, with the lines that do."""
    pattern = _names()
    found: dict[str, list[str]] = {}
    for path in _files():
        lines = [
            f"{n}: {line.strip()}"
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
            if pattern.search(line)
        ]
        if lines:
            found[path.relative_to(ROOT).as_posix()] = lines
    return found


def test_no_generic_layer_names_a_game() -> None:
    found = naming()
    new = {path: lines for path, lines in found.items() if path not in ALLOWED | {REGISTRY: ""}}
    assert not new, f"these name a game outside its package: {new}"


def test_the_registry_names_each_game_on_its_import_and_its_registry_line() -> None:
    lines = naming().get(REGISTRY, [])
    assert len(lines) <= 3 * len(ENGINES), lines  # the import, and the registry line (+ wrap)


def test_the_names_looked_for_are_the_games_own() -> None:
    pattern = _names()
    for text in ("CheatGameView", "thirty_one", "Thirty-One", "ThirtyOne", "hand_kept", '"call"'):
        assert pattern.search(text), text
    shared = ("round_dealt", "match_ended", "player_joined", '"leave"', "a call", "seat_away")
    for text in (*shared, '"Accept"'):  # a header, not the tag `accept`
        assert not pattern.search(text), text
