"""What a bot is: something that watches a table's events and, when asked, picks a command."""

from __future__ import annotations

from typing import Any, Protocol, TypeAlias

from kronikas_client.events import GameEvent
from kronikas_client.models import (
    Accept,
    Call,
    CheatGameView,
    Exchange,
    Keep,
    Pass,
    Play,
    Show,
    Swap,
    SwapAll,
    ThirtyOneGameView,
)

View: TypeAlias = CheatGameView | ThirtyOneGameView
CheatCommand: TypeAlias = Play | Call | Accept
ThirtyOneCommand: TypeAlias = Keep | Exchange | Swap | SwapAll | Pass | Show
Command: TypeAlias = CheatCommand | ThirtyOneCommand


PRESENCE = ("leave", "back")
"""Commands a seat may send about itself at any time (`legal` lists them too); not game moves."""


def moves(view: View) -> list[str]:
    """The game's command types the seat may send now: `legal` less `leave` and `back`."""
    return [kind for kind in view.legal or [] if kind not in PRESENCE]


class Bot(Protocol):
    """A player's brain. The driver feeds it every event its seat may see, in order, then asks
    `act` whenever the seat's view lists moves of the game (`moves`); `None` means "nothing
    now" (only an optional call may be declined that way)."""

    name: str

    def observe(self, event: GameEvent) -> None:
        """Take note of one event (as this seat sees it)."""
        ...

    def act(self, view: Any) -> Command | None:
        """The command to send now, or None to let the moment pass."""
        ...
