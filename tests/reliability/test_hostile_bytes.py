"""Hostile bytes in every header and query value the API reads, sent raw to a running service.

Digits that are not ASCII (superscripts, Arabic-Indic, fullwidth; as UTF-8 and as Latin-1
bytes), control bytes, empty and over-long values, in each value on the framework's routes and on
the command lane (a command without an `Origin` header; with one, the framework serves it). Each
answer is a 4xx problem+json with a `code`, never a 5xx; the log holds no traceback; a refused
command leaves the table at its version. The files served outside the API (the web table's, the
docs pages and their assets) get the conditional and range headers with the same values and with
dates no parser can hold: an answer or a 4xx, never a 5xx.

Bytes the HTTP grammar forbids (most control bytes in a header, raw bytes above 0x7F in the
request target) never reach the application: the HTTP server's parser answers its own plain 400,
which is allowed here and counted.
"""

from __future__ import annotations

import json
import socket
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import quote_from_bytes

import httpx
import pytest

from tests.api.tables import auth
from tests.conftest import ServiceProcess

VALUES: dict[str, bytes] = {
    "superscript one, UTF-8": "¹".encode(),
    "superscript two, Latin-1": b"\xb2",
    "superscripts one two, Latin-1": b"\xb9\xb2",
    "a digit and a superscript, Latin-1": b"1\xb3",
    "Arabic-Indic three, UTF-8": "٣".encode(),
    "Arabic-Indic three, in Latin-1's range": "٣".encode()[1:],
    "fullwidth three, UTF-8": "３".encode(),
    "fullwidth digits with an ASCII one": "1２".encode(),
    "NUL": b"1\x00",
    "SOH": b"\x01",
    "escape": b"\x1b[2J",
    "DEL": b"7\x7f",
    "a tab inside": b"1\t2",
    "NBSP, Latin-1": b"1\xa0",
    "empty": b"",
    "over-long digits": b"9" * 4000,
    "over-long letters": b"a" * 4000,
    "minus one": b"-1",
}

PARSER_400 = b"Invalid HTTP request received."
ORIGIN = b"http://elsewhere.example"


@dataclass
class Answer:
    status: int
    headers: dict[bytes, bytes]
    body: bytes


def exchange(port: int, request: bytes) -> Answer:
    """One request on its own connection, the answer's head and (unless a stream) its body."""
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            headers[name.strip().lower()] = value.strip()
        if b"text/event-stream" in headers.get(b"content-type", b""):
            return Answer(status, headers, b"")
        size = int(headers.get(b"content-length", b"-1"))
        while len(body) != size:
            chunk = sock.recv(65536)
            if not chunk:
                break
            body += chunk
        return Answer(status, headers, body)


def http(
    method: str, target: bytes, headers: list[tuple[bytes, bytes]], body: bytes = b""
) -> bytes:
    lines = [b"%s %s HTTP/1.1" % (method.encode(), target), b"Host: 127.0.0.1"]
    lines += [b"Connection: close"] + [b"%s: %s" % (k, v) for k, v in headers]
    framed = any(k.lower() == b"content-length" for k, _ in headers)
    if (body or method == "POST") and not framed:
        lines.append(b"Content-Length: %d" % len(body))
    return b"\r\n".join(lines) + b"\r\n\r\n" + body


def judge(answer: Answer, tally: Counter[str]) -> str:
    """A 4xx problem+json with a code, or the HTTP parser's own 400; never a 5xx."""
    assert answer.status < 500, (answer.status, answer.body[:300])
    if answer.status == 400 and answer.body == PARSER_400:
        tally["refused by the HTTP parser"] += 1
        return "parser"
    assert 400 <= answer.status < 500, (answer.status, answer.body[:300])
    assert answer.headers[b"content-type"].startswith(b"application/problem+json")
    problem = json.loads(answer.body)
    assert problem["code"] and problem["status"] == answer.status
    assert len(answer.body) < 2048, "a problem must not echo a large input back"
    tally[f"{answer.status} {problem['code']}"] += 1
    return "refused"


@dataclass
class Seated:
    """A started Cheat table, the token of the seat on turn and a move it could make."""

    id: str
    token: str
    move: bytes


