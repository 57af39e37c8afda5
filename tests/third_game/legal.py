"""What a seat may do now, stated once: reveal or fold, on its turn."""

from __future__ import annotations

from tests.third_game.states import Playing, State, turn_of


def allowed(state: State, seat: int) -> list[str]:
    """The game's command types this seat may send now."""
    return ["reveal", "fold"] if isinstance(state, Playing) and turn_of(state) == seat else []
