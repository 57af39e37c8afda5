"""stub"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kronikas.domain.thirty_one.commands import Command, Keep, Pass, Show
from kronikas.domain.thirty_one.events import Event
from kronikas.domain.thirty_one.view_types import ThirtyOneGameView


def house_command(
    view: ThirtyOneGameView, history: Sequence[Event], rng: random.Random
) -> Command | None:
    legal = view.legal or []
    if "keep" in legal:
        return Keep()
    if "show" in legal:
        return Show()
    if "pass" in legal:
        return Pass()
    return None
