"""High Card: a third game that lives under `tests/`, to prove a game is one package.

Nothing in the product names it: the tests hand it to the app factory
(`create_app(games=registry(...))`), and through it the whole service plays it. Its rules:
two players, a few rounds on the 32-card deck; each round deals one card face down to each seat;
in turn each seat `reveal`s or `fold`s; the higher card of those revealed wins the round (a
seat that folds loses it, both folding: nobody wins); most rounds won wins the match.
"""

from __future__ import annotations

from tests.third_game.engine import ENGINE, GAMES
from tests.third_game.options import KIND

__all__ = ["ENGINE", "GAMES", "KIND"]
