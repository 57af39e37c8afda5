"""Hostile bytes in every header `/mcp` reads, sent raw to a running service.

test_hostile_bytes' values (digits that are not ASCII, control bytes, empty and over-long
values) in each header of a `tools/call` that would make a legal move: each answer is below
500 — a refusal by the guard or the HTTP server, the MCP transport's own 4xx, or a tool error
— never an answer that moved the table when the header was the one that carried the seat, never
a traceback in the log, and never the token echoed. The access log names the path asked for.

Then hostile values in the JSON-RPC messages themselves (docs/api.md, MCP: errors and limits):
a fuzz of every method through the `mcp` SDK's own client, with 60 KB and token-shaped values —
no error quotes more than 40 characters of any input nor the token, every answer says
`no-store`, and every line the process writes is one of its JSON log lines, none long; the
SDK's own errors (a 64 KB prompt name) logged the same way; an `id` over 128 characters
refused with a null id; and the calls that need no token limited per address while another
address is served.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import string
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import httpx2
import mcp_types as types
import pytest
from mcp import Client, MCPError
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ServiceProcess, serving
from tests.reliability.conftest import written_since
from tests.reliability.test_hostile_bytes import PARSER_400, VALUES, exchange, http, seated

ACCEPT = (b"Accept", b"application/json, text/event-stream")
JSON = (b"Content-Type", b"application/json")

HEADERS: dict[str, tuple[bytes, bytes, bool]] = {
    # name: (header, before the value, whether every value must leave the table as it was)
    "Authorization": (b"Authorization", b"Bearer ", True),
    "Authorization, the whole value": (b"Authorization", b"", True),
    "Origin": (b"Origin", b"", True),
    "Host": (b"Host", b"", True),
    "Content-Type": (b"Content-Type", b"", True),
    "Accept": (b"Accept", b"", True),
    "Content-Length": (b"Content-Length", b"", True),
    "Mcp-Protocol-Version": (b"Mcp-Protocol-Version", b"", False),
    "Mcp-Session-Id": (b"Mcp-Session-Id", b"", False),
    "X-Forwarded-For": (b"X-Forwarded-For", b"", False),
}


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """A service of its own that logs each request (the access log is checked too)."""
    log = tmp_path_factory.mktemp("hostile-mcp") / "service.log"
    with serving(redis_url, log, LOG_LEVEL="INFO") as server:
        yield server


@pytest.fixture(scope="module")
def client(service: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=30) as c:
        yield c


def call(game_id: str, move: bytes) -> bytes:
    """A `make_move` with no token argument: the seat is the connection's `Authorization`."""
    message = {
        "jsonrpc": "2.0",
        "id": 7,
        "method": "tools/call",
        "params": {
            "name": "make_move",
            "arguments": {"table_id": game_id, "move": json.loads(move)},
        },
    }
    return json.dumps(message).encode()


def verdict(status: int, body: bytes) -> str:
    """What the answer was; a 5xx fails."""
    assert status < 500, (status, body[:300])
    if status == 400 and body == PARSER_400:
        return "400 from the HTTP parser"
    if status >= 400:
        return f"{status}"
    answer = json.loads(body)
    if "error" in answer:
        return f"200 JSON-RPC error {answer['error'].get('code')}"
    if answer["result"].get("isError"):
        text = answer["result"]["content"][0]["text"]
        return f"200 tool error {json.loads(text).get('code')}"
    return "200 moved"


@pytest.mark.parametrize("header", list(HEADERS))
def test_a_hostile_header_at_mcp_is_below_500_and_moves_nothing(
    service: ServiceProcess, client: httpx.Client, clean_log: None, header: str
) -> None:
    name, before, refused = HEADERS[header]
    tally: Counter[str] = Counter()
    start = service.log.stat().st_size
    table = seated(client)
    for value in VALUES.values():
        standard = [
            (b"Authorization", f"Bearer {table.token}".encode()),
            JSON,
            ACCEPT,
        ]
        headers = [h for h in standard if h[0] != name] + [(name, before + value)]
        request = http("POST", b"/mcp", headers, call(table.id, table.move))
        if name == b"Host":  # in place of the one `http` writes
            request = request.replace(b"Host: 127.0.0.1\r\n", b"", 1)
        was = client.get(f"/v1/games/{table.id}").json()["version"]
        answer = exchange(service.port, request)
        seen = verdict(answer.status, answer.body)
        tally[seen] += 1
        assert table.token.encode() not in answer.body, "the token was echoed"
        now = client.get(f"/v1/games/{table.id}").json()["version"]
        if refused:
            assert seen != "200 moved" and now == was, (header, value, seen)
        elif now != was:  # the header was rightly ignored: a new table for the next value
            assert seen == "200 moved", (header, value, seen)
            table = seated(client)
    print(f"\n{header}: {dict(tally)}")
    if set(tally) != {"400 from the HTTP parser"}:  # some reached the service: it logged them
        written = written_since(service.log, start)
        assert '"msg": "POST /mcp ' in written, "the access log should name the path asked for"


