"""The names a service answers to (`ALLOWED_HOSTS`, docs/security.md), from outside: real service
processes on loopback, on all interfaces, and with names listed, asked by clients bound to their
own addresses for every kind of route with one `Host` after another.

A name the service does not serve is 421 `misdirected_request` on every route — the API (the
command lane included), the web table's files, the docs pages, an unknown path, `/mcp`, the seat
socket's upgrade — and changes nothing; a name it serves gets each route's own answer. A rebound
name sent as both `Host` and `Origin` no longer passes a socket upgrade as the service's own
origin on loopback or where names are listed.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import count
from pathlib import Path

import httpx
import pytest

from kronikas.config import Settings
from tests.api.tables import auth
from tests.conftest import ServiceProcess
from tests.mcp.initialize import initialize_request

LISTED = "cards.example, *.tables.example"

INITIALIZE = json.dumps(initialize_request()).encode()

ROUTES: dict[str, tuple[str, str, bytes, int]] = {
    # name: (method, target, body, the answer when the name is served)
    "health": ("GET", "/v1/health", b"", 200),
    "lobby": ("GET", "/v1/games?limit=1", b"", 200),
    "a table's view": ("GET", "/v1/games/{id}", b"", 200),
    "create": ("POST", "/v1/games", b'{"kind": "thirty_one"}', 201),
    "the web table": ("GET", "/", b"", 200),
    "a web file": ("GET", "/app.js", b"", 200),
    "the docs page": ("GET", "/schema", b"", 200),
    "the document": ("GET", "/schema/openapi.json", b"", 200),
    "a docs asset": ("GET", "/schema/assets/favicon.svg", b"", 200),
    "an unknown path": ("GET", "/nowhere", b"", 404),
    "mcp": ("POST", "/mcp", INITIALIZE, 200),
}

_sources = count(2)


def source() -> str:
    """A loopback address of its own for the next client (127.0.0.2, .3, ...)."""
    n = next(_sources)
    return f"127.0.{n // 250}.{n % 250 + 2}"


@dataclass
class Answer:
    status: int
    headers: dict[bytes, bytes]
    body: bytes


def ask(
    port: int,
    method: str,
    target: str,
    host: str | None,
    headers: list[tuple[str, str]] = (),  # type: ignore[assignment]
    body: bytes = b"",
    version: str = "1.1",
) -> Answer:
    """One request on a connection of its own, from an address of its own; an upgrade's
    answer is its head alone (a 101 goes on as a socket, which is closed)."""
    lines = [f"{method} {target} HTTP/{version}"]
    lines += [f"Host: {host}"] if host is not None else []
    lines += ["Connection: close"] if not any(k == "Upgrade" for k, _ in headers) else []
    lines += [f"{k}: {v}" for k, v in headers]
    if body or method == "POST":
        lines += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    with socket.create_connection(
        ("127.0.0.1", port), timeout=15, source_address=(source(), 0)
    ) as sock:
        sock.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
        head, _, rest = data.partition(b"\r\n\r\n")
        status = int(head.split(b"\r\n")[0].split()[1])
        found = {}
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            found[name.strip().lower()] = value.strip()
        if status == 101:
            return Answer(status, found, b"")
        size = int(found.get(b"content-length", b"-1"))
        while len(rest) != size:
            chunk = sock.recv(65536)
            if not chunk:
                break
            rest += chunk
        return Answer(status, found, rest)


def upgrade(port: int, game: str, host: str | None, origin: str | None = None) -> Answer:
    """A seat socket's upgrade request."""
    headers = [
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
        ("Sec-WebSocket-Version", "13"),
    ]
    headers += [("Origin", origin)] if origin is not None else []
    return ask(port, "GET", f"/v1/games/{game}/socket", host, headers)


def is_misdirected(answer: Answer) -> bool:
    if answer.status != 421:
        return False
    assert answer.headers[b"content-type"] == b"application/problem+json"
    problem = json.loads(answer.body)
    assert problem["code"] == "misdirected_request" and problem["status"] == 421
    return True


@dataclass
class Seated:
    """A started Cheat table: the token of the seat on turn, and a move it may send."""

    id: str
    token: str
    move: bytes


def seated(client: httpx.Client) -> Seated:
    created = client.post("/v1/games", json={"kind": "cheat"}).json()
    game = created["game"]["id"]
    tokens = [
        client.post(f"/v1/games/{game}/players", json={"name": name}).json()["token"]
        for name in ("Ilona", "Bence")
    ]
    started = client.post(f"/v1/games/{game}/start", headers=auth(created["host_token"]))
    turn = started.json()["turn"]
    hand = client.get(f"/v1/games/{game}", headers=auth(tokens[turn])).json()["me"]["hand"]
    return Seated(game, tokens[turn], json.dumps({"type": "play", "cards": hand[:1]}).encode())


