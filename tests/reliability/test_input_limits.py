"""Limits: oversize bodies, huge lists, deep nesting, unknown fields, huge parameters, bytes that
are not UTF-8 — each a clear 4xx problem+json with a `code`, quickly, and nothing changed."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.tables import Table, Tables, auth

Client = AsyncTestClient[Litestar]
LIMIT = 64 * 1024
QUICK_S = 10
"""Far below any wait a hostile value could ask for (they go up to 30 s or for ever)."""


@pytest.fixture
async def table(client: Client) -> Table:
    return await Tables(client).ready("cheat", 2, seed=12)


def nested(depth: int) -> bytes:
    return b'{"type": "play", "cards": ' + b"[" * depth + b"]" * depth + b"}"


BODIES: dict[str, tuple[str, bytes, int]] = {
    # name: (route, body, status)
    "command over the limit": ("commands", b'{"type": "call", "x": "' + b"a" * LIMIT + b'"}', 413),
    "create over the limit": ("create", b'{"kind": "cheat", "x": "' + b"a" * LIMIT + b'"}', 413),
    "join over the limit": ("join", b'{"name": "' + b"a" * LIMIT + b'"}', 413),
    "10,000 cards": (
        "commands",
        json.dumps({"type": "play", "cards": ["7H"] * 10_000}).encode(),
        422,
    ),
    "10,000 swaps": ("commands", json.dumps([{"type": "swap"}] * 10_000).encode(), 413),
    "10,000 place points": (
        "create",
        json.dumps({"kind": "cheat", "options": {"place_points": [1] * 10_000}}).encode(),
        422,
    ),
    "nested 100 deep": ("commands", nested(100), 422),
    "nested 1,000 deep": ("commands", nested(1_000), 422),
    "nested 30,000 deep": ("commands", nested(30_000), 422),
    "nested options": (
        "create",
        b'{"kind": "cheat", "options": ' + b"[" * 20_000 + b"]" * 20_000 + b"}",
        422,
    ),
    "unknown field in a command": ("commands", b'{"type": "call", "loud": true}', 422),
    "unknown option": ("create", b'{"kind": "cheat", "options": {"jokers": 2}}', 422),
    "unknown field in a join": ("join", b'{"name": "Ilona", "seat": 0}', 422),
    "huge seed": ("create", b'{"kind": "cheat", "seed": 1' + b"0" * 400 + b"}", 422),
    "seed 1e400": ("create", b'{"kind": "cheat", "seed": 1e400}', 422),
    "non-UTF-8 command": ("commands", b'{"type": "\xff\xfe"}', 422),
    "non-UTF-8 name": ("join", b'{"name": "\xc3\x28"}', 422),
    "non-UTF-8 create": ("create", b"\xff\xfe\xfd", 422),
    "empty body": ("commands", b"", 422),
    "NaN in a body": ("create", b'{"kind": "cheat", "seed": NaN}', 422),
}


async def version_of(client: Client, table: Table) -> int:
    version: int = (await Tables(client).view(table))["version"]
    return version


def assert_clear_4xx(r: Any, status: int | None = None) -> dict[str, Any]:
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:300])
    if status is not None:
        assert r.status_code == status, r.text[:300]
    assert r.headers["content-type"].startswith("application/problem+json")
    problem: dict[str, Any] = r.json()
    assert problem["code"] and problem["detail"] and problem["status"] == r.status_code
    assert len(r.content) < 4096, "an error must not echo a huge input back"
    return problem


@pytest.mark.parametrize("name", list(BODIES))
async def test_hostile_bodies_are_a_clear_4xx_and_change_nothing(
    client: Client, table: Table, name: str
) -> None:
    route, body, status = BODIES[name]
    url = {
        "commands": f"/v1/games/{table.id}/commands",
        "create": "/v1/games",
        "join": f"/v1/games/{table.id}/players",
    }[route]
    before = await version_of(client, table)
    lobby = (await client.get("/v1/games", params={"limit": 1})).json()["games"]
    started = time.monotonic()
    r = await client.post(
        url,
        content=body,
        headers=auth(table.players[0]) | {"content-type": "application/json"},
    )
    assert time.monotonic() - started < QUICK_S
    assert_clear_4xx(r, status)
    assert await version_of(client, table) == before
    assert (await client.get("/v1/games", params={"limit": 1})).json()["games"] == lobby


PARAMS: dict[str, tuple[str, str]] = {
    # name: (path under /v1/games/{id}, query string)
    "wait 1e308": ("events", "wait=1e308"),
    "wait inf": ("events", "wait=inf"),
    "wait -inf": ("events", "wait=-inf"),
    "wait nan": ("events", "wait=nan"),
    "wait 10**40": ("events", "wait=1" + "0" * 40),
    "after 10**30": ("events", "after=1" + "0" * 30),
    "after nan": ("events", "after=nan"),
    "after non-UTF-8": ("events", "after=%FF"),
    "stream after 10**30": ("stream", "after=1" + "0" * 30),
    "stream after inf": ("stream", "after=inf"),
    "stream token non-UTF-8": ("stream", "token=%FF%FE"),
    "stream token too long": ("stream", "token=" + "a" * 300),
}


@pytest.mark.parametrize("name", list(PARAMS))
async def test_hostile_parameters_are_a_clear_4xx_quickly(
    client: Client, table: Table, name: str
) -> None:
    path, query = PARAMS[name]
    before = await version_of(client, table)
    started = time.monotonic()
    r = await client.get(f"/v1/games/{table.id}/{path}?{query}")
    assert time.monotonic() - started < QUICK_S, "a hostile parameter must not make the call wait"
    assert_clear_4xx(r)
    assert await version_of(client, table) == before


HEADERS: dict[str, tuple[str, list[tuple[bytes, bytes]]]] = {
    "If-Match huge": ("commands", [(b"if-match", b'"' + b"9" * 40 + b'"')]),
    "If-Match non-UTF-8": ("commands", [(b"if-match", b'"\xff"')]),
    "If-Match negative": ("commands", [(b"if-match", b'"-1"')]),
    "Idempotency-Key too long": ("commands", [(b"idempotency-key", b"k" * 129)]),
    "Last-Event-ID huge": ("stream", [(b"last-event-id", b"9" * 40)]),
    "Last-Event-ID non-UTF-8": ("stream", [(b"last-event-id", b"\xff")]),
    "Authorization non-UTF-8": ("commands", [(b"authorization", b"Bearer \xff\xfe")]),
    "Authorization huge": ("commands", [(b"authorization", b"Bearer " + b"a" * 8000)]),
}


@pytest.mark.parametrize("name", list(HEADERS))
async def test_hostile_headers_are_a_clear_4xx_and_change_nothing(
    client: Client, table: Table, name: str
) -> None:
    path, extra = HEADERS[name]
    before = await version_of(client, table)
    view = await Tables(client).view(
        table, table.players[(await Tables(client).view(table))["turn"]]
    )
    seat = view["me"]["seat"]
    headers = [(b"authorization", f"Bearer {table.players[seat]}".encode())]
    headers = [h for h in headers if h[0] not in {k for k, _ in extra}] + extra
    started = time.monotonic()
    if path == "commands":
        body = json.dumps({"type": "play", "cards": view["me"]["hand"][:1]}).encode()
        r = await client.post(
            f"/v1/games/{table.id}/commands",
            content=body,
            headers=[*headers, (b"content-type", b"application/json")],
        )
    else:
        r = await client.get(f"/v1/games/{table.id}/stream", headers=headers)
    assert time.monotonic() - started < QUICK_S
    assert_clear_4xx(r)
    assert await version_of(client, table) == before


@pytest.mark.parametrize(
    "path", ["/v1/games/%FF%FE", "/v1/games/%FF/events", "/v1/games/" + "a" * 5000]
)
async def test_hostile_paths_are_a_clear_4xx(client: Client, path: str) -> None:
    assert_clear_4xx(await client.get(path))


BIG = "x" * 60_000
ECHOES: dict[str, tuple[str, bytes]] = {
    # name: (route, body)
    "a 60 KB field name in a create": ("create", json.dumps({"kind": "cheat", BIG: 1}).encode()),
    "a 60 KB option name": ("create", json.dumps({"kind": "cheat", "options": {BIG: 1}}).encode()),
    "a 60 KB kind": ("create", json.dumps({"kind": BIG}).encode()),
    "a 60 KB field name in a join": ("join", json.dumps({"name": "Ilona", BIG: 1}).encode()),
    "a 60 KB field name in a command": ("commands", json.dumps({"type": "call", BIG: 1}).encode()),
    "a 60 KB command type": ("commands", json.dumps({"type": BIG}).encode()),
    "a 60 KB card": ("commands", json.dumps({"type": "play", "cards": [BIG]}).encode()),
}


@pytest.mark.parametrize("origin", [{}, {"origin": "http://elsewhere.example"}])
@pytest.mark.parametrize("name", list(ECHOES))
async def test_a_problem_quotes_only_a_short_excerpt_of_the_input(
    client: Client, table: Table, name: str, origin: dict[str, str]
) -> None:
    route, body = ECHOES[name]
    url = {
        "commands": f"/v1/games/{table.id}/commands",
        "create": "/v1/games",
        "join": f"/v1/games/{table.id}/players",
    }[route]
    headers = auth(table.players[0]) | {"content-type": "application/json"} | origin
    r = await client.post(url, content=body, headers=headers)
    problem = assert_clear_4xx(r, 422)
    assert len(problem["detail"]) <= 300, problem["detail"]
    assert "x" * 201 not in r.text, "no more than a short excerpt, in `detail` or `errors`"
    if "x" * 40 in problem["detail"]:
        assert "x" * 40 + "…" in problem["detail"], "a cut input says it was cut"


NOT_JSON = [
    "text/plain",
    "text/plain; charset=utf-8",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/jsonx",
    "application/json-seq",
    "application/problem+json",
    "text/plain; x=application/json",
    "application/json; charset=latin-1",
    "application/json; charset=utf-8; x=1",
    "",
    None,  # no Content-Type at all, with a body
]


async def _post_json_as(
    client: Client, table: Table, route: str, content_type: str | None, origin: bool
) -> Any:
    url, body = {
        "create": ("/v1/games", b'{"kind": "cheat"}'),
        "join": (f"/v1/games/{table.id}/players", b'{"name": "Cecil"}'),
        "house": (f"/v1/games/{table.id}/house-players", b'{"name": "Cecil"}'),
        "commands": (f"/v1/games/{table.id}/commands", b'{"type": "leave"}'),
    }[route]
    token = table.host if route == "house" else table.players[0]
    headers = [(b"authorization", f"Bearer {token}".encode())]
    if content_type is not None:
        headers.append((b"content-type", content_type.encode()))
    if origin:
        headers.append((b"origin", b"http://elsewhere.example"))
    return await client.post(url, content=body, headers=headers)


@pytest.fixture
async def lobby_table(client: Client) -> Table:
    tables = Tables(client)
    table = await tables.create("cheat")
    await tables.join(table, "Ilona")
    return table


@pytest.mark.parametrize("origin", [False, True])
@pytest.mark.parametrize("content_type", NOT_JSON)
@pytest.mark.parametrize("route", ["create", "join", "house", "commands"])
async def test_a_body_not_sent_as_json_is_415_and_changes_nothing(
    client: Client, lobby_table: Table, route: str, content_type: str | None, origin: bool
) -> None:
    before = await version_of(client, lobby_table)
    lobby = (await client.get("/v1/games", params={"limit": 1})).json()["games"]
    r = await _post_json_as(client, lobby_table, route, content_type, origin)
    assert assert_clear_4xx(r, 415)["code"] == "unsupported_media_type"
    assert await version_of(client, lobby_table) == before
    assert (await client.get("/v1/games", params={"limit": 1})).json()["games"] == lobby


JSON_TYPES = [
    "application/json",
    "Application/JSON",
    "application/json; charset=utf-8",
    "application/json;charset=UTF-8",
    'application/json; Charset="utf-8"',
    "application/json;",
]


@pytest.mark.parametrize("origin", [False, True])
@pytest.mark.parametrize("content_type", JSON_TYPES)
@pytest.mark.parametrize("route", ["create", "join", "house", "commands"])
async def test_a_body_sent_as_json_is_taken(
    client: Client, lobby_table: Table, route: str, content_type: str, origin: bool
) -> None:
    r = await _post_json_as(client, lobby_table, route, content_type, origin)
    assert r.status_code in (200, 201), r.text


async def test_a_post_without_a_body_needs_no_content_type(client: Client) -> None:
    tables = Tables(client)
    table = await tables.create("cheat")
    await tables.join(table)
    await tables.join(table)
    r = await client.post(f"/v1/games/{table.id}/start", headers=auth(table.host))
    assert "content-type" not in r.request.headers
    assert r.status_code == 200, r.text


@pytest.mark.parametrize("route", ["start", "view", "events", "kinds"])
async def test_a_body_over_the_limit_is_413_where_the_route_reads_none(
    client: Client, lobby_table: Table, route: str
) -> None:
    """`start` and the reads take no body, yet a body over the limit is refused there as
    everywhere (the table is not dealt), and a small one is ignored. (A body sent with no
    length, to a real server: test_hostile_bytes.py.)"""
    await Tables(client).join(lobby_table, "Jutka")
    before = await version_of(client, lobby_table)
    method, url = {
        "start": ("POST", f"/v1/games/{lobby_table.id}/start"),
        "view": ("GET", f"/v1/games/{lobby_table.id}"),
        "events": ("GET", f"/v1/games/{lobby_table.id}/events"),
        "kinds": ("GET", "/v1/kinds"),
    }[route]
    big = b"{" + b" " * (LIMIT * 20) + b"}"
    headers = auth(lobby_table.host) | {"content-type": "application/json"}
    r = await client.request(method, url, content=big, headers=headers)
    assert assert_clear_4xx(r, 413)["code"] == "payload_too_large"
    assert await version_of(client, lobby_table) == before
    small = b"{}"
    r = await client.request(method, url, content=small, headers=headers)
    assert r.status_code == 200, r.text
    if route == "start":
        assert r.json()["status"] == "playing"


@pytest.mark.parametrize("length", [17, 65, 5000])
@pytest.mark.parametrize(
    "route", ["view", "events", "stream", "join", "house", "start", "commands"]
)
async def test_an_id_no_table_can_have_is_404_on_every_route(
    client: Client, table: Table, route: str, length: int
) -> None:
    """However long, an id that names no table is 404 `not_found` (never the framework's
    422), and a long one is not echoed back."""
    game_id = "a" * length
    method, path, body = {
        "view": ("GET", "", None),
        "events": ("GET", "/events", None),
        "stream": ("GET", "/stream", None),
        "join": ("POST", "/players", b'{"name": "Cecil"}'),
        "house": ("POST", "/house-players", b'{"name": "Cecil"}'),
        "start": ("POST", "/start", None),
        "commands": ("POST", "/commands", b'{"type": "leave"}'),
    }[route]
    headers = auth(table.host if route in ("house", "start") else table.players[0])
    if body is not None:
        headers["content-type"] = "application/json"
    r = await client.request(method, f"/v1/games/{game_id}{path}", content=body, headers=headers)
    problem = assert_clear_4xx(r, 404)
    assert problem["code"] == "not_found"
    assert "a" * 65 not in r.text
