"""What the use cases answer with: the wire shapes of docs/api.md that carry views and events."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Union

import msgspec

from kronikas.application.engines import ENGINES
from kronikas.domain.engine import View, tag_of

if TYPE_CHECKING:
    GameView = View
else:
    GameView = Annotated[
        Union[tuple(game.view_type for game in ENGINES.values())],  # noqa: UP007
        msgspec.Meta(description="A table as the asker may see it; `kind` says which game."),
    ]


def wire_type(kind: str, tag: str) -> str:
    """An event's `type` on the wire: its stored tag named by its game (`cheat.round_dealt`).

    The log keeps the bare tags (`round_dealt`), which collide across games; the wire names
    them at the edge, so logs written before the names changed load and play on.
    """
    return f"{kind}.{tag}"


def camel(name: str) -> str:
    """`round_dealt` as `RoundDealt`: how wire type names are made from tags and kinds."""
    return "".join(part.capitalize() for part in name.split("_"))


def _first_sentence(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split()).split(". ")[0].rstrip(".")


def _envelopes() -> dict[str, dict[type, type[msgspec.Struct]]]:
    """One wire struct per event type of each engine, by kind and the event's class."""
    envelopes: dict[str, dict[type, type[msgspec.Struct]]] = {}
    for kind, game in ENGINES.items():
        by_class: dict[type, type[msgspec.Struct]] = {}
        for cls in game.events:
            tag = tag_of(cls)
            name = f"{camel(kind)}{camel(tag)}Event"
            envelope = msgspec.defstruct(
                name,
                [
                    ("version", Annotated[int, msgspec.Meta(description="1, 2, 3… without gaps.")]),
                    ("at", Annotated[str, msgspec.Meta(description="When, as RFC 3339 UTC.")]),
                    ("data", cls),  # the event's fields as the asker may see them
                ],
                tag_field="type",
                tag=wire_type(kind, tag),
                frozen=True,
                module=__name__,
            )
            envelope.__doc__ = (
                f"`{wire_type(kind, tag)}`: {_first_sentence(cls)}. `data` holds its fields as "
                "the asker may see them (hidden ones are null)."
            )
            by_class[cls] = envelope
        envelopes[kind] = by_class
    return envelopes


ENVELOPES = _envelopes()
"""The wire struct of each event, by kind and the event's class: `GameEvent`'s members."""

if TYPE_CHECKING:
    GameEvent = msgspec.Struct
else:
    GameEvent = Annotated[
        Union[tuple(e for by_class in ENVELOPES.values() for e in by_class.values())],  # noqa: UP007
        msgspec.Meta(
            description="One change to a table, as the asker may see it (docs/api.md, Events): "
            "`type` names the game and the event (`cheat.round_dealt`), `data` holds its fields."
        ),
    ]


def game_event(kind: str, version: int, at: str, event: msgspec.Struct) -> msgspec.Struct:
    """The wire form of `event`, a `kind` table's event (already redacted for its viewer)."""
    envelope: Callable[..., msgspec.Struct] = ENVELOPES[kind][type(event)]
    return envelope(version=version, at=at, data=event)


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


class HouseSeated(msgspec.Struct, frozen=True):
    """A house player seated: its id and seat, and the table as the host sees it. No token is
    handed out: nobody but the house plays that seat."""

    player_id: str
    seat: int
    game: GameView
