"""Mends to the OpenAPI document Litestar generates, and its deterministic export.

The mends work on the document as JSON (a dict), through public API only: the export takes
`app.openapi_schema.to_schema()`, and the service serves `/schema/openapi.json` through its own
render plugin (`MendedJson`), which mends what Litestar hands it once.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

import msgspec
from litestar import Litestar, Request
from litestar.openapi.plugins import JsonRenderPlugin

from kronikas.api.openapi_schemas import answers_in_full, restore_constraints, structs_of
from kronikas.api.shapes import ApiWire
from kronikas.api.socket_wire import socket_messages
from kronikas.application.engines import Registry
from kronikas.application.wire import envelope, record_table

_TAG_FIELDS = ("type", "kind")


def export(app: Litestar) -> bytes:
    """The document the app serves, as stable, sorted, indented JSON bytes."""
    config = app.openapi_config
    plugins = config.render_plugins if config is not None else ()
    mend = next((p for p in plugins if isinstance(p, MendedJson)), None)
    if mend is None:
        raise ValueError("the app serves no mended document (`MendedJson`): not create_app's")
    doc = mended(app.openapi_schema.to_schema(), mend.inputs, mend.engines)
    return msgspec.json.format(msgspec.json.encode(doc, order="sorted"), indent=2)


class MendedJson(JsonRenderPlugin):
    """Serves `/schema/openapi.json` (which the docs pages read) mended, made once, for the app
    of the games of `engines`."""

    def __init__(self, inputs: Sequence[InputDocs], engines: Registry) -> None:
        super().__init__()
        self.inputs = list(inputs)
        self.engines = engines
        self._body: bytes | None = None

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        if self._body is None:
            self._body = msgspec.json.encode(mended(openapi_schema, self.inputs, self.engines))
        return self._body


@dataclass(frozen=True)
class InputDocs:
    """The inputs of a route that reads them itself rather than through its signature.

    Such a route declares only `request` (the hot path skips Litestar's extraction), so its
    parameters and body are written here, for the document alone.
    """

    operation_id: str
    parameters: list[dict[str, Any]]
    body: Any
    """A tagged union of msgspec structs."""
    body_description: str


def parameter(
    name: str, where: str, description: str, required: bool = False, **schema: Any
) -> dict[str, Any]:
    """A string parameter as Litestar documents one (JSON Schema keywords in `schema`)."""
    return {
        "name": name,
        "in": where,
        "required": required,
        "deprecated": False,
        "description": description,
        "schema": {"type": "string", "description": description, **schema},
    }


def mended(
    document: dict[str, Any], inputs: Sequence[InputDocs], engines: Registry
) -> dict[str, Any]:
    """A mended copy of the document Litestar generates, for the export and the served one, of
    an app that runs the games of `engines`.

    - The inputs of routes that read them themselves are documented (`InputDocs`).

    - A tagged union's tag gets `default` = its `const`, so SDK users need not repeat it, and
      each `oneOf` of tagged members gets a `discriminator` with its `mapping`.
    - Litestar's automatic 400 response is removed: this service answers malformed input with
      422 `invalid_request`, which every route documents itself.
    - An optional parameter's schema does not admit null: it is left out instead.
    - What Litestar drops from msgspec's own schema comes back: `additionalProperties: false`
      for structs that forbid unknown fields, a `minimum` of 0, constraints on list items.
    - What the service answers always holds every field (`answers_in_full`), so the SDK never
      marks a field of a view or an event as possibly unset.
    - The seat socket's messages are components (`_document_socket`): it is no route of the
      document, but generated clients get its types.
    - The unions of views, events and commands are components of their own (`GameView`,
      `GameEvent`, `Command`), referred to where they are used (`_name_unions`).
    - The headers answers carry are documented: `Retry-After` on every 429 and 503, `ETag` on
      the answers that carry a table's version (`_document_headers`).
    """
    doc = copy.deepcopy(document)
    schemas: dict[str, Any] = doc.setdefault("components", {}).setdefault("schemas", {})
    for documented in inputs:
        _document_inputs(doc, schemas, documented)
    _document_socket(schemas, engines)
    for schema in schemas.values():
        for name in _TAG_FIELDS:
            prop = schema.get("properties", {}).get(name)
            if isinstance(prop, dict) and "const" in prop:
                prop["default"] = prop["const"]
    structs = structs_of(engines, [documented.body for documented in inputs])
    _walk(doc, schemas)
    _name_unions(doc, schemas, engines)
    restore_constraints(schemas, structs)
    answers_in_full(doc, schemas, structs, engines)
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                operation.get("responses", {}).pop("400", None)
                for parameter in operation.get("parameters", []):
                    _drop_null(parameter)
                    if parameter["name"] in _HEADER_FORMS:
                        parameter["schema"]["pattern"] = _HEADER_FORMS[parameter["name"]]
                _document_headers(operation)
    return doc


_RETRY_AFTER = {
    "description": "Whole seconds to wait before trying again.",
    "schema": {"type": "string", "pattern": "^[0-9]+$"},
    "required": True,
}
_ETAG = {
    "description": 'The table\'s version, quoted (`"12"`): what `If-Match` names.',
    "schema": {"type": "string", "pattern": '^"[0-9]+"$'},
    "required": True,
}
_VERSIONED = frozenset({"get_game", "start_game", "send_command"})
"""The operations whose 200 carries the table's version as its `ETag`."""


def _document_headers(operation: dict[str, Any]) -> None:
    responses = operation.get("responses", {})
    for status in ("429", "503"):
        if status in responses:
            responses[status].setdefault("headers", {})["Retry-After"] = dict(_RETRY_AFTER)
    if operation.get("operationId") in _VERSIONED and "200" in responses:
        responses["200"].setdefault("headers", {})["ETag"] = dict(_ETAG)


def _document_inputs(doc: dict[str, Any], schemas: dict[str, Any], inputs: InputDocs) -> None:
    operation = next(
        op
        for item in doc["paths"].values()
        for op in item.values()
        if isinstance(op, dict) and op.get("operationId") == inputs.operation_id
    )
    operation["parameters"] = [dict(p, schema=dict(p["schema"])) for p in inputs.parameters]
    members = get_args(inputs.body)
    _, components = msgspec.json.schema_components(
        members, ref_template="#/components/schemas/{name}"
    )
    for name, component in components.items():
        schemas.setdefault(name, _as_litestar_writes(component))
    operation["requestBody"] = {
        "content": {
            "application/json": {
                "schema": {
                    "description": inputs.body_description,
                    "oneOf": [{"$ref": f"#/components/schemas/{m.__name__}"} for m in members],
                }
            }
        },
        "required": True,
    }


def _as_litestar_writes(component: dict[str, Any]) -> dict[str, Any]:
    """msgspec's schema of a struct in Litestar's words: a tag is a `const`, `required` sorted,
    and no description from the docstring (the generated SDK misindents long ones)."""
    out = dict(component)
    out.pop("description", None)
    properties = {}
    for name, prop in component.get("properties", {}).items():
        if isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1 and len(prop) == 1:
            prop = {"const": prop["enum"][0], "type": "string"}
        properties[name] = prop
    if properties:
        out["properties"] = properties
    if "required" in out:
        out["required"] = sorted(out["required"])
    return out


# The service parses these itself (api/inputs.py), the headers more leniently than shown.
_HEADER_FORMS = {
    "If-Match": '^(W/)?"?[0-9]{1,12}"?$',
    "Last-Event-ID": "^[0-9]{1,12}$",
    "token": "^[A-Za-z0-9_-]{1,256}$",
}


def _drop_null(parameter: dict[str, Any]) -> None:
    # An optional parameter is one that is left out, never one sent as null.
    schema = parameter.get("schema", {})
    if parameter.get("required"):
        return
    members = schema.get("oneOf")
    if isinstance(members, list) and {"type": "null"} in members:
        kept = [m for m in members if m != {"type": "null"}]
        if len(kept) == 1:
            del schema["oneOf"]
            schema.update({k: v for k, v in kept[0].items() if k not in schema})
    if not isinstance(schema.get("type"), list):
        return
    kinds = [t for t in schema["type"] if t != "null"]
    schema["type"] = kinds[0] if len(kinds) == 1 else kinds
    if "enum" in schema:
        schema["enum"] = [v for v in schema["enum"] if v is not None]


def _walk(node: Any, schemas: dict[str, Any]) -> None:
    if isinstance(node, dict):
        items = node.get("items")
        if (
            isinstance(items, dict)
            and isinstance(items.get("oneOf"), list)
            and {} in items["oneOf"]
        ):
            # A variadic tuple's items come out as `oneOf: [<item>, {}]`, which matches anything.
            kept = [m for m in items["oneOf"] if m != {}]
            node["items"] = kept[0] if len(kept) == 1 else {"oneOf": kept}
        members = node.get("oneOf")
        if isinstance(members, list) and members:
            _add_discriminator(node, members, schemas)
        for value in node.values():
            _walk(value, schemas)
    elif isinstance(node, list):
        for value in node:
            _walk(value, schemas)


def _add_discriminator(node: dict[str, Any], members: list[Any], schemas: dict[str, Any]) -> None:
    refs: list[str] = [m["$ref"] for m in members if isinstance(m, dict) and "$ref" in m]
    if len(refs) != len(members):
        return
    for field in _TAG_FIELDS:
        mapping: dict[str, str] = {}
        for ref in refs:
            target = schemas.get(ref.rsplit("/", 1)[-1], {})
            const = target.get("properties", {}).get(field, {}).get("const")
            if const is None:
                break
            mapping[str(const)] = ref
        else:
            node["discriminator"] = {"propertyName": field, "mapping": mapping}
            return


def _unions(engines: Registry) -> dict[str, frozenset[str]]:
    """The unions every client names, by component name: the members' names of each."""
    return {
        "GameView": frozenset(game.view_type.__name__ for game in engines.values()),
        "GameEvent": frozenset(
            envelope(kind, cls, cls is game.end_event).__name__
            for kind, game in engines.items()
            for cls in game.events
        ),
        "Command": frozenset(cls.__name__ for game in engines.values() for cls in game.commands),
        "RecordTable": frozenset(
            record_table(kind, game.view_type).__name__ for kind, game in engines.items()
        ),
    }


_UNION_DOCS = {
    "GameView": "A table as the asker may see it; `kind` says which game.",
    "GameEvent": "One change to a table, as the asker may see it: `type` names the game and "
    "the event (`<kind>.round_dealt`), `data` holds its fields.",
    "Command": "One command; `type` chooses it.",
    "RecordTable": "The table a record is of, as its view says it; `kind` says which game.",
}


def _name_unions(doc: dict[str, Any], schemas: dict[str, Any], engines: Registry) -> None:
    # Generators name an inline `oneOf` after the place it is used (or not at all: the
    # TypeScript ones write the whole union out at every use), so each union of views, events
    # and commands becomes one component, with its discriminator, and every use a `$ref` to it.
    # A use keeps its own description (OpenAPI 3.1 allows siblings of `$ref`).
    wanted = {members: name for name, members in _unions(engines).items()}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if "discriminator" in node and (name := wanted.get(_members(node))) is not None:
                union = {"oneOf": node.pop("oneOf"), "discriminator": node.pop("discriminator")}
                schemas.setdefault(name, {"title": name, "description": _UNION_DOCS[name]} | union)
                node["$ref"] = f"#/components/schemas/{name}"
                return
            for key, value in list(node.items()):
                if not (node is schemas and key in _UNION_DOCS):
                    visit(value)
        elif isinstance(node, list):
            for value in node:
                visit(value)

    visit(doc)


def _members(union: dict[str, Any]) -> frozenset[str]:
    """The component names a `oneOf` of `$ref`s refers to."""
    return frozenset(
        member["$ref"].rsplit("/", 1)[-1]
        for member in union.get("oneOf", [])
        if isinstance(member, dict) and "$ref" in member
    )


_SOCKET_UNIONS = {
    "SocketClientMessage": "What a client sends on the seat socket, `/v1/games/{id}/socket` "
    "(docs/api.md, The seat socket): `type` chooses the message.",
    "SocketServerMessage": "What the server sends on the seat socket: `type` chooses the message.",
}


def _document_socket(schemas: dict[str, Any], engines: Registry) -> None:
    # The seat socket (api/socket.py) has no operation in OpenAPI 3.1; its messages are
    # components, and each direction a tagged union (`SocketClientMessage`,
    # `SocketServerMessage`) that generated clients can switch over. Written as Litestar
    # writes structs (unions as `oneOf`), before the mends that give tags their defaults and
    # unions their discriminators and names.
    wire = ApiWire(engines)
    for name, union in zip(_SOCKET_UNIONS, socket_messages(wire, wire.Command), strict=True):
        members = get_args(get_args(union)[0])
        _, components = msgspec.json.schema_components(
            members, ref_template="#/components/schemas/{name}"
        )
        for component_name, component in components.items():
            schemas.setdefault(component_name, _one_of(_as_litestar_writes(component)))
        schemas[name] = {
            "title": name,
            "description": _SOCKET_UNIONS[name],
            "oneOf": [{"$ref": f"#/components/schemas/{m.__name__}"} for m in members],
        }


def _one_of(node: Any) -> Any:
    """msgspec's `anyOf` of a union as Litestar writes it, `oneOf` (its members exclude one
    another: tagged structs, or a value and null)."""
    if isinstance(node, dict):
        return {("oneOf" if k == "anyOf" else k): _one_of(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_one_of(v) for v in node]
    return node
