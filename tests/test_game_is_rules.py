"""Writing a game is writing rules (issue 39): the shared parts of the domain are shared, and a
game's package holds its rules alone.

- Every game, the test game too, is made by `kronikas_rules/builder.py`'s `build`: its `decide`,
  `evolve`, `legal`, `legal_moves` and `view` are the builder's composition around the game's
  own, and its rules text (what `/mcp` serves) is `rules.md` in its own package.
- Seating's commands and events are defined in `kronikas_rules/seating.py`, beside its decider.
- `kronikas_rules.cards`, the deck every game shares, names no game: a card's worth or the order
  ranks are announced in is a game's own rule.
- No module of the service is over 450 lines, and no function over 100.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from kronikas_rules import seating
from kronikas_rules.engine import Rules
from tests.apps import ENGINES
from tests.source import parse
from tests.third_game import ENGINE as HIGH_CARD

ROOT = Path(__file__).resolve().parent.parent
SERVICE = ROOT / "services/kronikas/src/kronikas"
DOMAIN = ROOT / "rules/src/kronikas_rules"
"""The rules package: every game's rules, and the parts games share."""
GAMES: list[Rules] = [*ENGINES.values(), HIGH_CARD]  # type: ignore[list-item]
MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 100


@pytest.mark.parametrize("game", GAMES, ids=lambda game: game.kind)
def test_every_game_is_built_from_its_rules(game: Rules) -> None:
    for name in ("decide", "evolve", "legal", "legal_moves", "view", "standing", "house_seats"):
        assert getattr(game, name).__module__ == "kronikas_rules.builder", name
    package = importlib.import_module(game.house_command.__module__.rpartition(".")[0])
    assert package.__file__ is not None
    shipped = Path(package.__file__).parent / "rules.md"
    assert game.rules_text is not None and game.rules_text == shipped.read_text(encoding="utf-8")


def test_seatings_commands_and_events_live_in_seating() -> None:
    for cls in (seating.Join, seating.Leave, seating.Back, seating.TimeOut):
        assert cls.__module__ == "kronikas_rules.seating", cls
    for cls in (seating.PlayerJoined, seating.PlayerLeft, seating.SeatAway, seating.SeatBack):
        assert cls.__module__ == "kronikas_rules.seating", cls


def test_the_shared_deck_names_no_game() -> None:
    text = (DOMAIN / "cards.py").read_text(encoding="utf-8").lower()
    for game in GAMES:
        for name in (game.kind, game.title.lower(), game.kind.replace("_", "-")):
            assert name not in text, f"kronikas_rules/cards.py names {name}"


def test_no_module_or_function_of_the_service_is_too_long() -> None:
    long: list[str] = []
    for path in sorted([*SERVICE.rglob("*.py"), *DOMAIN.rglob("*.py")]):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        if text.count("\n") > MAX_MODULE_LINES:
            long.append(f"{where}: {text.count(chr(10))} lines")
        for node in ast.walk(parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{where}: {node.name} is {lines} lines")
    assert not long, long
