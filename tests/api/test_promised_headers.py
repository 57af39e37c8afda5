"""Two promises of docs/security.md, checked as a client sees them, over HTTP against a real
service process.

- **Caches.** Every answer that may hold a hand or a token says `Cache-Control: no-store`: a
  seat's past views and record, an arena entrant's registration (its `ke_` token), its tickets
  (a seated one hands it a seat token); the event stream says `no-cache`, whichever way its token
  comes. (`tests/api/test_tables.py` checks the other answers of a table, in-process.)
- **Inputs.** A 60 KB value of random letters in each field of a body, each header the service
  reads and each query value is a 4xx problem+json, never a 5xx, whose `detail` is at most 300
  characters and which quotes no 41 characters of the value in a row, anywhere in its body or
  headers.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Iterator
from string import Template

import httpx
import pytest

from tests.api.tables import Tables, auth
from tests.conftest import ServiceProcess, serving
from tests.reliability.test_hostile_mcp import quotes

BIG = 60_000
"""A hostile value's length: under `MAX_BODY_BYTES` (64 KiB) in a body, and under `MAX_HEAD_BYTES`
(raised to its most, 64 KiB, here) in a header or a query string, so each reaches its parser."""
LETTERS = "ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ"
"""No digit and no hex letter: no 41 of them in a row can be a table id, a request id, a version
or the words of a message — only the input itself."""
PROBLEM = "application/problem+json"
ELSEWHERE = {"Origin": "http://elsewhere.example"}
"""A request with an `Origin` is served by the framework's route, not the command lane."""


def hostile(seed: int, n: int = BIG) -> str:
    return "".join(random.Random(seed).choices(LETTERS, k=n))


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """This module's service: heads up to 64 KiB, and an arena that seats at once."""
    with serving(
        redis_url,
        tmp_path_factory.mktemp("promised") / "service.log",
        MAX_HEAD_BYTES=str(64 * 1024),
        ARENA_FILL_SECONDS="0",
        ARENA_TICK_MS="50",
        ARENA_REGISTER_PER_HOUR="1000000",
        ARENA_QUEUE_PER_MIN="1000000",
    ) as running:
        yield running