def seated(client: httpx.Client) -> Seated:
    created = client.post("/v1/games", json={"kind": "cheat", "seed": 3}).json()
    game = created["game"]["id"]
    tokens = [
        client.post(f"/v1/games/{game}/players", json={"name": name}).json()["token"]
        for name in ("Ilona", "Bence")
    ]
    started = client.post(f"/v1/games/{game}/start", headers=auth(created["host_token"]))
    turn = started.json()["turn"]
    hand = client.get(f"/v1/games/{game}", headers=auth(tokens[turn])).json()["me"]["hand"]
    move = json.dumps({"type": "play", "cards": hand[:1]}).encode()
    return Seated(game, tokens[turn], move)


@pytest.fixture(scope="module")
def client(service: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=30) as c:
        yield c


def version(client: httpx.Client, game: str) -> int:
    found: int = client.get(f"/v1/games/{game}").json()["version"]
    return found


COMMAND_HEADERS: dict[str, tuple[bytes, bytes, bytes]] = {
    # name: (header, before the value, after it)
    "Authorization": (b"Authorization", b"Bearer ", b""),
    "Authorization, the whole value": (b"Authorization", b"", b""),
    "If-Match": (b"If-Match", b'"', b'"'),
    "If-Match, bare": (b"If-Match", b"", b""),
    "Idempotency-Key": (b"Idempotency-Key", b"", b""),
    "Content-Type": (b"Content-Type", b"", b""),
    "Content-Type, a parameter": (b"Content-Type", b"application/json; charset=", b""),
    "Content-Length": (b"Content-Length", b"", b""),
}


@pytest.mark.parametrize("lane", ["the lane", "the framework"])
@pytest.mark.parametrize("header", list(COMMAND_HEADERS))
def test_a_hostile_command_header_is_a_4xx_and_changes_nothing(
    service: ServiceProcess, client: httpx.Client, clean_log: None, header: str, lane: str
) -> None:
    table = seated(client)
    name, before, after = COMMAND_HEADERS[header]
    tally: Counter[str] = Counter()
    for value in VALUES.values():
        if name == b"Idempotency-Key" and value in (b"-1", b"9" * 4000):
            continue  # these are keys (the long one is refused for its length below)
        headers = [
            (b"Authorization", f"Bearer {table.token}".encode()),
            (b"Content-Type", b"application/json"),
        ]
        headers = [h for h in headers if h[0] != name] + [(name, before + value + after)]
        if lane == "the framework":
            headers.append((b"Origin", ORIGIN))
        was = version(client, table.id)
        answer = exchange(
            service.port,
            http("POST", f"/v1/games/{table.id}/commands".encode(), headers, table.move),
        )
        judge(answer, tally)
        assert version(client, table.id) == was, (header, value)
    print(f"\n{lane}, {header}: {dict(tally)}")


QUERIES: dict[str, tuple[str, str]] = {
    # name: (route, parameter); none is ignored: an empty value is refused too
    "after, events": ("events", "after"),
    "wait, events": ("events", "wait"),
    "after, stream": ("stream", "after"),
    "token, stream": ("stream", "token"),
    "kind, lobby": ("lobby", "kind"),
    "status, lobby": ("lobby", "status"),
    "limit, lobby": ("lobby", "limit"),
    "offset, lobby": ("lobby", "offset"),
}


def _target(route: str, game: str, query: bytes) -> bytes:
    if route == "lobby":
        return b"/v1/games?" + query
    return f"/v1/games/{game}/{route}?".encode() + query


@pytest.mark.parametrize("raw", ["percent-encoded", "raw bytes"])
@pytest.mark.parametrize("query", list(QUERIES))
def test_a_hostile_query_value_is_a_4xx(
    service: ServiceProcess, client: httpx.Client, clean_log: None, query: str, raw: str
) -> None:
    table = seated(client)
    route, name = QUERIES[query]
    tally: Counter[str] = Counter()
    for value in VALUES.values():
        text = value if raw == "raw bytes" else quote_from_bytes(value, safe="").encode()
        target = _target(route, table.id, name.encode() + b"=" + text)
        judge(exchange(service.port, http("GET", target, [])), tally)
    print(f"\n{query}, {raw}: {dict(tally)}")


