"""Hostile bytes in every header `/mcp` reads, sent raw to a running service.

test_hostile_bytes' values (digits that are not ASCII, control bytes, empty and over-long
values) in each header of a `tools/call` that would make a legal move: each answer is below
500 — a refusal by the guard or the HTTP server, the MCP transport's own 4xx, or a tool error
— never an answer that moved the table when the header was the one that carried the seat, never
a traceback in the log, and never the token echoed. The access log names the path asked for.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

import httpx
import pytest

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
