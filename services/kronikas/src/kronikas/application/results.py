"""What the use cases answer with: the wire shapes of API.md that carry views and events."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from kronikas.domain.cheat import CheatGameView
from kronikas.domain.thirty_one import ThirtyOneGameView

GameView = Annotated[
    CheatGameView | ThirtyOneGameView,
    msgspec.Meta(description="A table as the asker may see it; `kind` says which game."),
]


class GameEvent(msgspec.Struct, frozen=True):
    """One change to a table, as the asker may see it (API.md, Events)."""

    version: int
    type: str
    at: str
    data: dict[str, Any]


class CommandResult(msgspec.Struct, frozen=True):
    """A command's outcome: the new version, its events and the table, as the mover sees them."""

    version: int
    events: list[GameEvent]
    game: GameView


class EventPage(msgspec.Struct, frozen=True):
    """Events after a version, and the table's current version."""

    events: list[GameEvent]
    version: int


class Created(msgspec.Struct, frozen=True):
    """A new table and the host token that may start it."""

    game: GameView
    host_token: str


class Joined(msgspec.Struct, frozen=True):
    """A seat taken: the player's id, seat and token, and the table as they see it."""

    player_id: str
    seat: int
    token: str
    game: GameView