# --- What `/mcp` says back (docs/api.md, MCP: errors and limits) ----------------------------

EXCERPT = 40
"""The most characters of any input an error may quote in a row."""
MESSAGE_MAX = 300
LINE_MAX = 8192
"""The longest line the service may write to its log (the SDK's lines are cut well below)."""


@dataclass
class Heard:
    """What an MCP client received: each answer's status and `Cache-Control`, every error's
    texts and every other answer as text."""

    answers: list[tuple[int, str | None]] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)
    """(what was called, text): a JSON-RPC error's message and data, a tool error's problem."""
    results: list[str] = field(default_factory=list)

    async def hook(self, response: httpx2.Response) -> None:
        self.answers.append((response.status_code, response.headers.get("cache-control")))


@contextlib.asynccontextmanager
async def mcp_client(url: str, host: int, heard: Heard) -> AsyncIterator[Client]:
    """The `mcp` SDK's client on `<url>/mcp`, its connections from 127.0.0.`host`, every
    answer's headers noted in `heard`."""
    http = httpx2.AsyncClient(
        transport=httpx2.AsyncHTTPTransport(local_address=f"127.0.0.{host}"),
        timeout=httpx2.Timeout(30, read=60),
        event_hooks={"response": [heard.hook]},
    )
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        yield client


def letters(rng: random.Random, n: int) -> str:
    """`n` random letters: any run of 41 of them is found nowhere else."""
    return "".join(rng.choices(string.ascii_letters, k=n))


def quotes(text: str, value: str) -> bool:
    """Whether `text` holds more than `EXCERPT` characters of `value` in a row."""
    run = EXCERPT + 1
    return any(text[i : i + run] in value for i in range(len(text) - run + 1))


async def fuzz_calls(client: Client, v: dict[str, str]) -> list[tuple[str, Awaitable[Any]]]:
    """Every method an agent may call, and some it may not, with hostile values: `v["big"]`
    (60 KB) where only the body carries it, `v["name"]` (4 KB) where the SDK's client mirrors
    it in a header (`Mcp-Name`, `Mcp-Method`), `v["token"]` a token-shaped value."""
    big, name, token = v["big"], v["name"], v["token"]
    tools = (await client.list_tools()).tools
    calls: list[tuple[str, Awaitable[Any]]] = []

    def raw(method: str, params: dict[str, Any]) -> Awaitable[Any]:
        return client.session.send_request(
            types.Request(method=method, params=params), types.EmptyResult
        )

    calls.append(("unknown method", raw(name, {"a": big, "b": token})))
    calls.append(("unknown method with a token", raw(f"x{token}", {})))
    for method in (
        "initialize",
        "ping",
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "completion/complete",
        "logging/setLevel",
        "resources/subscribe",
    ):
        for params in (
            {"cursor": big, "x": token},
            dict.fromkeys(("protocolVersion", "level", "uri", "ref"), name),
        ):
            calls.append((method, raw(method, params)))
    calls.append(("prompts/get, unknown", client.get_prompt(name, {"kind": big, "t": token})))
    calls.append(("prompts/get, a token", client.get_prompt(token, {})))
    calls.append(("prompts/get", client.get_prompt("play_a_table", {"kind": big + token})))
    calls.append(("resources/read", client.read_resource(f"kronikas://rules/{name}")))
    calls.append(("resources/read, a token", client.read_resource(f"kronikas://rules/{token}")))
    calls.append(("resources/read, scheme", client.read_resource(f"{name}://{token}")))
    calls.append(("tools/call, unknown", client.call_tool(name, {"x": big, "t": token})))
    for tool in tools:
        keys = list(tool.input_schema.get("properties") or {})
        calls.append(
            (f"tools/call {tool.name}", client.call_tool(tool.name, dict.fromkeys(keys, token)))
        )
        for key in keys:  # one big value a call: the body stays within MAX_BODY_BYTES
            for value in (big, big[:30_000] + token, "\"'`\\" + big[:30_000]):
                arguments = dict.fromkeys(keys, token) | {key: value}
                calls.append(
                    (f"tools/call {tool.name} {key}", client.call_tool(tool.name, arguments))
                )
        calls.append(
            (
                f"tools/call {tool.name}, a move",
                client.call_tool(tool.name, {"move": {"type": big[:30_000], token: big[:20_000]}}),
            )
        )
    return calls


