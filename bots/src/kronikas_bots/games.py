"""The one place that lists the games the bots play: a table's `kind` → its game's module.

Each game's module holds everything of that game (its bots, its create request, its moves that
race, its progress lines) in one `base.Game`; the shared modules find it here by kind and name no
game. A new game is its module plus one line below.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from . import cheat, thirty_one
from .base import Game, View

AnyGame: TypeAlias = Game[Any, Any, Any]

GAMES: Mapping[str, AnyGame] = {game.kind: game for game in (cheat.GAME, thirty_one.GAME)}

KINDS = tuple(GAMES)
"""The kinds the bots play, in the order above (the first is `--game`'s default)."""

VIEWS: tuple[type[View], ...] = tuple(game.view for game in GAMES.values())
"""The SDK's view classes of those games."""

Command: TypeAlias = cheat.CheatCommand | thirty_one.ThirtyOneCommand
"""A game move of any of those games, as `send_command` takes it."""


def game_of(kind: str) -> AnyGame:
    """The game of a table's kind; ValueError for a kind the bots do not play."""
    try:
        return GAMES[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}; games: {', '.join(KINDS)}") from None