READ_HEADERS: dict[str, tuple[str, bytes, bytes]] = {
    # name: (route, header, before the value)
    "Authorization, view": ("view", b"Authorization", b"Bearer "),
    "Authorization, events": ("events", b"Authorization", b"Bearer "),
    "Authorization, stream": ("stream", b"Authorization", b"Bearer "),
    "Authorization, start": ("start", b"Authorization", b"Bearer "),
    "Authorization, house player": ("house-players", b"Authorization", b"Bearer "),
    "Last-Event-ID, stream": ("stream", b"Last-Event-ID", b""),
    "Content-Type, create": ("create", b"Content-Type", b""),
    "Content-Type, join": ("players", b"Content-Type", b""),
    "Content-Length, create": ("create", b"Content-Length", b""),
}


@pytest.mark.parametrize("header", list(READ_HEADERS))
def test_a_hostile_header_elsewhere_is_a_4xx_and_changes_nothing(
    service: ServiceProcess, client: httpx.Client, clean_log: None, header: str
) -> None:
    created = client.post("/v1/games", json={"kind": "thirty_one"}).json()
    game = created["game"]["id"]
    route, name, before = READ_HEADERS[header]
    tally: Counter[str] = Counter()
    lobby = client.get("/v1/games", params={"limit": 1}).json()["games"]
    for value in VALUES.values():
        headers = [(name, before + value)]
        method, target, body = "GET", f"/v1/games/{game}/{route}".encode(), b""
        if route == "view":
            target = f"/v1/games/{game}".encode()
        elif route == "create":
            method, target, body = "POST", b"/v1/games", b'{"kind": "cheat"}'
        elif route in ("players", "house-players"):
            method, body = "POST", b'{"name": "Ilona"}'
        elif route == "start":
            method = "POST"
        if body and name != b"Content-Type":
            headers.append((b"Content-Type", b"application/json"))
        was = version(client, game)
        judge(exchange(service.port, http(method, target, headers, body)), tally)
        assert version(client, game) == was, (header, value)
        if route == "create":
            assert client.get("/v1/games", params={"limit": 1}).json()["games"] == lobby
    print(f"\n{header}: {dict(tally)}")


@pytest.mark.parametrize("chunked", [False, True], ids=["with a length", "chunked"])
def test_a_body_over_the_limit_at_start_is_413_and_deals_nothing(
    client: httpx.Client, clean_log: None, chunked: bool
) -> None:
    """`start` takes no body, but reads what comes: 413 past `MAX_BODY_BYTES` (64 KiB here),
    announced or sent in chunks with no length, and the table stays open; a small body is
    ignored."""
    created = client.post("/v1/games", json={"kind": "cheat"}).json()
    game, host = created["game"]["id"], auth(created["host_token"])
    for name in ("Ilona", "Bence"):
        client.post(f"/v1/games/{game}/players", json={"name": name}).raise_for_status()

    def body(size: int) -> bytes | Iterator[bytes]:
        data = b"{" + b" " * size + b"}"
        if not chunked:
            return data
        return iter([data[at : at + 16_384] for at in range(0, len(data), 16_384)])

    headers = host | {"Content-Type": "application/json"}
    r = client.post(f"/v1/games/{game}/start", content=body(64 * 1024 * 20), headers=headers)
    assert (r.status_code, r.json()["code"]) == (413, "payload_too_large")
    assert ("transfer-encoding" in r.request.headers) is chunked
    assert client.get(f"/v1/games/{game}").json()["status"] == "open"
    r = client.post(f"/v1/games/{game}/start", content=body(10), headers=headers)
    assert r.status_code == 200 and r.json()["status"] == "playing", r.text


