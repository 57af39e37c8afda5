"""The ways in agree (docs/api.md, docs/security.md, README's settings): the REST API, the seat
socket and `/mcp` are framing over the same use cases, with the same settings, limits, refusals
and codes. Each test sends the same thing on each way in and asks for one answer.

- A version out of range (`If-Match` over 12 digits, a socket's `if_match` ≥ 10¹², MCP's
  `expected_version`) is 422 `invalid_request`, never a `version_mismatch` on one way only.
- A `CORS_ORIGINS` entry lets the same origins in on every way: the REST API's CORS (and
  `/mcp`'s own preflight) must not admit an origin that `/mcp`'s POST and the socket refuse.
- The socket reads an `Origin` header as the REST API's CORS and `/mcp` do.
- A command refused for the form of its token, key or version is paid for on every way in, as
  `POST …/commands` pays for it ("commands (accepted or refused, over HTTP, the socket or
  `/mcp`)"; "every request of one client address, whatever token it carries"): past the bucket,
  429 `rate_limited`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.api.app import create_app
from tests.api.tables import Table, Tables, auth
from tests.apps import ENGINES, Client, settings
from tests.mcp.initialize import initialize_request

MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
TRIES = 8
"""Refused commands sent on one way in: well past a burst of 2, refilled at one in 1000 s (no
pause of a loaded machine between two tries refills one)."""
MALFORMED_TOKEN = "not a token!"
MALFORMED_KEY = "a b"
"""An `Idempotency-Key` (or socket `id`, MCP `idempotency_key`) that is not 1–128 of `!`–`~`."""
OUT_OF_RANGE = 10**12
"""The first version no way in takes: `If-Match` is 1–12 digits, the socket's `if_match` < 10¹²."""


