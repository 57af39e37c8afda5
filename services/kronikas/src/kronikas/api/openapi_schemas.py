"""What Litestar drops from msgspec's own schemas of the service's structs, put back into the
document (api/openapi.py mends it): constraints (`minimum`, `pattern`, the items' …),
`additionalProperties: false` for structs that forbid unknown fields, and every field of an
answer marked as always there."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
import msgspec.inspect as mi

from kronikas.application.engines import Registry

_CONSTRAINTS = ("minimum", "maximum", "pattern", "minLength", "maxLength", "minItems", "maxItems")


def structs_of(engines: Registry, bodies: Sequence[Any]) -> dict[str, type[msgspec.Struct]]:
    """The structs the document names, by name: the service's own, and every struct the games
    of `engines` and the documented inputs' `bodies` reach (a game may live outside the
    package, and a wire type made for one registry has a namesake made for another: this app's
    wins)."""
    found: dict[str, type[msgspec.Struct]] = {}
    todo: list[type[msgspec.Struct]] = [msgspec.Struct]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub.__module__.startswith("kronikas."):
                found[sub.__name__] = sub
            todo.append(sub)
    roots: list[Any] = list(bodies)
    for game in engines.values():
        roots.extend((game.options, game.view_type, *game.commands, *game.events))
    for info in mi.multi_type_info(roots):
        _collect(info, found, set())
    return found


def _collect(info: mi.Type, found: dict[str, type[msgspec.Struct]], seen: set[int]) -> None:
    if id(info) in seen:
        return
    seen.add(id(info))
    if isinstance(info, mi.StructType):
        found[info.cls.__name__] = info.cls
        for field in info.fields:
            _collect(field.type, found, seen)
    elif isinstance(info, mi.UnionType):
        for member in info.types:
            _collect(member, found, seen)
    elif isinstance(info, mi.Metadata):
        _collect(info.type, found, seen)
    elif isinstance(info, mi.ListType | mi.VarTupleType | mi.SetType | mi.FrozenSetType):
        _collect(info.item_type, found, seen)
    elif isinstance(info, mi.TupleType):
        for item in info.item_types:
            _collect(item, found, seen)
    elif isinstance(info, mi.DictType):
        _collect(info.value_type, found, seen)


def _not_null(schema: dict[str, Any]) -> dict[str, Any]:
    for key in ("anyOf", "oneOf"):
        members = [m for m in schema.get(key, []) if m != {"type": "null"}]
        if len(members) == 1 and isinstance(members[0], dict):
            return members[0]
    return schema


def _merge(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    ours, theirs = _not_null(ours), _not_null(theirs)
    for key in _CONSTRAINTS:
        if key in theirs and key not in ours:
            ours[key] = theirs[key]
    if isinstance(ours.get("items"), dict) and isinstance(theirs.get("items"), dict):
        _merge(ours["items"], theirs["items"])


def restore_constraints(schemas: dict[str, Any], structs: dict[str, type[msgspec.Struct]]) -> None:
    for name, cls in structs.items():
        ours = schemas.get(name)
        if ours is None or "oneOf" in ours:  # a named union (`Command`), not this struct
            continue
        if cls.__struct_config__.forbid_unknown_fields:
            ours["additionalProperties"] = False
        (ref,), components = msgspec.json.schema_components([cls])
        theirs = components.get(ref["$ref"].rsplit("/", 1)[-1], {})
        for field, schema in ours.get("properties", {}).items():
            if field in theirs.get("properties", {}):
                _merge(schema, theirs["properties"][field])


def _refs(node: Any) -> set[str]:
    if isinstance(node, dict):
        found = {node["$ref"].rsplit("/", 1)[-1]} if isinstance(node.get("$ref"), str) else set()
        for value in node.values():
            found |= _refs(value)
        return found
    if isinstance(node, list):
        return set().union(*(_refs(v) for v in node)) if node else set()
    return set()


def _reachable(names: set[str], schemas: dict[str, Any]) -> set[str]:
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in seen and name in schemas:
            seen.add(name)
            todo.extend(_refs(schemas[name]))
    return seen


def _table_options(engines: Registry) -> dict[str, str]:
    """Each game's request options type → the type its views show them with (every field)."""
    found: dict[str, str] = {}
    for game in engines.values():
        view = mi.type_info(game.view_type)
        if isinstance(view, mi.StructType):
            for field in view.fields:
                if field.name == "options" and isinstance(field.type, mi.StructType):
                    found[game.options.__name__] = field.type.cls.__name__
    return found


def _unset_by_default(cls: type[msgspec.Struct], name: str) -> bool:
    defaults = cls.__struct_defaults__
    index = cls.__struct_fields__.index(name) - (len(cls.__struct_fields__) - len(defaults))
    return index >= 0 and defaults[index] is msgspec.UNSET


def answers_in_full(
    doc: dict[str, Any],
    schemas: dict[str, Any],
    structs: dict[str, type[msgspec.Struct]],
    engines: Registry,
) -> None:
    # msgspec writes every field of what the service answers (no struct of an answer omits its
    # defaults, but OptionInfo), yet a field with a default is not `required` in the schema, so
    # the SDK would type it `X | Unset`. Schemas that no request uses are marked as they are
    # sent. A stored event keeps the request's options type (logs written before an option was
    # added still load); on the wire it carries every option, as the views' options type says.
    requests: set[str] = set()
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                requests |= _refs(operation.get("requestBody", {}))
                requests |= _refs(operation.get("parameters", []))
    requests = _reachable(requests, schemas)
    forms = _table_options(engines)
    for name, schema in schemas.items():
        cls = structs.get(name)
        if name in requests or cls is None or cls.__struct_config__.omit_defaults:
            continue
        properties = schema.get("properties", {})
        if name in forms.values():
            # A table's options as answers show them: every field, so none has a default (the
            # defaults let a table stored before a field existed load; the request lists them).
            for prop in properties.values():
                prop.pop("default", None)
        for prop in properties.values():
            ref = prop.get("$ref", "")
            if ref.rsplit("/", 1)[-1] in forms:
                prop["$ref"] = f"#/components/schemas/{forms[ref.rsplit('/', 1)[-1]]}"
        if properties:
            # A field that defaults to UNSET is left out when unset (a table stored before
            # an option existed): it stays optional.
            absent = {f for f in cls.__struct_fields__ if _unset_by_default(cls, f)}
            schema["required"] = sorted(set(properties) - absent)
