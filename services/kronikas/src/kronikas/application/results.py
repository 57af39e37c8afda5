"""What the use cases answer with: the wire shapes of API.md that carry views and events."""

from __future__ import annotations

from typing import Annotated, Any, get_args

import msgspec

from kronikas.application.engines import ENGINES
from kronikas.domain.cheat import CheatGameView
from kronikas.domain.thirty_one import ThirtyOneGameView

GameView = Annotated[
    CheatGameView | ThirtyOneGameView,
    msgspec.Meta(description="A table as the asker may see it; `kind` says which game."),
]


def _event_types() -> str:
    lines = ["The event's fields, as the asker may see them (hidden ones are null). By `type`:"]
    for kind, engine in ENGINES.items():
        lines.append(f"\n{kind}:")
        for cls in get_args(engine.Event):
            doc = " ".join((cls.__doc__ or "").split()).split(". ")[0].rstrip(".")
            lines.append(f"- `{cls.__struct_config__.tag}`: {doc}.")
    return "\n".join(lines)


class GameEvent(msgspec.Struct, frozen=True):
    """One change to a table, as the asker may see it (API.md, Events)."""

    version: Annotated[int, msgspec.Meta(description="1, 2, 3… without gaps.")]
    type: Annotated[str, msgspec.Meta(description="What happened; the list is under `data`.")]
    at: Annotated[str, msgspec.Meta(description="When, as RFC 3339 UTC.")]
    data: Annotated[dict[str, Any], msgspec.Meta(description=_event_types())]


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
