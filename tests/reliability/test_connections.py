"""Connections and request heads, attacked from outside a real service process.

One address (127.0.0.2) opens 4,100 connections that send nothing, then 4,100 that send half a
request head, then holds its share as idle keep-alive connections and opens more: it keeps
`CONNECTIONS_PER_ADDRESS` of them, no more, while another address (127.0.0.3) checks health,
reads the lobby, creates a table and moves, each answered 2xx. Event streams and seat sockets
count toward the share; a full worker makes room from the address holding the most. A head that
never ends is closed at its deadline, a head over `MAX_HEAD_BYTES` is refused (431) before the
server has read it all, and every line the process writes meanwhile, uvicorn's own included, is
a JSON log line.
"""

from __future__ import annotations

import contextlib
import json
import resource
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from kronikas.config import Settings
from tests.api.tables import auth
from tests.conftest import ServiceProcess, serving

DEFAULTS = Settings()
ATTACK = 4_100
"""More connections than the old global cap (4,096) from one address."""
HEAD = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"
"""A request head without its closing empty line."""
DEFAULT_CAPS = {"CONNECTIONS_PER_ADDRESS": "", "MAX_CONNECTIONS": "", "MAX_HEAD_BYTES": ""}
""""": the setting's default, not the test suite's generous one."""


@pytest.fixture(scope="module")
def many_files() -> Iterator[None]:
    """Room for the attack's sockets in this process (and the service it starts)."""
    needed = ATTACK + 1_000
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < needed:
        pytest.skip(f"the hard limit on open files ({hard}) is below {needed}")
    if soft != resource.RLIM_INFINITY and soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (needed, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


@pytest.fixture(scope="module")
def guarded(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory, many_files: None
) -> Iterator[ServiceProcess]:
    """The service with its default caps; heads have all the time they want here (their
    deadline has its own test), so a connection the service keeps stays open."""
    log: Path = tmp_path_factory.mktemp("connections") / "service.log"
    with serving(redis_url, log, **DEFAULT_CAPS, HEAD_TIMEOUT_S="300") as service:
        yield service


def connect(service: ServiceProcess, source: str, send: bytes = b"") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", service.port))
    if send:
        with contextlib.suppress(OSError):  # a refused connection may be closed already
            sock.sendall(send)
    return sock


def answered(sock: socket.socket, rest: bytes) -> bool:
    """Whether the service answers the request `rest` completes on `sock` (with a 200); False
    when it had closed the connection."""
    try:
        sock.sendall(rest)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                return False
            data += chunk
    except OSError:  # reset: the connection was closed before the request came
        return False
    assert data.startswith(b"HTTP/1.1 200 "), data[:200]
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1])
        for line in head.lower().split(b"\r\n")
        if b"content-length" in line
    )
    while len(body) < length:
        body += sock.recv(65536)
    return True


def others_are_served(service: ServiceProcess) -> None:
    """127.0.0.3's health check, lobby read, create, joins, start and a move: each 2xx."""
    transport = httpx.HTTPTransport(local_address="127.0.0.3")
    with httpx.Client(base_url=service.url, transport=transport, timeout=30) as me:
        assert me.get("/v1/health").status_code == 200
        assert me.get("/v1/games").status_code == 200
        created = me.post("/v1/games", json={"kind": "cheat"})
        assert created.status_code == 201, created.text
        game, host = created.json()["game"]["id"], created.json()["host_token"]
        tokens = []
        for name in ("Ilona", "Bence"):
            joined = me.post(f"/v1/games/{game}/players", json={"name": name})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        started = me.post(f"/v1/games/{game}/start", headers=auth(host))
        assert started.status_code == 200, started.text
        turn = started.json()["turn"]
        view = me.get(f"/v1/games/{game}", headers=auth(tokens[turn]))
        assert view.status_code == 200, view.text
        moved = me.post(
            f"/v1/games/{game}/commands",
            json={"type": "play", "cards": view.json()["me"]["hand"][:1]},
            headers=auth(tokens[turn]),
        )
        assert moved.status_code == 200, moved.text


