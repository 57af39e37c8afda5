"""Settings read the same way by every way in (README's settings, docs/security.md "The limits").

- A command whose `Content-Length` is over `MAX_BODY_BYTES` is refused 413 and paid for from its
  token's bucket (`RATE_LIMIT_PER_S`, `RATE_LIMIT_BURST`), past it 429, whether the command lane
  serves it or the framework's route does (every request that carries an `Origin`: a browser's).
  Once the framework refused it before `run_command` and never took a token.
- `arena_enter` at `/mcp` with an entrant token pays the address's read bucket (`READ_LIMIT_*`)
  once, for the queue request it makes, as `POST /v1/arena/queue` pays. Once it paid twice: also
  as a call that names no token.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from tests.api.tables import Tables, auth
from tests.apps import ENGINES, settings

MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
ORIGIN = "https://cards.example"
LIMIT = 1024
OVERSIZED = b'{"type": "leave", "x": "' + b"a" * (2 * LIMIT) + b'"}'
"""A command body over `MAX_BODY_BYTES`, sent with its `Content-Length`."""


def from_peer(app: Any, peer: list[str]) -> Callable[..., Any]:
    """`app`, its client (the TCP peer) the address `peer[0]` names at each request."""

    async def served(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "lifespan":
            scope["client"] = (peer[0], 40000)
        await app(scope, receive, send)

    served.state = app.state  # type: ignore[attr-defined]
    return served


async def test_a_command_over_the_body_limit_is_paid_for_with_an_origin_too(
    redis_url: str,
) -> None:
    app = create_app(
        settings(
            redis_url,
            max_body_bytes=LIMIT,
            rate_per_s=0.001,  # no pause between two tries refills one
            rate_burst=2,
            cors_origins=(ORIGIN,),
        ),
        games=ENGINES,
    )
    answered: dict[str, list[int]] = {}
    async with AsyncTestClient(app) as client:
        for way, origin in (("the lane", {}), ("the framework", {"Origin": ORIGIN})):
            table = await Tables(client).ready("cheat", 2, seed=3)
            headers = auth(table.players[1]) | {"Content-Type": "application/json"} | origin
            codes = []
            for _ in range(3):
                r = await client.post(
                    f"/v1/games/{table.id}/commands", content=OVERSIZED, headers=headers
                )
                codes.append(r.status_code)
            answered[way] = codes
    # Two refusals spend the token's burst of two; the third is 429 `rate_limited`.
    assert answered == {"the lane": [413, 413, 429], "the framework": [413, 413, 429]}


async def test_arena_enter_pays_one_read_as_the_queue_route_does(redis_url: str) -> None:
    app = create_app(
        settings(
            redis_url,
            read_per_s=1,
            read_burst=1,
            arena_register_per_hour=1_000_000,
            arena_fill_s=3600,
        ),
        games=ENGINES,
    )
    peer = ["198.18.7.1"]
    async with AsyncTestClient(from_peer(app, peer)) as client:
        tokens = []
        for name in ("Rest", "Agent"):
            r = await client.post("/v1/arena/entrants", json={"name": name, "games": ["cheat"]})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        # A pool its entrant does not play: refused once its read is paid (one, of a burst of one).
        peer[0] = "198.18.7.2"
        r = await client.post(
            "/v1/arena/queue",
            json={"kind": "thirty_one", "players": 2},
            headers=auth(tokens[0]),
        )
        assert (r.status_code, r.json()["code"]) == (422, "invalid_request"), r.text
        peer[0] = "198.18.7.3"
        call = {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {
                "name": "arena_enter",
                "arguments": {"kind": "thirty_one", "token": tokens[1]},
            },
        }
        r = await client.post("/mcp", json=call, headers=MCP_HEADERS)
        assert r.status_code == 200, r.text
        result = r.json()["result"]
        problem = json.loads(result["content"][0]["text"])
        assert result["isError"] and problem["code"] == "invalid_request", problem
