"""What the use cases answer with: the wire shapes of docs/api.md that carry views and events."""

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
    """One change to a table, as the asker may see it (docs/api.md, Events)."""

    version: Annotated[int, msgspec.Meta(description="1, 2, 3… without gaps.")]
    type: Annotated[str, msgspec.Meta(description="What happened; the list is under `data`.")]
    at: Annotated[str, msgspec.Meta(description="When, as RFC 3339 UTC.")]
    data: Annotated[dict[str, Any], msgspec.Meta(description=_event_types())]


class CommandResult(msgspec.Struct, frozen=True):
    """A command's outcome: the new version, its events and the table, as the mover sees them."""

    version: int
    events: list[GameEvent]
    game: GameView


EVENT_PAGE = 500
"""The most events one page holds; clients page on with `after`."""


class EventPage(msgspec.Struct, frozen=True):
    """Events after a version (at most 500 a page), and the table's current version."""

    events: Annotated[
        list[GameEvent],
        msgspec.Meta(
            description=f"At most {EVENT_PAGE} events, oldest first; when `more` is true, ask "
            "again with `after` set to the last one's version."
        ),
    ]
    version: Annotated[int, msgspec.Meta(description="The table's version when it was read.")]
    more: Annotated[
        bool,
        msgspec.Meta(
            description="True when events after this page exist: the page was cut at "
            f"{EVENT_PAGE} events."
        ),
    ]


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
