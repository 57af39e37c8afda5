"""Cheat's `reveal` option over HTTP (docs/api.md): listed in /v1/kinds with its values and
default, refused outside them, kept by the table that asked for it."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.test_tables import assert_problem

Client = AsyncTestClient[Litestar]


async def test_kinds_list_reveal_with_its_values_and_never_by_default(client: Client) -> None:
    r = await client.get("/v1/kinds")
    cheat = next(k for k in r.json()["kinds"] if k["kind"] == "cheat")
    reveal = next(o for o in cheat["options"] if o["name"] == "reveal")
    assert (reveal["type"], reveal["default"]) == ("string", "never")
    assert reveal["choices"] == ["never", "match_end"]
    assert "match_end" in reveal["description"]


@pytest.mark.parametrize("value", ["always", "", None, 1, ["match_end"]])
async def test_reveal_outside_its_values_is_422(client: Client, value: Any) -> None:
    r = await client.post("/v1/games", json={"kind": "cheat", "options": {"reveal": value}})
    assert_problem(r, 422, "invalid_request")


@pytest.mark.parametrize(
    ("options", "kept"), [({"reveal": "match_end"}, "match_end"), ({}, "never")]
)
async def test_a_table_keeps_the_reveal_it_was_opened_with(
    client: Client, options: dict[str, Any], kept: str
) -> None:
    r = await client.post("/v1/games", json={"kind": "cheat", "options": options})
    assert r.status_code == 201, r.text
    game = r.json()["game"]
    assert game["options"]["reveal"] == kept
    r = await client.get(f"/v1/games/{game['id']}")
    assert r.json()["options"]["reveal"] == kept
