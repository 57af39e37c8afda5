"""No transport reaches past the use cases (issue 39, docs/engines.md "One way in"): a module
under `api/` imports from `application/` only the façade (`Games`), the seat session, the
errors, the registry's type, table ids and the public wire types, by the names below.
The socket's and MCP's modules stay under 350 lines each: framing, not features.

Not the held table (`application/tables.Fold`), the fold cache (`application/folds`), the
access checks (`application/access`), the house's helpers (`next_deadline`) nor the wire's
private helpers (`view_json`): a feature for seats is written once, in the application, and
every transport frames it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tests.source import parse

ROOT = Path(__file__).resolve().parent.parent
API = "services/kronikas/src/kronikas/api"

ALLOWED: dict[str, frozenset[str]] = {
    # the façade every transport goes through, and what its use cases answer
    "kronikas.application.games": frozenset({"Games", "Answer", "Delivered", "Session", "Sight"}),
    # a viewer at a table: its session, its view, the seating commands every game shares
    "kronikas.application.session": frozenset({"Session", "Sight", "SEATING"}),
    "kronikas.application.errors": frozenset({"*"}),
    # what a name people give must be: a player's and an entrant's, one rule
    "kronikas.application.names": frozenset({"MARKS_PER_BASE", "shown_name"}),
    # the arena's façade and its wire types
    "kronikas.application.arena": frozenset(
        {
            "Arena",
            "EntrantCreated",
            "EntrantPage",
            "Leaderboard",
            "QueueRequest",
            "RegisterEntrant",
            "SetPage",
            "Ticket",
        }
    ),
    "kronikas.application.engines": frozenset({"Registry"}),
    "kronikas.application.ids": frozenset({"GAME_ID_MAX", "no_table"}),
    "kronikas.application.wire": frozenset(
        {
            # the public wire types and what they are made of
            "Answer",
            "CommandResult",
            "Created",
            "Delivered",
            "EVENT_PAGE",
            "EventPage",
            "VIEWS_DEFAULT",
            "VIEWS_PAGE",
            "GameView",
            "HouseSeated",
            "Joined",
            "Wire",
            "utc_text",
            # the builders of wire types, which api/shapes.py, api/openapi.py, api/kinds.py and
            # api/socket_wire.py compose into the document's types
            "camel",
            "envelope",
            "list_of",
            "record_table",
            "struct_of",
        }
    ),
}
"""What any module under api/ may import from application/, by module."""


def imported(path: Path) -> list[tuple[str, str, int]]:
    """What `path` imports from `kronikas.application`: (module, name, line) each."""
    found: list[tuple[str, str, int]] = []
    for node in ast.walk(parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            module = node.module
            if module == "kronikas.application":  # `from kronikas.application import folds`
                found += [(f"{module}.{a.name}", "*", node.lineno) for a in node.names]
            elif module.startswith("kronikas.application."):
                found += [(module, a.name, node.lineno) for a in node.names]
        elif isinstance(node, ast.Import):
            found += [
                (a.name, "*", node.lineno)
                for a in node.names
                if a.name.startswith("kronikas.application")
            ]
    return found


def reaching(root: Path = ROOT) -> dict[str, list[str]]:
    """Each module under api/ that imports more of the application than it may, with what."""
    found: dict[str, list[str]] = {}
    for path in sorted((root / API).rglob("*.py")):
        where = path.relative_to(root).as_posix()
        wrong = [
            f"{line}: {module}.{name}"
            for module, name, line in imported(path)
            if not ({name, "*"} & ALLOWED.get(module, frozenset()))
        ]
        if wrong:
            found[where] = wrong
    return found


def test_api_imports_only_the_use_cases_of_the_application() -> None:
    found = reaching()
    assert not found, f"these reach past the application's use cases: {found}"


def test_what_is_looked_for_is_what_reaches_in(tmp_path: Path) -> None:
    api = tmp_path / API
    api.mkdir(parents=True)
    (api / "reaches.py").write_text(
        "from kronikas.application.tables import Fold\n"
        "from kronikas.application import folds\n"
        "import kronikas.application.access\n"
        "from kronikas.application.wire import view_json, GameView\n"
        "from kronikas.application.games import Games\n",
        encoding="utf-8",
    )
    found = reaching(tmp_path)[f"{API}/reaches.py"]
    assert [line.split(": ")[1] for line in found] == [
        "kronikas.application.tables.Fold",
        "kronikas.application.folds.*",
        "kronikas.application.access.*",
        "kronikas.application.wire.view_json",
    ]


FRAMING_MAX_LINES = 350
"""The most lines a module of the seat socket or of MCP holds (issue 39): a transport frames
what the use cases give, and a module that grows past it is writing a feature of its own."""


def test_the_socket_and_mcp_modules_only_frame() -> None:
    api = ROOT / API
    modules = [*api.glob("socket*.py"), *api.glob("ws_*.py"), *(api / "mcp").glob("*.py")]
    assert len(modules) >= 10, "the transports' modules moved: look for them again"
    long = {
        path.relative_to(ROOT).as_posix(): lines
        for path in modules
        if (lines := path.read_text(encoding="utf-8").count("\n")) > FRAMING_MAX_LINES
    }
    assert not long, f"over {FRAMING_MAX_LINES} lines: {long}"
