"""Request bodies and the answers that carry no view (the rest are in application/wire.py)."""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal, Protocol, TypeAlias, Union

import msgspec

from kronikas.api.kinds import OptionInfo, describe
from kronikas.application.engines import Registry
from kronikas.application.wire import Wire, camel, list_of, struct_of

Seed = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=2**63 - 1,
        description=(
            "Deal reproducibly from this seed (the view then says `seeded: true`): for tests and"
            " replays, never a fair game (a guessable seed can be found from a deal's commitment)."
        ),
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


class CreateRequest(Protocol):
    """What every create request holds (its class's tag is the kind)."""

    @property
    def options(self) -> msgspec.Struct: ...

    @property
    def seed(self) -> int | None: ...


def _commands(engines: Registry) -> tuple[type[msgspec.Struct], ...]:
    found: dict[type[msgspec.Struct], None] = {}
    for game in engines.values():
        found.update(dict.fromkeys(game.commands))  # a command two games share is listed once
    return tuple(found)


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


class ApiWire(Wire):
    """Every wire type that names the games of one registry, made once for each app: the create
    requests and the command union (with their decoders), the kinds, the lobby's entries, and
    the answers that carry views and events (`application.wire.Wire`). The routes' types
    are these (`namespace`), so the OpenAPI document lists exactly the app's games."""

    def __init__(self, engines: Registry) -> None:
        super().__init__(engines)
        self.create_requests = {
            kind: _create(kind, game.title, game.options) for kind, game in engines.items()
        }
        """The create request of each game, by kind."""
        self.create_kinds: dict[type, str] = {
            request: kind for kind, request in self.create_requests.items()
        }
        self.CreateGame: Any = Union[tuple(self.create_requests.values())]  # noqa: UP007
        self.Command: Any = Union[_commands(engines)]  # noqa: UP007
        """Every wire command of every game, tagged on `type`."""
        self.commands: msgspec.json.Decoder[msgspec.Struct] = msgspec.json.Decoder(self.Command)
        self.Kind: Any = Literal[tuple(engines)]
        """A game's kind."""
        kind = self.Kind
        self.LobbyEntry = struct_of(
            "LobbyEntry",
            "One table in the lobby.",
            [
                ("id", str),
                ("kind", kind),
                ("status", Literal["open", "playing", "finished"]),
                ("players", int),
                ("max_players", int),
                ("created_at", str),
                ("seeded", bool),
            ],
        )
        self.Lobby = struct_of(
            "Lobby",
            "A page of tables, newest first.",
            [("games", list_of(self.LobbyEntry)), ("offset", int), ("limit", int), ("more", bool)],
        )
        self.KindInfo = struct_of(
            "KindInfo",
            "A game kind: how many may play, and its options.",
            [
                ("kind", kind),
                ("min_players", int),
                ("max_players", int),
                ("options", list[OptionInfo]),
                ("commands", list[str]),
            ],
        )
        self.Kinds = struct_of(
            "Kinds", "The game kinds this service runs.", [("kinds", list_of(self.KindInfo))]
        )

    @functools.cached_property
    def kinds(self) -> Any:
        """`GET /v1/kinds` for these games, made once (the app factory asks at its start)."""
        return self.Kinds([self.KindInfo(*describe(game)) for game in self.engines.values()])

    @functools.cached_property
    def _most(self) -> dict[str, int]:
        return {k.kind: k.max_players for k in self.kinds.kinds}

    def max_players(self, kind: str) -> int:
        """The most players a table of `kind` may have, as `GET /v1/kinds` says."""
        return self._most[kind]

    def namespace(self) -> dict[str, Any]:
        """The routes' type names as this registry makes them: what Litestar reads the routes'
        signatures with (the app's `signature_namespace`)."""
        return {
            "CreateGame": self.CreateGame,
            "Kind": self.Kind,
            "Kinds": self.Kinds,
            "Lobby": self.Lobby,
            "GameView": self.GameView,
            "CommandResult": self.CommandResult,
            "EventPage": self.EventPage,
            "GameRecord": self.GameRecord,
            "PastViews": self.PastViews,
            "Created": self.Created,
            "Joined": self.Joined,
            "HouseSeated": self.HouseSeated,
        }


# The routes' signatures name the wire types each app makes from its registry: Litestar reads
# them with the app's `signature_namespace` (`ApiWire.namespace`), which these names stand for.
# To a type checker, and to anything else that reads them, they are what every such type is.
CreateGame: TypeAlias = CreateRequest
Command: TypeAlias = msgspec.Struct
Kind: TypeAlias = str
Kinds: TypeAlias = msgspec.Struct
Lobby: TypeAlias = msgspec.Struct
GameView: TypeAlias = msgspec.Struct
CommandResult: TypeAlias = msgspec.Struct
EventPage: TypeAlias = msgspec.Struct
GameRecord: TypeAlias = msgspec.Struct
PastViews: TypeAlias = msgspec.Struct
Created: TypeAlias = msgspec.Struct
Joined: TypeAlias = msgspec.Struct
HouseSeated: TypeAlias = msgspec.Struct
