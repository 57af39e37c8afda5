"""How the house plays a High Card seat, from that seat's view alone."""

from __future__ import annotations

import random
from collections.abc import Sequence

from tests.third_game.commands import Command, Fold, Reveal
from tests.third_game.events import Event
from tests.third_game.states import strength
from tests.third_game.view import HighCardGameView


def house(view: HighCardGameView, seen: Sequence[Event], rng: random.Random) -> Command | None:
    """The house's move for the seat it plays: it reveals a high card (or one in three low
    ones) and folds the rest."""
    if view.me is None or not view.legal or "reveal" not in view.legal or not view.me.hand:
        return None
    high = strength(view.me.hand[0])[0] >= 4
    return Reveal() if high or rng.random() < 1 / 3 else Fold()