def test_one_address_keeps_its_share_of_connections_and_no_more(guarded: ServiceProcess) -> None:
    cap = DEFAULTS.connections_per_address
    request = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    # Idle sockets that send nothing.
    idle = [connect(guarded, "127.0.0.2") for _ in range(ATTACK)]
    try:
        others_are_served(guarded)
        kept = [sock for sock in idle if answered(sock, request)]
        assert len(kept) == cap, f"{len(kept)} of {ATTACK} idle connections kept"
        # Its share, now idle keep-alive connections: more from the address are refused.
        more = [connect(guarded, "127.0.0.2") for _ in range(100)]
        try:
            others_are_served(guarded)
            assert not any(answered(sock, request) for sock in more)
        finally:
            for sock in more:
                sock.close()
    finally:
        for sock in idle:
            sock.close()

    # Half heads.
    half = [connect(guarded, "127.0.0.5", HEAD) for _ in range(ATTACK)]
    try:
        others_are_served(guarded)
        kept = [sock for sock in half if answered(sock, b"\r\n")]
        assert len(kept) == cap, f"{len(kept)} of {ATTACK} half heads kept"
    finally:
        for sock in half:
            sock.close()


def test_a_full_worker_makes_room_from_the_address_holding_the_most(
    redis_url: str, tmp_path: Path
) -> None:
    cap = 16  # the least MAX_CONNECTIONS may be
    with serving(redis_url, tmp_path / "service.log", MAX_CONNECTIONS=str(cap)) as service:
        hoard = [connect(service, "127.0.0.2") for _ in range(cap)]
        try:
            others_are_served(service)  # each of its connections took the place of an idle one
            request = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            kept = [sock for sock in hoard if answered(sock, request)]
            assert 0 < len(kept) < cap, f"{len(kept)} of {cap} kept"
        finally:
            for sock in hoard:
                sock.close()


def test_streams_and_seat_sockets_count_toward_the_share(redis_url: str, tmp_path: Path) -> None:
    from websockets.sync.client import connect as open_socket

    request = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    env = {"CONNECTIONS_PER_ADDRESS": "3", "SOCKET_HELLO_S": "300"}
    with serving(redis_url, tmp_path / "service.log", **env) as service:
        created = httpx.post(f"{service.url}/v1/games", json={"kind": "cheat"})
        game = created.json()["game"]["id"]
        url = f"ws://127.0.0.1:{service.port}/v1/games/{game}/socket"
        transport = httpx.HTTPTransport(local_address="127.0.0.6")
        with (
            httpx.Client(base_url=service.url, transport=transport, timeout=30) as me,
            me.stream("GET", f"/v1/games/{game}/stream") as stream,
            open_socket(url, sock=connect(service, "127.0.0.6")),
        ):
            assert stream.status_code == 200
            with (
                open_socket(url, sock=connect(service, "127.0.0.6")),
                connect(service, "127.0.0.6") as fourth,
            ):
                assert not answered(fourth, request), "a stream and two sockets: 3 of 3"
            # The socket closed: its place comes back once the service has seen it close.
            deadline = time.monotonic() + 30
            while True:
                with connect(service, "127.0.0.6") as again:
                    if answered(again, request):
                        break
                assert time.monotonic() < deadline, "the closed socket's place never came back"
                time.sleep(0.05)


def test_a_trusted_proxy_is_not_held_to_an_addresss_share(redis_url: str, tmp_path: Path) -> None:
    """A proxy in `TRUSTED_PROXIES` carries every client's connections: it is exempt from
    `CONNECTIONS_PER_ADDRESS`, which still holds the address beside it."""
    request = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    env = {"CONNECTIONS_PER_ADDRESS": "2", "TRUSTED_PROXIES": "127.0.0.7/32"}
    with (
        serving(redis_url, tmp_path / "service.log", **env) as service,
        contextlib.ExitStack() as held,
    ):
        proxied = [held.enter_context(connect(service, "127.0.0.7")) for _ in range(6)]
        assert all(answered(sock, request) for sock in proxied), "the proxy was capped"
        direct = [held.enter_context(connect(service, "127.0.0.8")) for _ in range(3)]
        assert [answered(sock, request) for sock in direct] == [True, True, False]


