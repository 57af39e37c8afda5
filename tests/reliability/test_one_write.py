"""An answer of known length goes out head and body together (`connections.OneWrite`): what a
client sees is unchanged — pipelined requests on one kept-alive connection, a HEAD among them
(its head alone), a `100 Continue` before a body, a move's answer — each answered whole, in
order, and the connection still serves the next request."""

from __future__ import annotations

import json
import socket

import httpx

from tests.conftest import ServiceProcess


def _answers(
    sock: socket.socket, count: int, heads: set[int], data: bytes = b""
) -> list[tuple[int, bytes]]:
    """Read `count` answers from a kept-alive connection (the ones at indexes `heads` answer a
    HEAD: no body follows theirs; a `100 Continue` is skipped), `data` read already: (status,
    body) each."""
    found: list[tuple[int, bytes]] = []
    while len(found) < count:
        end = data.find(b"\r\n\r\n")
        if end >= 0:
            head = data[:end].decode("latin-1").split("\r\n")
            status = int(head[0].split()[1])
            fields = dict(line.split(": ", 1) for line in head[1:])
            length = 0 if len(found) in heads or status == 100 else int(fields["content-length"])
            if len(data) >= end + 4 + length:
                body = data[end + 4 : end + 4 + length]
                data = data[end + 4 + length :]
                if status != 100:
                    found.append((status, body))
                continue
        chunk = sock.recv(65536)
        assert chunk, f"the connection closed after {len(found)} answers"
        data += chunk
    return found


def test_pipelined_requests_and_a_head_are_each_answered_whole(service: ServiceProcess) -> None:
    requests = (
        b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        b"HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        b"GET /v1/kinds HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    )
    with socket.create_connection(("127.0.0.1", service.port), timeout=15) as sock:
        sock.sendall(requests)
        (health, ok), (page, empty), (kinds, listed) = _answers(sock, 3, heads={1})
        assert (health, json.loads(ok)) == (200, {"status": "ok"})
        assert (page, empty) == (200, b"")
        assert kinds == 200 and "kinds" in json.loads(listed)
        sock.sendall(b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")  # still open
        assert _answers(sock, 1, heads=set())[0][0] == 200


def test_a_body_after_100_continue_and_a_move_are_answered_whole(
    service: ServiceProcess,
) -> None:
    body = b'{"kind": "cheat", "options": {}}'
    create = (
        b"POST /v1/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Expect: 100-continue\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    with socket.create_connection(("127.0.0.1", service.port), timeout=15) as sock:
        sock.sendall(create)
        sock.sendall(body)  # uvicorn sends `100 Continue` as the body is asked for: both come
        status, created = _answers(sock, 1, heads=set())[0]
    assert status == 201
    game = json.loads(created)["game"]
    with httpx.Client(base_url=service.url, timeout=15) as client:
        joined = [client.post(f"/v1/games/{game['id']}/players", json={"name": n}) for n in "AB"]
        host = json.loads(created)["host_token"]
        started = client.post(
            f"/v1/games/{game['id']}/start", headers={"Authorization": f"Bearer {host}"}
        )
        assert started.status_code == 200
        view = started.json()
        turn = view["turn"]
        token = joined[turn].json()["token"]
        mine = client.get(
            f"/v1/games/{game['id']}", headers={"Authorization": f"Bearer {token}"}
        ).json()
    move = json.dumps({"type": "play", "cards": mine["me"]["hand"][:1]}).encode()
    request = (
        b"POST /v1/games/%b/commands HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Authorization: Bearer %b\r\nContent-Type: application/json\r\n"
        b"Content-Length: %d\r\n\r\n%b" % (game["id"].encode(), token.encode(), len(move), move)
    )
    with socket.create_connection(("127.0.0.1", service.port), timeout=15) as sock:
        sock.sendall(request + request)  # the second, the same move again: refused, whole
        (moved, result), (again, refusal) = _answers(sock, 2, heads=set())
    assert moved == 200 and json.loads(result)["version"] > view["version"]
    assert again == 409 and json.loads(refusal)["code"]