async def fuzz(url: str, host: int, v: dict[str, str]) -> Heard:
    heard = Heard()
    async with mcp_client(url, host, heard) as client:
        for what, call in await fuzz_calls(client, v):
            try:
                result = await call
            except MCPError as exc:
                heard.errors.append((what, exc.message))
                if exc.data is not None:
                    heard.errors.append((what, json.dumps(exc.data)))
                continue
            if getattr(result, "is_error", False):
                text = "".join(getattr(block, "text", "") for block in result.content)
                heard.errors.append((what, text))
            heard.results.append(result.model_dump_json())
    return heard


async def test_a_fuzz_of_every_method_quotes_at_most_40_characters_and_no_token(
    service: ServiceProcess, clean_log: None
) -> None:
    rng = random.Random(secrets.randbits(64))
    v = {
        "big": letters(rng, 60_000),
        "name": letters(rng, 4_000),
        "token": "seat_" + secrets.token_urlsafe(24),
    }
    start = service.log.stat().st_size
    heard = await fuzz(service.url, 4, v)

    assert len(heard.errors) > 40, heard.errors  # the fuzz reached the errors it means to
    for what, text in heard.errors:
        for value in (v["big"], v["name"]):
            assert not quotes(text, value), (what, text[:400])
        assert v["token"] not in text, (what, text[:400])
        problem = _problem(text)
        detail = problem.get("detail", text) if problem is not None else text
        assert len(detail) <= MESSAGE_MAX, (what, len(detail))
    for result in heard.results:
        assert v["token"] not in result
    assert heard.answers and all(cc == "no-store" for _, cc in heard.answers), heard.answers
    assert all(status < 500 and status != 413 for status, _ in heard.answers), sorted(
        Counter(s for s, _ in heard.answers).items()
    )

    written = written_since(service.log, start)
    assert v["token"] not in written
    for line in written.splitlines():
        assert len(line.encode()) <= LINE_MAX, line[:300]
        assert isinstance(json.loads(line), dict), line[:300]


def _problem(text: str) -> dict[str, Any] | None:
    try:
        problem = json.loads(text)
    except ValueError:
        return None
    return problem if isinstance(problem, dict) else None


async def test_the_sdks_errors_go_to_the_log_as_json_lines_scrubbed_and_cut(
    service: ServiceProcess,
) -> None:
    # 20 unauthenticated `prompts/get` with a 64 KB name, and 20 unknown methods of 60 KB,
    # sent raw (the SDK's client would mirror the name in a header): every line written
    # meanwhile is one of the service's JSON lines, none long, none holding the token.
    token = "seat_" + secrets.token_urlsafe(24)
    name = letters(random.Random(secrets.randbits(64)), 64 * 1024 - 256) + token
    start = service.log.stat().st_size
    async with raw_client(service, 5) as client:
        for n in range(20):
            for message in (
                {"jsonrpc": "2.0", "id": n, "method": "prompts/get", "params": {"name": name}},
                {"jsonrpc": "2.0", "id": n, "method": name[:60_000], "params": {}},
            ):
                r = await client.post("/mcp", json=message)
                assert r.headers["cache-control"] == "no-store"
                assert len(r.content) < 1024, (r.status_code, r.content[:300])
                assert token.encode() not in r.content
                assert "error" in r.json()
    await asyncio.to_thread(service_answers, service)  # every line of the calls is written
    written = written_since(service.log, start)
    assert token not in written
    assert written.count('"msg": "POST /mcp ') >= 40, written[-2000:]
    for line in written.splitlines():
        assert len(line.encode()) <= LINE_MAX, line[:300]
        assert isinstance(json.loads(line), dict), line[:300]


def service_answers(service: ServiceProcess) -> None:
    httpx.get(f"{service.url}/v1/health", timeout=30).raise_for_status()


@contextlib.asynccontextmanager
async def raw_client(service: ServiceProcess, host: int) -> AsyncIterator[httpx.AsyncClient]:
    """Plain HTTP to `/mcp` from 127.0.0.`host`, as an MCP client's POSTs go."""
    transport = httpx.AsyncHTTPTransport(local_address=f"127.0.0.{host}")
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx.AsyncClient(
        base_url=service.url, transport=transport, headers=headers, timeout=30
    ) as client:
        yield client


async def test_an_id_over_128_characters_is_refused_with_a_null_id(
    service: ServiceProcess, clean_log: None
) -> None:
    long_id = letters(random.Random(secrets.randbits(64)), 129)
    async with raw_client(service, 6) as client:
        for method in ("ping", "tools/list", "initialize", "no/such/method"):
            message = {"jsonrpc": "2.0", "id": long_id, "method": method, "params": {}}
            r = await client.post("/mcp", json=message)
            assert r.status_code == 400, r.text
            assert r.headers["cache-control"] == "no-store"
            answer = r.json()
            assert answer["id"] is None and answer["error"]["code"] == -32600, answer
            assert long_id[:EXCERPT] not in r.text
        served = await client.post(
            "/mcp", json={"jsonrpc": "2.0", "id": long_id[:128], "method": "ping"}
        )
        assert served.status_code == 200 and served.json() == {
            "jsonrpc": "2.0",
            "id": long_id[:128],
            "result": {},
        }, served.text
        number = await client.post("/mcp", json={"jsonrpc": "2.0", "id": 10**200, "method": "ping"})
        assert number.status_code == 400 and number.json()["id"] is None, number.text