def closed_by_service(sock: socket.socket) -> bytes:
    """What the service sent before it closed `sock` (the socket's timeout bounds the wait)."""
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := sock.recv(65536):
            data += chunk
    return data


def test_a_head_that_does_not_come_is_closed_at_its_deadline(
    redis_url: str, tmp_path: Path
) -> None:
    with serving(redis_url, tmp_path / "service.log", HEAD_TIMEOUT_S="1") as service:
        silent = connect(service, "127.0.0.2")
        half = connect(service, "127.0.0.2", HEAD)
        trickle = connect(service, "127.0.0.2", HEAD[:10])
        for sock in (silent, half, trickle):
            with sock:
                assert closed_by_service(sock) == b"", "closed, with nothing to say"
        # Kept alive: the next head begun behind a whole request in one read, or begun later.
        behind = connect(service, "127.0.0.2", HEAD + b"\r\n" + HEAD[:10])
        later = connect(service, "127.0.0.2")
        assert answered(later, HEAD + b"\r\n")
        later.sendall(HEAD[:10])
        with behind, later:
            assert closed_by_service(behind).startswith(b"HTTP/1.1 200 "), "the first answered"
            assert closed_by_service(later) == b""
        others_are_served(service)


def test_a_head_over_the_bound_is_refused_before_it_is_read(guarded: ServiceProcess) -> None:
    bound = DEFAULTS.max_head_bytes
    # A head just over the bound, sent whole: a 431 problem, and the connection closed.
    with connect(guarded, "127.0.0.4", HEAD + b"X-Big: " + b"a" * bound + b"\r\n\r\n") as sock:
        data = closed_by_service(sock)
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 431 "), head
    assert b"connection: close" in head.lower()
    assert b"content-type: application/problem+json" in head.lower()
    assert json.loads(body)["code"] == "request_head_too_large"
    # A head that never ends: the service closes the connection while it is still being sent.
    sent = 0
    total = 64 * 1024 * 1024
    with connect(guarded, "127.0.0.4", HEAD + b"X-Big: ") as sock:
        piece = b"a" * 65536
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            while sent < total:
                sock.sendall(piece)
                sent += len(piece)
        data = closed_by_service(sock)
    assert sent < total, "the service read the whole head"
    assert data == b"" or data.startswith(b"HTTP/1.1 431 "), data[:200]
    # The request line alone, over the bound.
    with connect(guarded, "127.0.0.4", b"GET /" + b"a" * bound + b" HTTP/1.1\r\n\r\n") as sock:
        assert closed_by_service(sock).startswith(b"HTTP/1.1 431 ")
    others_are_served(guarded)


def test_every_line_of_the_output_is_a_json_log_line(redis_url: str, tmp_path: Path) -> None:
    log = tmp_path / "service.log"
    with serving(redis_url, log, CONNECTIONS_PER_ADDRESS="2") as service:
        # uvicorn's own warning: an invalid request (a bare LF ends its line).
        with connect(service, "127.0.0.2", b"GET / HTTP/1.1\nHost: x\n\n") as sock:
            assert closed_by_service(sock).startswith(b"HTTP/1.1 400 ")
        # The guard's: a head over the bound, connections over the address's cap.
        with connect(
            service, "127.0.0.2", b"GET /" + b"a" * (64 * 1024) + b" HTTP/1.1\r\n\r\n"
        ) as s:
            closed_by_service(s)
        held = [connect(service, "127.0.0.2") for _ in range(3)]
        for sock in held:
            sock.close()
        service.stop()
    lines = log.read_text().splitlines()
    for line in lines:
        record = json.loads(line)
        assert {"at", "level", "logger", "msg"} <= set(record), line
    assert any("Invalid HTTP request" in line for line in lines), lines
    assert any("refused or closed" in line for line in lines), lines
