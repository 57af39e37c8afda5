"""The seat socket's own route (issue 43): the upgrade is taken ahead of the framework for the
route's exact path (`socket_route.takes`), and any other path the framework routes to the same
socket is served by the same code."""

from __future__ import annotations

import json

import pytest

from kronikas.api.socket_route import takes
from tests.api.tables import Tables
from tests.apps import Client


def test_the_route_takes_the_exact_path_of_an_upgrade_only() -> None:
    def scope(path: str, kind: str = "websocket") -> dict[str, object]:
        return {"type": kind, "path": path, "headers": []}

    assert takes(scope("/v1/games/abc/socket")) == "abc"
    assert takes(scope("/v1/games/abc/socket", "http")) is None
    for path in (
        "/v1/games/abc/socket/",
        "/v1/games//socket",
        "/v1/games/a/b/socket",
        "/v1/games/abc/stream",
        "/v2/games/abc/socket",
    ):
        assert takes(scope(path)) is None, path


@pytest.mark.parametrize("path", ["/v1/games/{id}/socket", "/v1/games/{id}/socket/"])
async def test_a_seat_is_welcomed_on_the_route_and_on_what_the_framework_routes_to_it(
    client: Client, path: str
) -> None:
    tables = Tables(client)
    table = await tables.ready("cheat", 2, seed=43)
    ws = await client.websocket_connect(path.format(id=table.id))
    with ws:
        ws.send_json({"type": "hello", "token": table.players[0]})
        welcome = json.loads(ws.receive_text(timeout=10))
        assert welcome["type"] == "welcome" and welcome["role"] == "player"
