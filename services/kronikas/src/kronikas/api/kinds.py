"""`GET /v1/kinds`, derived from the engines' option types so it cannot drift from them."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import msgspec
import msgspec.inspect as mi

from kronikas.api.wire import KindInfo, Kinds, OptionInfo
from kronikas.application.engines import ENGINES
from kronikas.domain.cheat import CheatOptions
from kronikas.domain.thirty_one import ThirtyOneOptions

OPTIONS: dict[str, type[msgspec.Struct]] = {"cheat": CheatOptions, "thirty_one": ThirtyOneOptions}


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
        assert isinstance(item, mi.IntType)
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


def _describe(kind: str, engine: ModuleType, options_type: type[msgspec.Struct]) -> KindInfo:
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    options = [_option(f) for f in info.fields]
    commands = sorted(c.__struct_config__.tag for c in engine.COMMANDS)
    most = max(engine.max_players(o) for o in _extreme_options(options_type))
    return KindInfo(kind, engine.MIN_PLAYERS, most, options, commands)  # type: ignore[arg-type]


def _extreme_options(options_type: type[msgspec.Struct]) -> list[Any]:
    # max_players may depend on the options (Cheat's decks): try each integer option at its top.
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    out = [options_type()]
    for field in info.fields:
        option = _option(field)
        if option.type == "integer" and option.maximum is not None:
            out.append(msgspec.structs.replace(options_type(), **{field.name: option.maximum}))
    return out


def kinds() -> Kinds:
    """Both game kinds with their players and options."""
    return Kinds(
        [_describe(kind, engine, _options_type(engine)) for kind, engine in ENGINES.items()]
    )


def _options_type(engine: ModuleType) -> type[msgspec.Struct]:
    return OPTIONS[engine.KIND]
