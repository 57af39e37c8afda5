"""The command lane (api/lane.py) answers exactly as the framework's route does: the same moves
and refusals on twin tables, one table's commands through the lane (no `Origin`), the other's
through the framework (a browser's `Origin`, which the lane leaves to the CORS middleware)."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas.api.lane import takes
from tests.api.conftest import settings
from tests.api.tables import Table, Tables, auth, candidates, game_moves
from tests.apps import ENGINES

ORIGIN = "https://table.example"
CORS = ("access-control-", "vary")


def timeless(value: Any) -> Any:
    """`value` without times (`at`) and ids (`id`), which differ from one twin to the other."""
    if isinstance(value, dict):
        return {k: timeless(v) for k, v in value.items() if k not in ("at", "id")}
    if isinstance(value, list):
        return [timeless(v) for v in value]
    return value


def same_answer(lane: httpx.Response, framework: httpx.Response) -> None:
    """Status, body (ids and times aside) and headers (CORS and the request id aside)
    agree."""
    assert lane.status_code == framework.status_code, (lane.text, framework.text)
    body = timeless(json.loads(lane.text))
    other = timeless(json.loads(framework.text))
    if "request_id" in body:
        assert body.pop("request_id") == lane.headers["x-request-id"]
        assert other.pop("request_id") == framework.headers["x-request-id"]
    assert body == other

    def headers(r: httpx.Response) -> dict[str, str]:
        kept = {k: v for k, v in r.headers.items() if not k.startswith(CORS)}
        assert kept.pop("x-request-id")
        return kept

    assert headers(lane) == headers(framework)
    assert "access-control-allow-origin" not in lane.headers
    assert framework.headers["access-control-allow-origin"] == ORIGIN


async def test_the_lane_and_the_framework_answer_every_command_alike(redis_url: str) -> None:
    app = create_app(
        settings(redis_url, cors_origins=(ORIGIN,), max_body_bytes=2048), games=ENGINES
    )
    async with AsyncTestClient(app) as client:
        tables = Tables(client)
        twins = [await tables.ready("cheat", 2, seed=11) for _ in range(2)]
        ids = (twins[0].id, twins[1].id)
        browser = {"Origin": ORIGIN}

        async def both(
            command: Any, seat: int | None, headers: dict[str, str] | None = None
        ) -> httpx.Response:
            answers = []
            for table, extra in zip(twins, ({}, browser), strict=True):
                token = auth(table.players[seat]) if seat is not None else {}
                body = command if isinstance(command, bytes) else json.dumps(command).encode()
                answers.append(
                    await client.post(
                        f"/v1/games/{table.id}/commands",
                        content=body,
                        headers={"Content-Type": "application/json"}
                        | token
                        | (headers or {})
                        | extra,
                    )
                )
            same_answer(answers[0], answers[1])
            return answers[0]

        rng = random.Random(3)
        view = await tables.view(twins[0], twins[0].players[0])
        idle = 1 - view["turn"]
        # Refusals, each both ways: not your turn, no token, a host token, a bad body, an
        # unknown type, a stale If-Match, a malformed If-Match, a body over the limit.
        assert (await both({"type": "accept"}, idle)).json()["code"] in (
            "not_your_turn",
            "illegal_move",
        )
        assert (await both({"type": "accept"}, None)).status_code == 401
        for refused, status in [
            (b"{not json", 422),
            (b'{"type": "shout"}', 422),
            (b"[]", 422),
            (b"x" * 4096, 413),
        ]:
            assert (await both(refused, view["turn"])).status_code == status
        play = {"type": "play", "cards": view["me"]["hand"][:1]}
        assert (await both(play, view["turn"], {"If-Match": '"1"'})).status_code == 412
        assert (await both(play, view["turn"], {"If-Match": "soon"})).status_code == 422
        # Then a match's worth of moves, the same on both tables.
        moves = 0
        while moves < 60:
            spectator = await tables.view(twins[0])
            if spectator["status"] == "finished":
                break
            seat = spectator["turn"]
            view = await tables.view(twins[0], twins[0].players[seat])
            if not game_moves(view):
                break
            for command in candidates(view, rng):
                answer = await both(command, seat)
                if answer.status_code == 200:
                    moves += 1
                    break
        assert moves >= 10
        # A client's own request id comes back, both ways.
        mine = await client.get(f"/v1/games/{ids[0]}", headers={"X-Request-ID": "abc-123"})
        assert mine.headers["x-request-id"] == "abc-123"
        lane = await client.post(
            f"/v1/games/{ids[0]}/commands", json={"type": "leave"}, headers={"X-Request-ID": "r-1"}
        )
        assert lane.status_code == 401 and lane.headers["x-request-id"] == "r-1"
        # The host token cannot play, either way.
        host = [Table(t.id, t.kind, t.host, [t.host]) for t in twins]
        for table, extra in zip(host, ({}, browser), strict=True):
            r = await tables.send(table, 0, {"type": "leave"}, **extra)
            assert r.status_code == 403 and r.json()["code"] == "forbidden"


def scope(method: str, path: str, *headers: tuple[bytes, bytes]) -> dict[str, Any]:
    return {"type": "http", "method": method, "path": path, "headers": list(headers)}


def test_the_lane_takes_only_the_route_itself() -> None:
    assert takes(scope("POST", "/v1/games/abc/commands"))[1] == "abc"  # type: ignore[index]
    assert takes(scope("POST", "/v1/games/abc/commands", (b"origin", ORIGIN.encode()))) is None
    for method, path in [
        ("GET", "/v1/games/abc/commands"),
        ("OPTIONS", "/v1/games/abc/commands"),
        ("POST", "/v1/games/abc/commands/"),
        ("POST", "/v1/games//commands"),
        ("POST", "/v1/games/a/b/commands"),
        ("POST", "/v1/games/abc/start"),
    ]:
        assert takes(scope(method, path)) is None
    assert takes({"type": "websocket", "path": "/v1/games/abc/commands", "headers": []}) is None
