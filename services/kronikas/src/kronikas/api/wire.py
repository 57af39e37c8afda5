"""Request bodies and the answers that carry no view (the rest are in application/results.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal, Protocol, Union

import msgspec

from kronikas.application.engines import ENGINES
from kronikas.application.results import camel

Seed = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=2**63 - 1,
        description="Deal reproducibly from this seed (the view then says `seeded: true`).",
    ),
]


def _create(kind: str, title: str, options: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """The create request of one game: its kind as the tag, its options, a seed."""
    made = msgspec.defstruct(
        f"Create{camel(kind)}Game",
        [
            ("options", options, msgspec.field(default_factory=options)),
            ("seed", Seed | None, None),
        ],
        tag_field="kind",
        tag=kind,
        frozen=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    made.__doc__ = f"Create a {title} table."
    return made


CREATE_REQUESTS = {kind: _create(kind, game.title, game.options) for kind, game in ENGINES.items()}
"""The create request of each game, by kind."""
CREATE_KINDS: dict[type, str] = {request: kind for kind, request in CREATE_REQUESTS.items()}


class CreateRequest(Protocol):
    """What every create request holds (its class's tag is the kind)."""

    @property
    def options(self) -> msgspec.Struct: ...

    @property
    def seed(self) -> int | None: ...


def _commands() -> tuple[type[msgspec.Struct], ...]:
    found: dict[type[msgspec.Struct], None] = {}
    for game in ENGINES.values():
        found.update(dict.fromkeys(game.commands))  # a command two games share is listed once
    return tuple(found)


if TYPE_CHECKING:
    CreateGame = CreateRequest
    Command = msgspec.Struct
    Kind = str
else:
    CreateGame = Union[tuple(CREATE_REQUESTS.values())]  # noqa: UP007
    Command = Union[_commands()]  # noqa: UP007
    """Every wire command of every game, tagged on `type`."""
    Kind = Literal[tuple(ENGINES)]
    """A game's kind."""

Name = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=32,
        description="1–32 printable characters once NFKC-normalised, not all blank; no two "
        "alike at a table, ignoring case.",
        examples=["Ilona"],
    ),
]


class JoinRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Take a seat at an open table."""

    name: Name


class LobbyEntry(msgspec.Struct, frozen=True):
    """One table in the lobby."""

    id: str
    kind: Kind
    status: Literal["open", "playing", "finished"]
    players: int
    max_players: int
    created_at: str


class Lobby(msgspec.Struct, frozen=True):
    """A page of tables, newest first."""

    games: list[LobbyEntry]
    offset: int
    limit: int
    more: bool


class OptionInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """One table option: its type, default and limits."""

    name: str
    type: Literal["integer", "boolean", "integer_list"]
    default: Any
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    description: str | None = None


class KindInfo(msgspec.Struct, frozen=True):
    """A game kind: how many may play, and its options."""

    kind: Kind
    min_players: int
    max_players: int
    options: list[OptionInfo]
    commands: list[str]


class Kinds(msgspec.Struct, frozen=True):
    """The game kinds this service runs."""

    kinds: list[KindInfo]
