"""What `GET /v1/kinds` says of a game, derived from its option types so it cannot drift from
them, and the players it declares (`Engine.seats`). The answer itself is the app's wire's
(`ApiWire.kinds`), made from its registry."""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

import msgspec
import msgspec.inspect as mi

from kronikas_rules.engine import Rules, tag_of


class OptionInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """One table option: its type, default and limits."""

    name: str
    type: Literal["integer", "boolean", "integer_list", "string"]
    default: Any
    nullable: bool = False
    minimum: int | None = None
    maximum: int | None = None
    min_items: int | None = None
    max_items: int | None = None
    description: str | None = None
    choices: list[str] | None = None
    """The values a `string` option may take."""


class KindFacts(NamedTuple):
    """A game kind's entry of `GET /v1/kinds`, field by field (`KindInfo` on the wire)."""

    kind: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    commands: list[str]


def _unwrap(kind: Any) -> tuple[Any, str | None]:
    if isinstance(kind, mi.Metadata):
        schema = kind.extra_json_schema or {}
        return kind.type, schema.get("description")
    return kind, None


def _option(field: mi.Field) -> OptionInfo:
    kind, description = _unwrap(field.type)
    nullable = False
    if isinstance(kind, mi.UnionType):
        members = [t for t in kind.types if not isinstance(t, mi.NoneType)]
        nullable = len(members) < len(kind.types)
        kind, inner = _unwrap(members[0])
        description = description or inner
    default = field.default if field.default is not msgspec.NODEFAULT else None
    if isinstance(default, tuple):
        default = list(default)
    if isinstance(kind, mi.IntType):
        return OptionInfo(
            field.name, "integer", default, nullable, kind.ge, kind.le, description=description
        )
    if isinstance(kind, mi.BoolType):
        return OptionInfo(field.name, "boolean", default, nullable, description=description)
    if isinstance(kind, mi.LiteralType) and all(isinstance(v, str) for v in kind.values):
        choices = sorted((str(v) for v in kind.values), key=lambda v: v != default)  # default 1st
        return OptionInfo(
            field.name, "string", default, nullable, description=description, choices=choices
        )
    if isinstance(kind, mi.VarTupleType | mi.ListType):
        item, _ = _unwrap(kind.item_type)
        if not isinstance(item, mi.IntType):
            raise TypeError(f"option {field.name}: /v1/kinds lists integers only")
        return OptionInfo(
            field.name,
            "integer_list",
            default,
            nullable,
            item.ge,
            item.le,
            kind.min_length,
            kind.max_length,
            description,
        )
    raise TypeError(f"option {field.name} has a type /v1/kinds cannot describe: {kind}")


def describe(game: Rules) -> KindFacts:
    """A game kind: how many may play, its options, its commands' tags."""
    info = mi.type_info(game.options)
    if not isinstance(info, mi.StructType):
        raise TypeError(f"{game.title}'s options are not a struct")
    options = [_option(f) for f in info.fields]
    commands = sorted(tag_of(c) for c in game.commands)
    least, most = game.seats
    return KindFacts(game.kind, least, most, options, commands)
