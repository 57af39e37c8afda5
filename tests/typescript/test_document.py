"""The OpenAPI document names the unions a typed client is built around (issue 28).

A generator names a union after the component that holds it; written out inline at each use,
the TypeScript generators repeat all 29 events in every answer that carries them, and a client
author has no `GameEvent` to write a `switch` over. The discriminator's `mapping` says which
member each tag means, so no generator has to guess it from a `const`.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.apps import ENGINES

ROOT = Path(__file__).resolve().parents[2]
DOCUMENT = json.loads((ROOT / "openapi" / "openapi.json").read_text())
SCHEMAS: dict[str, Any] = DOCUMENT["components"]["schemas"]
REF = "#/components/schemas/"


@pytest.mark.parametrize(
    ("union", "tag"), [("GameView", "kind"), ("GameEvent", "type"), ("Command", "type")]
)
def test_each_union_is_a_component_whose_mapping_names_every_member(union: str, tag: str) -> None:
    schema = SCHEMAS[union]
    members = [m["$ref"] for m in schema["oneOf"]]
    assert schema["discriminator"]["propertyName"] == tag
    mapping = schema["discriminator"]["mapping"]
    assert sorted(mapping.values()) == sorted(members)
    for wire, ref in mapping.items():
        assert SCHEMAS[ref.removeprefix(REF)]["properties"][tag]["const"] == wire
    # Nothing beside the union that would refuse its members (an `additionalProperties: false`
    # on a union without properties refuses every command: no valid body could be made).
    assert set(schema) == {"title", "description", "oneOf", "discriminator"}


def test_the_unions_cover_every_game_and_command() -> None:
    kinds = set(SCHEMAS["GameView"]["discriminator"]["mapping"])
    events = {t.split(".", 1)[0] for t in SCHEMAS["GameEvent"]["discriminator"]["mapping"]}
    assert kinds == events == set(ENGINES)
    assert {"play", "call", "swap", "show"} <= set(SCHEMAS["Command"]["discriminator"]["mapping"])


def _uses(node: Any, path: str = "") -> list[tuple[str, Any]]:
    found: list[tuple[str, Any]] = []
    if isinstance(node, dict):
        if "oneOf" in node and "discriminator" in node:
            found.append((path, node))
        for key, value in node.items():
            found += _uses(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _uses(value, f"{path}/{i}")
    return found


def test_every_use_refers_to_the_named_union_instead_of_repeating_it() -> None:
    unions = (
        "GameView",
        "GameEvent",
        "Command",
        "RecordTable",
        "SocketClientMessage",
        "SocketServerMessage",
    )
    named = {f"/components/schemas/{n}" for n in unions}
    inline = [path for path, _ in _uses(DOCUMENT) if path not in named]
    # The create body (one struct per game) is the only discriminated union left inline.
    assert inline == ["/paths//v1/games/post/requestBody/content/application/json/schema"]
    events = SCHEMAS["EventPage"]["properties"]["events"]["items"]
    assert events == {"$ref": REF + "GameEvent"}
    assert SCHEMAS["CommandResult"]["properties"]["events"]["items"] == {"$ref": REF + "GameEvent"}
    body = DOCUMENT["paths"]["/v1/games/{game_id}/commands"]["post"]["requestBody"]
    assert body["content"]["application/json"]["schema"]["$ref"] == REF + "Command"
    answer = DOCUMENT["paths"]["/v1/games/{game_id}"]["get"]["responses"]["200"]
    assert answer["content"]["application/json"]["schema"] == {"$ref": REF + "GameView"}