WEB_VALUES: dict[str, bytes] = VALUES | {
    # Dates no datetime can hold, and offsets no timezone can: a parser that reads them raises
    "a year of eleven digits": b"Fri, 31 Dec 99999999999 23:59:59 GMT",
    "a year of thirty digits": b"Fri, 31 Dec " + b"9" * 30 + b" 23:59:59 GMT",
    "an offset of a hundred hours": b"Fri, 31 Dec 9999 23:59:59 +9999",
    "the last second with the furthest offset": b"Fri, 31 Dec 9999 23:59:59 -2359",
    "the first day of year one": b"Mon, 01 Jan 0001 00:00:00 +2359",
    "year zero": b"Sat, 01 Jan 0000 00:00:00 GMT",
    "a negative year": b"Fri, 31 Dec -5 23:59:59 GMT",
    "the 99th of December": b"Fri, 99 Dec 2020 99:99:99 GMT",
    "a date as an integer": b"99999999999999999999",
    "a quoted tag": b'"' + b"f" * 32 + b'"',
    "a weak tag list": b'W/"a", W/"b", *',
    "a lone W/": b"W/",
    "a byte range past the end": b"bytes=99999999999999999999-",
    "a suffix range": b"bytes=-99999999999999999999",
    "many ranges": b"bytes=" + b",".join(b"%d-%d" % (i, i) for i in range(500)),
    "a range of another unit": b"lines=1-2",
}

WEB_HEADERS = [
    b"If-Modified-Since",
    b"If-Unmodified-Since",
    b"If-None-Match",
    b"If-Match",
    b"If-Range",
    b"Range",
    b"Accept-Encoding",
    b"Cache-Control",
]

WEB_FILES = {
    # name: the path (the web table's files, the docs pages and their assets, a missing file)
    "the web table's page": b"/",
    "its page by name": b"/index.html",
    "a script": b"/app.js",
    "a card": b"/cards/AH.svg",
    "a missing file": b"/nothing-here.js",
    "the docs page": b"/schema",
    "the document": b"/schema/openapi.json",
    "a docs asset": b"/schema/assets/favicon.svg",
}


@pytest.mark.parametrize("method", ["GET", "HEAD"])
@pytest.mark.parametrize("file", list(WEB_FILES))
def test_a_hostile_conditional_header_on_a_web_file_is_never_a_5xx(
    service: ServiceProcess, clean_log: None, file: str, method: str
) -> None:
    """Each conditional and range header, with each hostile value, on each kind of file the
    service serves outside the API: an answer (200, 206, 304) or a 4xx problem, never a 5xx."""
    tally: Counter[str] = Counter()
    for name in WEB_HEADERS:
        for value in WEB_VALUES.values():
            answer = exchange(service.port, http(method, WEB_FILES[file], [(name, value)]))
            if answer.status in (200, 206, 304, 416):
                tally[str(answer.status)] += 1
            elif method == "HEAD" and answer.body != PARSER_400:
                # a refusal without its body: its head says what it is
                assert 400 <= answer.status < 500, (name, value, answer.status)
                assert answer.headers[b"content-type"].startswith(b"application/problem+json")
                tally[str(answer.status)] += 1
            else:
                judge(answer, tally)
    print(f"\n{method} {file}: {dict(tally)}")


HOST_ROUTES = {
    # name: (method, target, body)
    "health": ("GET", b"/v1/health", b""),
    "the lobby": ("GET", b"/v1/games", b""),
    "create": ("POST", b"/v1/games", b'{"kind": "cheat"}'),
    "a command (the lane)": ("POST", b"/v1/games/0123456789abcdef/commands", b"{}"),
    "the web table": ("GET", b"/", b""),
    "the docs page": ("GET", b"/schema", b""),
    "mcp": ("POST", b"/mcp", b"{}"),
}


@pytest.mark.parametrize("route", list(HOST_ROUTES))
def test_a_hostile_host_is_a_4xx_and_makes_nothing(
    service: ServiceProcess, client: httpx.Client, clean_log: None, route: str
) -> None:
    """The `Host` itself with each hostile value (and as a second `Host`): a service on
    loopback serves the loopback names only, so each is refused before the route reads it."""
    method, target, body = HOST_ROUTES[route]
    lobby = client.get("/v1/games", params={"limit": 1}).json()["games"]
    tally: Counter[str] = Counter()
    for value in VALUES.values():
        for second in (False, True):
            request = http(method, target, [(b"Content-Type", b"application/json")], body)
            own = b"Host: 127.0.0.1\r\n"
            hostile = b"Host: " + value + b"\r\n"
            request = request.replace(own, own + hostile if second else hostile, 1)
            answer = exchange(service.port, request)
            judge(answer, tally)
    assert client.get("/v1/games", params={"limit": 1}).json()["games"] == lobby
    print(f"\n{route}: {dict(tally)}")