def version(client: httpx.Client, game: str) -> int:
    found: int = client.get(f"/v1/games/{game}").json()["version"]
    return found


def lobby(client: httpx.Client) -> list[str]:
    return [g["id"] for g in client.get("/v1/games", params={"limit": 100}).json()["games"]]


def check(service: ServiceProcess, host: str | None, served: bool) -> None:
    """Every kind of route with `host` as the `Host`: each route's own answer when `served`,
    else 421 and nothing changed (the port is added to a name unless it has one)."""
    with httpx.Client(base_url=service.url, timeout=30) as client:
        table = seated(client)
        listed = lobby(client)
        for name, (method, target, body, status) in ROUTES.items():
            extra = [("Accept", "application/json, text/event-stream")] if name == "mcp" else []
            answer = ask(service.port, method, target.format(id=table.id), host, extra, body=body)
            if served:
                assert answer.status == status, (name, host, answer.status, answer.body[:200])
            else:
                assert is_misdirected(answer), (name, host, answer.status, answer.body[:200])
        was = version(client, table.id)
        move = ask(
            service.port,
            "POST",
            f"/v1/games/{table.id}/commands",
            host,
            [("Authorization", f"Bearer {table.token}")],
            table.move,
        )
        opened = upgrade(service.port, table.id, host)
        if served:
            assert move.status == 200, (host, move.status, move.body[:200])
            assert version(client, table.id) > was
            assert opened.status == 101, (host, opened.status, opened.body[:200])
        else:
            assert is_misdirected(move), (host, move.status)
            assert version(client, table.id) == was
            assert is_misdirected(opened), (host, opened.status)
            assert lobby(client) == listed, "a refused create made a table"


@contextlib.contextmanager
def started(redis_url: str, log: Path, **env: str) -> Iterator[ServiceProcess]:
    """A service process; started again on another port should its free port be taken by the
    time it listens (on all interfaces, a port free on 127.0.0.1 may be another's elsewhere)."""
    for attempt in range(5):
        try:
            service = ServiceProcess(redis_url, log, **env)
        except RuntimeError as exc:
            if "Address already in use" not in str(exc) or attempt == 4:
                raise
            continue
        try:
            yield service
        finally:
            service.stop()
        return


