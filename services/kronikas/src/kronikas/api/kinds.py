"""`GET /v1/kinds`, derived from the engines' option types so it cannot drift from them."""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi

from kronikas.api.wire import KindInfo, Kinds, OptionInfo
from kronikas.application.engines import ENGINES
from kronikas.domain.engine import Rules, tag_of


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


def _describe(game: Rules) -> KindInfo:
    info = mi.type_info(game.options)
    if not isinstance(info, mi.StructType):
        raise TypeError(f"{game.title}'s options are not a struct")
    options = [_option(f) for f in info.fields]
    commands = sorted(tag_of(c) for c in game.commands)
    most = max(game.max_players(o) for o in _extreme_options(game.options))
    return KindInfo(game.kind, game.min_players, most, options, commands)


def _extreme_options(options_type: type[msgspec.Struct]) -> list[msgspec.Struct]:
    # max_players may depend on the options (Cheat's decks): try each integer option at its top.
    info = mi.type_info(options_type)
    if not isinstance(info, mi.StructType):
        raise TypeError(f"{options_type.__name__} is not a struct")
    out = [options_type()]
    for field in info.fields:
        option = _option(field)
        if option.type == "integer" and option.maximum is not None:
            out.append(msgspec.structs.replace(options_type(), **{field.name: option.maximum}))
    return out


def kinds() -> Kinds:
    """Every game kind with its players and options."""
    return Kinds([_describe(game) for game in ENGINES.values()])
