"""Request bodies and the answers that carry no view (the rest are in application/results.py)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from kronikas.domain.cheat import Accept, Call, CheatOptions, Play
from kronikas.domain.thirty_one import Exchange, Keep, Pass, Show, Swap, SwapAll, ThirtyOneOptions

Seed = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=2**63 - 1,
        description="Deal reproducibly from this seed (the view then says `seeded: true`).",
    ),
]


class CreateCheatGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="kind",
                      tag="cheat"):  # fmt: skip
    """Create a Cheat table."""

    options: CheatOptions = msgspec.field(default_factory=CheatOptions)
    seed: Seed | None = None


class CreateThirtyOneGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True,
                          tag_field="kind", tag="thirty_one"):  # fmt: skip
    """Create a Thirty-One table."""

    options: ThirtyOneOptions = msgspec.field(default_factory=ThirtyOneOptions)
    seed: Seed | None = None


CreateGame = CreateCheatGame | CreateThirtyOneGame

Name = Annotated[
    str,
    msgspec.Meta(
        min_length=1,
        max_length=32,
        description="1–32 printable characters.",
        examples=["Ilona"],
    ),
]


class JoinRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """Take a seat at an open table."""

    name: Name


Command = Play | Call | Accept | Keep | Exchange | Swap | SwapAll | Pass | Show
"""Every wire command of both games, tagged on `type`."""


class LobbyEntry(msgspec.Struct, frozen=True):
    """One table in the lobby."""

    id: str
    kind: Literal["cheat", "thirty_one"]
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

    kind: Literal["cheat", "thirty_one"]
    min_players: int
    max_players: int
    options: list[OptionInfo]
    commands: list[str]


class Kinds(msgspec.Struct, frozen=True):
    """The game kinds this service runs."""

    kinds: list[KindInfo]