@pytest.fixture(scope="module")
def on_loopback(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("loopback") / "service.log"
    with started(redis_url, log, HOST="127.0.0.1") as service:
        yield service


@pytest.fixture(scope="module")
def on_all(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("all") / "service.log"
    with started(redis_url, log, HOST="0.0.0.0") as service:
        yield service


@pytest.fixture(scope="module")
def listed(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("listed") / "service.log"
    with started(redis_url, log, HOST="0.0.0.0", ALLOWED_HOSTS=LISTED) as service:
        yield service


@pytest.fixture(scope="module")
def any_name(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("any") / "service.log"
    with started(redis_url, log, HOST="127.0.0.1", ALLOWED_HOSTS="*") as service:
        yield service


@pytest.fixture(scope="module")
def behind_proxy(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServiceProcess]:
    """On loopback, behind a proxy on the same machine (`TRUSTED_PROXIES`), names unset."""
    log = tmp_path_factory.mktemp("proxied") / "service.log"
    with started(redis_url, log, HOST="127.0.0.1", TRUSTED_PROXIES="127.0.0.0/8") as service:
        yield service


REBOUND = ["evil.example", "127.0.0.1.evil.example", "localhost.evil.example"]
"""Names a page of another site could rebind to the service's address."""

NO_NAME = ["evil.example@127.0.0.1", "127.0.0.1/x", "[::1", "127.0.0.1:80:80", ""]
"""`Host` values that name no host (a user part, a path, half an address, two ports, nothing)."""


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "LOCALHOST.", "[::1]", "127.0.0.9"])
def test_on_loopback_the_loopback_names_are_served(on_loopback: ServiceProcess, host: str) -> None:
    check(on_loopback, f"{host}:{on_loopback.port}", served=True)


@pytest.mark.parametrize("host", [*REBOUND, *NO_NAME])
def test_on_loopback_any_other_name_is_421_on_every_route(
    on_loopback: ServiceProcess, host: str
) -> None:
    check(on_loopback, f"{host}:{on_loopback.port}" if host else host, served=False)


def test_on_loopback_a_request_without_a_host_is_421(on_loopback: ServiceProcess) -> None:
    answer = ask(on_loopback.port, "GET", "/v1/health", None, version="1.0")
    assert is_misdirected(answer), answer


def test_on_loopback_a_second_host_header_may_not_name_another(on_loopback: ServiceProcess) -> None:
    own = f"127.0.0.1:{on_loopback.port}"
    answer = ask(on_loopback.port, "GET", "/v1/health", own, [("Host", "evil.example")])
    assert is_misdirected(answer), answer


def test_on_loopback_a_rebound_name_is_no_longer_the_sockets_own_origin(
    on_loopback: ServiceProcess,
) -> None:
    with httpx.Client(base_url=on_loopback.url, timeout=30) as client:
        table = seated(client)
    rebound = f"evil.example:{on_loopback.port}"
    assert is_misdirected(upgrade(on_loopback.port, table.id, rebound, f"http://{rebound}"))
    own = f"127.0.0.1:{on_loopback.port}"
    assert upgrade(on_loopback.port, table.id, own, f"http://{own}").status == 101


@pytest.mark.parametrize("host", ["evil.example", "192.0.2.7", "localhost", None])
def test_on_all_interfaces_unset_any_name_is_served(on_all: ServiceProcess, host: str) -> None:
    if host is None:
        answer = ask(on_all.port, "GET", "/v1/health", None, version="1.0")
        assert answer.status == 200, answer
        return
    check(on_all, f"{host}:{on_all.port}", served=True)


@pytest.mark.parametrize(
    "host", ["cards.example", "Cards.Example.", "cards.example:443", "a.tables.example",
             "b.a.tables.example", "127.0.0.1", "localhost"],
)  # fmt: skip
def test_listed_names_and_loopback_are_served(listed: ServiceProcess, host: str) -> None:
    check(listed, host if ":" in host else f"{host}:{listed.port}", served=True)


@pytest.mark.parametrize(
    "host", ["tables.example", "evil.example", "cards.example.evil", "xcards.example",
             "atables.example", "192.0.2.7", *NO_NAME],
)  # fmt: skip
def test_a_name_not_listed_is_421_on_every_route(listed: ServiceProcess, host: str) -> None:
    check(listed, f"{host}:{listed.port}" if host else host, served=False)


def test_listed_the_sockets_own_origin_is_a_listed_name(listed: ServiceProcess) -> None:
    with httpx.Client(base_url=listed.url, timeout=30) as client:
        table = seated(client)
    assert upgrade(listed.port, table.id, "cards.example", "https://cards.example").status == 101
    assert is_misdirected(upgrade(listed.port, table.id, "evil.example", "http://evil.example"))
    refused = upgrade(listed.port, table.id, "cards.example", "http://evil.example")
    assert refused.status == 403


@pytest.mark.parametrize(
    "value", ["https://cards.example", "cards.example:8000", "cards.example/x", "a b", "[zz::1]"]
)
def test_a_listed_value_that_is_no_host_name_stops_the_service_starting(value: str) -> None:
    with pytest.raises(ValueError, match="ALLOWED_HOSTS"):
        Settings.from_env({"ALLOWED_HOSTS": f"cards.example, {value}"})


def test_listed_names_are_read_as_a_host_sends_them() -> None:
    read = Settings.from_env({"ALLOWED_HOSTS": " Cards.Example. ,*.Tables.Example,[2001:DB8::1]"})
    assert read.allowed_hosts == ("cards.example", "*.tables.example", "2001:db8::1")


def test_a_refusal_names_its_request(on_loopback: ServiceProcess) -> None:
    answer = ask(on_loopback.port, "GET", "/v1/health", "evil.example")
    assert is_misdirected(answer)
    assert answer.headers[b"x-request-id"] == json.loads(answer.body)["request_id"].encode()


@pytest.mark.parametrize("host", ["evil.example", "cards.example", "192.0.2.7", "localhost"])
def test_listed_as_any_every_name_is_served_even_on_loopback(
    any_name: ServiceProcess, host: str
) -> None:
    check(any_name, f"{host}:{any_name.port}", served=True)


@pytest.mark.parametrize("host", ["evil.example", "cards.example", "127.0.0.1"])
def test_on_loopback_behind_a_trusted_proxy_unset_any_name_is_served(
    behind_proxy: ServiceProcess, host: str
) -> None:
    check(behind_proxy, f"{host}:{behind_proxy.port}", served=True)