@pytest.fixture(scope="module")
async def http(service: ServiceProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        yield client


async def register(http: httpx.AsyncClient, name: str) -> httpx.Response:
    r = await http.post("/v1/arena/entrants", json={"name": name, "games": ["cheat"]})
    assert r.status_code == 201, r.text
    assert r.json()["token"].startswith("ke_")
    return r


# Caches


async def test_a_seats_past_views_and_record_are_no_store_and_its_stream_no_cache(
    http: httpx.AsyncClient,
) -> None:
    """A proxy that kept one seat's answer could hand its hand to whoever asks next: its past
    views and its record (JSON or words) say `no-store`; the stream, opened with the token in
    `?token=`, in the header or with none, says `no-cache` (read its head only, then hang up)."""
    table = await Tables(http).ready("cheat", 2, seed=21)
    seat = table.players[0]
    views = await http.get(f"/v1/games/{table.id}/views", headers=auth(seat))
    assert views.status_code == 200, views.text
    assert views.json()["views"][-1]["me"]["hand"], "an answer that holds the seat's hand"
    record = await http.get(f"/v1/games/{table.id}/record", headers=auth(seat))
    words = await http.get(
        f"/v1/games/{table.id}/record", headers=auth(seat) | {"Accept": "text/plain"}
    )
    for r in (views, record, words):
        assert r.status_code == 200, r.text
        assert r.headers.get("cache-control") == "no-store", (r.request.url, r.headers)
    url = f"/v1/games/{table.id}/stream"
    for query, headers in (({"token": seat}, {}), ({}, auth(seat)), ({}, {})):
        async with http.stream("GET", url, params=query, headers=headers) as stream:
            assert stream.status_code == 200, (query, headers)
            assert stream.headers["content-type"].startswith("text/event-stream")
            assert stream.headers.get("cache-control") == "no-cache", (query, stream.headers)


async def test_an_entrants_token_and_its_tickets_are_no_store(http: httpx.AsyncClient) -> None:
    """The registration shows the entrant token once; the queue's tickets, `waiting` then
    `seated` with the seat's token: every one says `no-store`, and so do the past views of the
    arena table the seat token opens."""
    entrant = await register(http, "Cachet")
    token = entrant.json()["token"]
    queued = await http.post("/v1/arena/queue", json={"kind": "cheat"}, headers=auth(token))
    assert queued.status_code == 202, queued.text
    answers = [entrant, queued]
    for _ in range(200):
        ticket = await http.get("/v1/arena/queue", params={"wait": 0.2}, headers=auth(token))
        answers.append(ticket)
        assert ticket.status_code == 200, ticket.text
        if ticket.json()["status"] == "seated":
            break
    else:
        raise AssertionError("never seated")
    seated = ticket.json()
    assert seated["token"].startswith("seat_"), "a seated ticket holds the seat's token"
    views = await http.get(f"/v1/games/{seated['table_id']}/views", headers=auth(seated["token"]))
    assert views.status_code == 200, views.text
    answers.append(views)
    assert [r.headers.get("cache-control") for r in answers] == ["no-store"] * len(answers), [
        (r.request.method, r.request.url.path, r.status_code) for r in answers
    ]


# Inputs

GAMES = "/v1/games"
COMMAND = "/v1/games/$table/commands"
ENTRANTS = "/v1/arena/entrants"
SEAT = {"Authorization": "Bearer $seat"}
HOST = {"Authorization": "Bearer $host"}
ENTRANT = {"Authorization": "Bearer $entrant"}
LONG_ENTRANT = {"Authorization": "Bearer ke_$big"}
CALL = '{"type": "call"}'

Ask = tuple[str, str, dict[str, str], str | None]
"""A request as templates: method, path with query, headers, JSON body (None: no body); `$big`
is the hostile value, `$table` a Cheat table in play, `$seat` and `$host` its tokens, `$entrant`
an idle arena entrant's token."""

COMMANDS: dict[str, Ask] = {
    "command type": ("POST", COMMAND, SEAT, '{"type": "$big"}'),
    "command field name": ("POST", COMMAND, SEAT, '{"type": "call", "$big": 1}'),
    "command card": ("POST", COMMAND, SEAT, '{"type": "play", "cards": ["$big"]}'),
    "command give": ("POST", COMMAND, SEAT, '{"type": "swap", "give": "$big", "take": "7H"}'),
    "command take": ("POST", COMMAND, SEAT, '{"type": "swap", "give": "7H", "take": "$big"}'),
    "Authorization": ("POST", COMMAND, {"Authorization": "Bearer $big"}, CALL),
    "Authorization, no scheme": ("POST", COMMAND, {"Authorization": "$big"}, CALL),
    "Idempotency-Key": ("POST", COMMAND, SEAT | {"Idempotency-Key": "$big"}, CALL),
    "If-Match": ("POST", COMMAND, SEAT | {"If-Match": "$big"}, CALL),
    "Content-Type": ("POST", COMMAND, SEAT | {"Content-Type": "$big"}, CALL),
    "table id": ("POST", "/v1/games/$big/commands", SEAT, CALL),
}
"""A command: each field of its body, each header it reads, its table id."""

CASES: dict[str, Ask] = {
    **COMMANDS,
    **{  # the same, where the framework's route serves them instead of the command lane
        f"{name}, by the framework": (method, path, headers | ELSEWHERE, body)
        for name, (method, path, headers, body) in COMMANDS.items()
    },
    "create kind": ("POST", GAMES, {}, '{"kind": "$big"}'),
    "create field name": ("POST", GAMES, {}, '{"kind": "cheat", "$big": 1}'),
    "create option name": ("POST", GAMES, {}, '{"kind": "cheat", "options": {"$big": 1}}'),
    "create option value": ("POST", GAMES, {}, '{"kind": "cheat", "options": {"reveal": "$big"}}'),
    "create seed": ("POST", GAMES, {}, '{"kind": "cheat", "seed": "$big"}'),
    "create Content-Type": ("POST", GAMES, {"Content-Type": "$big"}, '{"kind": "cheat"}'),
    "join name": ("POST", "/v1/games/$table/players", {}, '{"name": "$big"}'),
    "join field name": ("POST", "/v1/games/$table/players", {}, '{"name": "Ilona", "$big": 1}'),
    "house player name": ("POST", "/v1/games/$table/house-players", HOST, '{"name": "$big"}'),
    "view Authorization": ("GET", "/v1/games/$table", {"Authorization": "Bearer $big"}, None),
    "events after": ("GET", "/v1/games/$table/events?after=$big", {}, None),
    "events wait": ("GET", "/v1/games/$table/events?wait=$big", SEAT, None),
    "stream after": ("GET", "/v1/games/$table/stream?after=$big", {}, None),
    "stream token": ("GET", "/v1/games/$table/stream?token=$big", {}, None),
    "stream Last-Event-ID": ("GET", "/v1/games/$table/stream", {"Last-Event-ID": "$big"}, None),
    "record after": ("GET", "/v1/games/$table/record?after=$big", SEAT, None),
    "record limit": ("GET", "/v1/games/$table/record?limit=$big", {}, None),
    "views after": ("GET", "/v1/games/$table/views?after=$big", SEAT, None),
    "views limit": ("GET", "/v1/games/$table/views?limit=$big", {}, None),
    "lobby kind": ("GET", "/v1/games?kind=$big", {}, None),
    "lobby status": ("GET", "/v1/games?status=$big", {}, None),
    "lobby limit": ("GET", "/v1/games?limit=$big", {}, None),
    "lobby offset": ("GET", "/v1/games?offset=$big", {}, None),
    "rules kind": ("GET", "/v1/kinds/$big/rules", {}, None),
    "entrant name": ("POST", ENTRANTS, {}, '{"name": "$big", "games": ["cheat"]}'),
    "entrant game": ("POST", ENTRANTS, {}, '{"name": "A", "games": ["$big"]}'),
    "entrant field name": ("POST", ENTRANTS, {}, '{"name": "A", "games": ["cheat"], "$big": 1}'),
    "entrant page id": ("GET", f"{ENTRANTS}/$big", {}, None),
    "revoke Authorization": ("DELETE", f"{ENTRANTS}/en_x", LONG_ENTRANT, None),
    "queue kind": ("POST", "/v1/arena/queue", ENTRANT, '{"kind": "$big"}'),
    "queue players": ("POST", "/v1/arena/queue", ENTRANT, '{"kind": "cheat", "players": "$big"}'),
    "ticket wait": ("GET", "/v1/arena/queue?wait=$big", ENTRANT, None),
    "ticket Authorization": ("GET", "/v1/arena/queue", LONG_ENTRANT, None),
    "leaderboard kind": ("GET", "/v1/arena/leaderboard?kind=$big", {}, None),
    "leaderboard players": ("GET", "/v1/arena/leaderboard?kind=cheat&players=$big", {}, None),
    "leaderboard limit": ("GET", "/v1/arena/leaderboard?kind=cheat&limit=$big", {}, None),
    "set id": ("GET", "/v1/arena/sets/$big", {}, None),
}
"""Every route's body fields, the headers and query values it reads, its path's values."""


@pytest.fixture(scope="module")
async def places(http: httpx.AsyncClient) -> dict[str, str]:
    """A Cheat table in play, its tokens, and an idle entrant's token, for `$…` in `CASES`."""
    table = await Tables(http).ready("cheat", 2, seed=22)
    entrant = (await register(http, "Quiet")).json()["token"]
    return {"table": table.id, "seat": table.players[0], "host": table.host, "entrant": entrant}


async def ask(http: httpx.AsyncClient, request: Ask, values: dict[str, str]) -> httpx.Response:
    """`request` with `values` in its templates (in its body as JSON strings)."""
    method, path, headers, body = request
    escaped = {k: json.dumps(v)[1:-1] for k, v in values.items()}
    sent = {"Content-Type": "application/json"} if body is not None else {}
    return await http.request(
        method,
        Template(path).substitute(values),
        headers=sent | {k: Template(v).substitute(values) for k, v in headers.items()},
        content=None if body is None else Template(body).substitute(escaped).encode(),
    )


def assert_quotes_little(r: httpx.Response, value: str) -> None:
    """A 4xx problem+json, never a 5xx, with a `code`; `detail` at most 300 characters; no 41
    characters of `value` in a row in its body or its headers."""
    assert 400 <= r.status_code < 500, (r.status_code, r.text[:500])
    assert r.headers["content-type"].startswith(PROBLEM), r.headers
    problem = r.json()
    assert problem["code"] and problem["status"] == r.status_code, problem
    assert len(problem["detail"]) <= 300, problem["detail"]
    assert not quotes(r.text, value), r.text[:1000]
    assert not quotes(" ".join(f"{k}: {v}" for k, v in r.headers.items()), value), r.headers


@pytest.mark.parametrize("case", list(CASES))
async def test_an_error_quotes_at_most_40_characters_of_a_long_input(
    http: httpx.AsyncClient, places: dict[str, str], case: str
) -> None:
    """A value of 60 KB of random letters in one place, all else valid: the refusal quotes at
    most 40 of its characters in a row (docs/security.md, Inputs; api.md, Size limits)."""
    big = hostile(seed=sum(map(ord, case)))
    assert_quotes_little(await ask(http, CASES[case], places | {"big": big}), big)


@pytest.mark.parametrize("mark", ["`", "'", '"', "'\""])
@pytest.mark.parametrize(
    "case", ["create field name", "create option value", "entrant game", "leaderboard kind"]
)
async def test_a_quote_in_a_long_input_does_not_lengthen_its_excerpt(
    http: httpx.AsyncClient, places: dict[str, str], case: str, mark: str
) -> None:
    """The same, with a quote or a backtick near the start of the value: a problem cuts what it
    quotes by the quotes around it, and an input may hold quotes of its own."""
    big = "q" + mark + hostile(seed=sum(map(ord, case)))
    assert_quotes_little(await ask(http, CASES[case], places | {"big": big}), big)