async def test_calls_without_a_token_are_limited_per_address_while_another_is_served(
    redis_url: str, tmp_path: Path
) -> None:
    burst = 20
    with serving(
        redis_url, tmp_path / "service.log", READ_LIMIT_PER_S="1", READ_LIMIT_BURST=str(burst)
    ) as limited:
        tally: Counter[int] = Counter()
        async with raw_client(limited, 7) as flood:
            limited_answer = None
            for n in range(50 * burst):
                r = await flood.post("/mcp", json={"jsonrpc": "2.0", "id": n, "method": "ping"})
                tally[r.status_code] += 1
                assert r.headers["cache-control"] == "no-store"
                if r.status_code == 429:
                    limited_answer = r
                    break
                assert r.status_code == 200, r.text
        assert limited_answer is not None, tally
        assert int(limited_answer.headers["retry-after"]) >= 1
        error = limited_answer.json()["error"]
        assert error["code"] == -32000 and error["data"]["code"] == "rate_limited", error
        assert error["data"]["retry_after_s"] >= 1

        # A tool that pays for itself, called with arguments the SDK refuses before it runs,
        # pays all the same: from its address's read bucket, a tool error once it is empty.
        async with raw_client(limited, 9) as flood:
            codes: Counter[str] = Counter()
            for n in range(50 * burst):
                call = {"name": "get_view", "arguments": {"token": "x"}}
                message = {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": call}
                r = await flood.post("/mcp", json=message)
                assert r.status_code == 200, r.text
                problem = json.loads(r.json()["result"]["content"][0]["text"])
                codes[problem["code"]] += 1
                if problem["code"] == "rate_limited":
                    assert problem["retry_after_s"] >= 1
                    break
            assert codes["rate_limited"] == 1 and codes["invalid_request"] >= 1, codes

        # Through the SDK's client, the flooding address's call is an MCPError it can read...
        refused: MCPError | None = None
        try:
            async with mcp_client(limited.url, 7, Heard()) as client:
                for _ in range(50 * burst):
                    await client.get_prompt("play_a_table", {})
        except Exception as exc:  # the client's task group hands it on in a group
            refused = mcp_error(exc)
        assert refused is not None and refused.data["code"] == "rate_limited", refused
        # ...while another address is served: the handshake, the lists, a prompt, a resource.
        other = Heard()
        async with mcp_client(limited.url, 8, other) as client:
            await client.read_resource("kronikas://rules/cheat")
            assert {t.name for t in (await client.list_tools()).tools} >= {"list_games"}
            await client.get_prompt("play_a_table", {})
            games = await client.call_tool("list_games", {})
            assert not games.is_error
        assert other.answers and all(status < 400 for status, _ in other.answers), other


def mcp_error(exc: BaseException) -> MCPError | None:
    """The `MCPError` that `exc` is, holds (an exception group) or was raised from."""
    if isinstance(exc, MCPError):
        return exc
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            if (found := mcp_error(inner)) is not None:
                return found
    cause = exc.__cause__ or exc.__context__
    return mcp_error(cause) if cause is not None else None


async def test_messages_of_odd_shapes_are_answered_below_500_and_bounded(
    service: ServiceProcess, clean_log: None
) -> None:
    big = letters(random.Random(secrets.randbits(64)), 60_000)
    token = "seat_" + secrets.token_urlsafe(24)
    bodies = [
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":["get_view"]}}',
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":[1, 2]}',
        b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}',
        b'{"jsonrpc":"2.0","id":1,"method":5}',
        b'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"x"}]',
        b"[" * 60_000,
        b'{"jsonrpc":"2.0","id":1,"method":"' + big.encode() + token.encode(),
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"' + big.encode() + b'":1}}',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":' + b"9" * 30_000 + b"}",
        b"\xff\xfe" + big.encode()[:1000],
        b"null",
        b'"' + big.encode() + b'"',
        b"",
    ]
    async with raw_client(service, 10) as client:
        for body in bodies:
            r = await client.post(
                "/mcp", content=body, headers={"Content-Type": "application/json"}
            )
            assert r.status_code < 500, (body[:80], r.status_code, r.text[:300])
            assert r.headers["cache-control"] == "no-store", body[:80]
            assert len(r.content) < 2048, (body[:80], r.content[:300])
            assert not quotes(r.text, big) and token not in r.text, (body[:80], r.text[:300])
