"""`GET /v1/kinds/{kind}/rules`: each game's rules text, as its package ships it (the text MCP
serves as `kronikas://rules/{kind}`), for the web table and anyone else who reads; a kind the
service does not run is a 404 problem, and a third game's rules come through unchanged."""

from __future__ import annotations

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from tests.apps import ENGINES, settings
from tests.third_game import ENGINE as HIGH_CARD
from tests.third_game import GAMES, KIND

Client = AsyncTestClient[Litestar]


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_each_game_serves_its_rules_as_markdown(client: Client, kind: str) -> None:
    r = await client.get(f"/v1/kinds/{kind}/rules")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/markdown; charset=utf-8"
    assert r.text == ENGINES[kind].rules_text
    assert r.text.startswith(f"# The rules of {ENGINES[kind].title}")


@pytest.mark.parametrize(
    "kind", ["poker", "CHEAT", "cheat%00", "x" * 300, "..%2F..%2Fetc%2Fpasswd", "%3Cb%3E"]
)
async def test_a_kind_not_run_here_is_a_404_problem(client: Client, kind: str) -> None:
    r = await client.get(f"/v1/kinds/{kind}/rules")
    assert r.status_code == 404, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["code"] == "not_found"
    assert "<b>" not in r.text and "passwd" not in r.text


async def test_a_third_game_serves_its_own_rules(redis_url: str) -> None:
    async with AsyncTestClient(create_app(settings(redis_url), games=GAMES)) as client:
        r = await client.get(f"/v1/kinds/{KIND}/rules")
        assert r.status_code == 200 and r.text == HIGH_CARD.rules_text


async def test_the_rules_route_is_in_the_openapi_document(client: Client) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    route = document["paths"]["/v1/kinds/{kind}/rules"]["get"]
    assert route["operationId"] == "get_rules"
    assert "text/markdown" in route["responses"]["200"]["content"]
    assert "404" in route["responses"]