async def tool(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call at `/mcp`: its tool error's problem, or `{"code": None}` when it succeeded."""
    call = {
        "jsonrpc": "2.0",
        "id": 2,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    r = await client.post("/mcp", json=call, headers=MCP_HEADERS)
    assert r.status_code in (200, 429), r.text
    body = r.json()
    if "error" in body:  # a JSON-RPC error (a limit met before the tool ran)
        return {"code": body["error"].get("data", {}).get("code")}
    result = body["result"]
    if not result.get("isError"):
        return {"code": None}
    problem: dict[str, Any] = json.loads(result["content"][0]["text"])
    return problem


def socket_problem(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send `message` on a greeted socket; the `problem` it is answered with."""
    ws.send_text(json.dumps(message))
    while True:
        answer = json.loads(ws.receive_text(timeout=10))
        if answer["type"] in ("problem", "result"):
            assert answer["type"] == "problem", answer
            problem: dict[str, Any] = answer["problem"]
            return problem


async def socket_opens(client: Client, table: Table, origin: str) -> bool:
    """Whether a socket whose upgrade names `origin` is welcomed (in-process, a refused upgrade
    is closed 1008: the test server cannot answer it with its 403 problem)."""
    try:
        ws = await client.websocket_connect(
            f"/v1/games/{table.id}/socket", headers={"origin": origin}
        )
        with ws:
            ws.send_text(json.dumps({"type": "hello"}))
            return bool(json.loads(ws.receive_text(timeout=10))["type"] == "welcome")
    except WebSocketDisconnect as closed:
        assert closed.code == 1008, closed
        return False


async def rest_cors_allows(client: Client, origin: str, path: str = "/v1/games") -> bool:
    """Whether the REST API's CORS lets a page on `origin` call `path` (its preflight)."""
    r = await client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type",
        },
    )
    return bool(r.headers.get("access-control-allow-origin") in (origin, "*"))


async def mcp_allows(client: Client, origin: str) -> bool:
    r = await client.post(
        "/mcp", json=initialize_request(), headers=MCP_HEADERS | {"Origin": origin}
    )
    assert r.status_code in (200, 403), r.text
    return r.status_code == 200


async def origins_app(redis_url: str, *origins: str) -> AsyncIterator[Client]:
    app = create_app(
        settings(redis_url, host="0.0.0.0", cors_origins=tuple(origins)), games=ENGINES
    )
    async with AsyncTestClient(app) as client:
        yield client


# --- Versions out of range ------------------------------------------------------------------


async def test_an_expected_version_out_of_range_is_invalid_on_every_way(redis_url: str) -> None:
    app = create_app(settings(redis_url, host="0.0.0.0"), games=ENGINES)
    async with AsyncTestClient(app) as client:
        table = await Tables(client).ready("cheat", 2, seed=3)
        token = table.players[0]
        leave = {"type": "leave"}
        r = await client.post(
            f"/v1/games/{table.id}/commands",
            json=leave,
            headers=auth(token) | {"If-Match": f'"{OUT_OF_RANGE}"'},
        )
        assert (r.status_code, r.json()["code"]) == (422, "invalid_request"), r.text
        ws = await client.websocket_connect(f"/v1/games/{table.id}/socket")
        with ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            ws.receive_text(timeout=10)
            command = {"type": "command", "id": "v1", "command": leave, "if_match": OUT_OF_RANGE}
            problem = socket_problem(ws, command)
            assert (problem["status"], problem["code"]) == (422, "invalid_request"), problem
        # MCP's `expected_version` is `If-Match` (docs/api.md, MCP): the same refusal.
        problem = await tool(
            client,
            "make_move",
            {"table_id": table.id, "token": token, "move": leave, "expected_version": OUT_OF_RANGE},
        )
        assert problem["code"] == "invalid_request", problem
        assert (await Tables(client).view(table))["status"] == "playing"


# --- CORS_ORIGINS and Origin ----------------------------------------------------------------


@pytest.fixture
async def pattern_listed(redis_url: str) -> AsyncIterator[Client]:
    """`CORS_ORIGINS=https://*.cards.example`: a form the REST API's CORS reads as a pattern."""
    async for client in origins_app(redis_url, "https://*.cards.example"):
        yield client


async def test_an_origin_pattern_in_cors_origins_is_read_alike_by_every_way(
    pattern_listed: Client,
) -> None:
    origin = "https://a.cards.example"
    table = await Tables(pattern_listed).ready("cheat", 2, seed=3)
    rest = await rest_cors_allows(pattern_listed, origin)
    mcp_preflight = await rest_cors_allows(pattern_listed, origin, "/mcp")
    mcp = await mcp_allows(pattern_listed, origin)
    socket = await socket_opens(pattern_listed, table, origin)
    # One reading of the setting: either the pattern lets the origin in everywhere, or nowhere
    # (and no preflight promises a POST that is then refused).
    assert {
        "rest": rest,
        "mcp preflight": mcp_preflight,
        "mcp": mcp,
        "socket": socket,
    } == dict.fromkeys(("rest", "mcp preflight", "mcp", "socket"), rest)


@pytest.fixture
async def one_listed(redis_url: str) -> AsyncIterator[Client]:
    async for client in origins_app(redis_url, "https://cards.example"):
        yield client


async def test_the_socket_reads_an_origin_as_the_rest_api_and_mcp_do(one_listed: Client) -> None:
    # `https://cards.example/` is not the origin listed (an origin has no path): the REST API's
    # CORS and /mcp refuse it; the socket strips the slash and lets it in.
    origin = "https://cards.example/"
    table = await Tables(one_listed).ready("cheat", 2, seed=3)
    assert not await rest_cors_allows(one_listed, origin)
    assert not await mcp_allows(one_listed, origin)
    assert not await socket_opens(one_listed, table, origin)


# --- Refused commands are paid for on every way ----------------------------------------------


@pytest.fixture
async def few(redis_url: str) -> AsyncIterator[Client]:
    """Two requests at once and hardly any more, for the address and for each token."""
    limits = {"read_burst": 2, "read_per_s": 0.001, "rate_burst": 2, "rate_per_s": 0.001}
    app = create_app(settings(redis_url, host="0.0.0.0", **limits), games=ENGINES)
    async with AsyncTestClient(app) as client:
        yield client


async def emptied(redis_url: str) -> None:
    """The test client's address's buckets as new (other tests share the address and Redis)."""
    async with Redis.from_url(redis_url) as redis:
        await redis.delete("kr:bucket:read:testclient", "kr:bucket:open:testclient")


async def rest_codes(client: Client, table: Table, headers: dict[str, str]) -> list[str]:
    codes = []
    for _ in range(TRIES):
        r = await client.post(
            f"/v1/games/{table.id}/commands", json={"type": "leave"}, headers=headers
        )
        codes.append(r.json()["code"])
    return codes


async def mcp_codes(client: Client, arguments: dict[str, Any]) -> list[str | None]:
    return [(await tool(client, "make_move", arguments))["code"] for _ in range(TRIES)]


async def test_a_malformed_token_on_a_move_is_paid_over_mcp_as_over_http(
    few: Client, redis_url: str
) -> None:
    table = await Tables(few).ready("cheat", 2, seed=3)
    await emptied(redis_url)
    rest = await rest_codes(few, table, {"Authorization": f"Bearer {MALFORMED_TOKEN}"})
    assert rest[0] == "unauthorized" and "rate_limited" in rest, rest
    await emptied(redis_url)
    mcp = await mcp_codes(
        few, {"table_id": table.id, "token": MALFORMED_TOKEN, "move": {"type": "leave"}}
    )
    assert mcp[0] == "unauthorized", mcp
    assert "rate_limited" in mcp, mcp


async def test_a_malformed_idempotency_key_is_paid_over_mcp_as_over_http(
    few: Client, redis_url: str
) -> None:
    table = await Tables(few).ready("cheat", 2, seed=3)
    await emptied(redis_url)
    rest = await rest_codes(few, table, auth(table.players[0]) | {"Idempotency-Key": MALFORMED_KEY})
    assert rest[0] == "invalid_request" and "rate_limited" in rest, rest
    await emptied(redis_url)
    arguments = {
        "table_id": table.id,
        "token": table.players[1],
        "move": {"type": "leave"},
        "idempotency_key": MALFORMED_KEY,
    }
    mcp = await mcp_codes(few, arguments)
    assert mcp[0] == "invalid_request", mcp
    assert "rate_limited" in mcp, mcp
    assert (await Tables(few).view(table))["status"] == "playing"


@pytest.mark.parametrize(
    "extra",
    [{"id": MALFORMED_KEY}, {"id": "ok", "if_match": OUT_OF_RANGE}],
    ids=["malformed id", "if_match out of range"],
)
async def test_a_malformed_socket_command_is_paid_as_over_http(
    few: Client, redis_url: str, extra: dict[str, Any]
) -> None:
    table = await Tables(few).ready("cheat", 2, seed=3)
    await emptied(redis_url)
    # Over HTTP: the same key, or the same version as `If-Match`, is refused and paid.
    headers = (
        {"Idempotency-Key": MALFORMED_KEY}
        if extra["id"] == MALFORMED_KEY
        else {"If-Match": f'"{OUT_OF_RANGE}"'}
    )
    rest = await rest_codes(few, table, auth(table.players[0]) | headers)
    assert rest[0] == "invalid_request" and "rate_limited" in rest, rest
    await emptied(redis_url)
    ws = await few.websocket_connect(f"/v1/games/{table.id}/socket")
    with ws:
        ws.send_text(json.dumps({"type": "hello", "token": table.players[1]}))
        assert json.loads(ws.receive_text(timeout=10))["type"] == "welcome"
        command = {"type": "command", "command": {"type": "leave"}} | extra
        codes = [socket_problem(ws, command)["code"] for _ in range(TRIES)]
    assert codes[0] == "invalid_request", codes
    assert "rate_limited" in codes, codes
