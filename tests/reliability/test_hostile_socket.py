"""Hostile bytes in every value the seat socket reads, sent to a running service.

The handshake's headers and query (raw, on their own connection: the socket either opens and
serves as any other, or the handshake is refused with a 4xx, never a 5xx), and the values of
`hello` and `command` (each closes the socket with its documented code, or is answered with an
`invalid_request` problem and leaves the table as it was; never 1011, never a traceback). The
values are test_hostile_bytes' own: digits that are not ASCII, control bytes, empty and
over-long values.
"""

from __future__ import annotations

import json
import socket
import struct
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from urllib.parse import quote_from_bytes

import httpx
import pytest
from websockets.frames import Frame, Opcode

from tests.conftest import ServiceProcess, serving
from tests.reliability.test_hostile_bytes import VALUES, Seated, seated
from tests.socket.wire import answer, closed, greeted, next_of, opened, say

ENV = {
    "TRUSTED_PROXIES": "127.0.0.1",
    "READ_LIMIT_PER_S": "1000000",
    "READ_LIMIT_BURST": "1000000",
    "RATE_LIMIT_PER_S": "100000",
    "RATE_LIMIT_BURST": "1000000",
}
"""The loopback peer is a trusted proxy (the socket reads `X-Forwarded-For` for its client), and
the rates are out of the way: every socket here comes from one address, quickly."""

KEY = b"dGhlIHNhbXBsZSBub25jZQ=="


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("hostile-socket") / "service.log"
    with serving(redis_url, log, **ENV) as server:
        yield server


@pytest.fixture
async def table(service: ServiceProcess) -> AsyncIterator[Seated]:
    with httpx.Client(base_url=service.url, timeout=30) as client:
        yield seated(client)


def _frame(text: bytes) -> bytes:
    """A client's (masked) text frame."""
    return Frame(Opcode.TEXT, text).serialize(mask=True, extensions=[])


def _read_exactly(sock: socket.socket, size: int, data: bytearray) -> bytes:
    while len(data) < size:
        chunk = sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed")
        data += chunk
    out = bytes(data[:size])
    del data[:size]
    return out


def _server_frame(sock: socket.socket, data: bytearray) -> tuple[int, bytes]:
    """The next frame the server sends (never masked): its opcode and payload."""
    first, second = _read_exactly(sock, 2, data)
    size = second & 0x7F
    if size == 126:
        (size,) = struct.unpack("!H", _read_exactly(sock, 2, data))
    elif size == 127:
        (size,) = struct.unpack("!Q", _read_exactly(sock, 8, data))
    return first & 0x0F, _read_exactly(sock, size, data)


def handshake(port: int, target: bytes, headers: list[tuple[bytes, bytes]]) -> int | str:
    """An upgrade with `headers` replacing the standard ones of the same names. A refusal is its
    status (a 5xx fails the test); an opened socket says `hello` as a spectator and must be
    welcomed: then "welcomed"."""
    standard = [
        (b"Host", b"127.0.0.1"),
        (b"Upgrade", b"websocket"),
        (b"Connection", b"Upgrade"),
        (b"Sec-WebSocket-Key", KEY),
        (b"Sec-WebSocket-Version", b"13"),
    ]
    names = {name.lower() for name, _ in headers}
    lines = [b"GET %s HTTP/1.1" % target]
    lines += [b"%s: %s" % h for h in standard if h[0].lower() not in names]
    lines += [b"%s: %s" % h for h in headers]
    with socket.create_connection(("127.0.0.1", port), timeout=15) as sock:
        sock.sendall(b"\r\n".join(lines) + b"\r\n\r\n")
        data = bytearray()
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                raise AssertionError(f"no answer to the handshake: {bytes(data)!r}")
            data += chunk
        head, _, rest = bytes(data).partition(b"\r\n\r\n")
        status = int(head.split(b"\r\n")[0].split()[1])
        assert status < 500, (status, head, rest[:300])
        if status != 101:
            assert 400 <= status < 500, (status, head)
            return status
        buffer = bytearray(rest)
        sock.sendall(_frame(b'{"type":"hello","token":null}'))
        opcode, payload = _server_frame(sock, buffer)
        assert opcode == Opcode.TEXT.value, (opcode, payload[:300])
        assert json.loads(payload)["type"] == "welcome", payload[:300]
        return "welcomed"


HANDSHAKE_HEADERS = [
    b"X-Forwarded-For",
    b"Forwarded",
    b"Origin",
    b"Sec-WebSocket-Protocol",
    b"Sec-WebSocket-Extensions",
    b"Sec-WebSocket-Version",
    b"Sec-WebSocket-Key",
    b"Cookie",
    b"Authorization",
]


@pytest.mark.parametrize("header", HANDSHAKE_HEADERS, ids=lambda h: h.decode())
def test_a_hostile_handshake_header_opens_a_working_socket_or_is_a_4xx(
    service: ServiceProcess, table: Seated, clean_log: None, header: bytes
) -> None:
    tally: Counter[int | str] = Counter()
    target = f"/v1/games/{table.id}/socket".encode()
    for value in VALUES.values():
        tally[handshake(service.port, target, [(header, value)])] += 1
    print(f"\n{header.decode()}: {dict(tally)}")


@pytest.mark.parametrize("raw", ["percent-encoded", "raw bytes"])
@pytest.mark.parametrize("name", [b"after", b"token", b"views"], ids=lambda n: n.decode())
def test_a_hostile_query_value_on_the_socket_is_ignored_or_a_4xx(
    service: ServiceProcess, table: Seated, clean_log: None, name: bytes, raw: str
) -> None:
    """The socket reads nothing from its query (the token is never in the URL)."""
    tally: Counter[int | str] = Counter()
    for value in VALUES.values():
        text = value if raw == "raw bytes" else quote_from_bytes(value, safe="").encode()
        target = f"/v1/games/{table.id}/socket?".encode() + name + b"=" + text
        tally[handshake(service.port, target, [])] += 1
    print(f"\n{name.decode()}, {raw}: {dict(tally)}")
    if raw == "percent-encoded":
        assert tally == {"welcomed": len(VALUES)}, "a query the socket does not read stopped it"


def _text(value: bytes) -> str:
    """The value as characters: as UTF-8 when it is, else each byte its Latin-1 character."""
    try:
        return value.decode()
    except UnicodeDecodeError:
        return value.decode("latin-1")


def _an_id(text: str) -> bool:
    """Whether `text` is a valid command `id` (1 to 128 printable ASCII characters)."""
    return 1 <= len(text) <= 128 and all("!" <= c <= "~" for c in text)


async def test_a_hostile_token_in_hello_closes_4401_or_4400(
    service: ServiceProcess, table: Seated, clean_log: None
) -> None:
    tally: Counter[tuple[int, str]] = Counter()
    for value in VALUES.values():
        for token in (_text(value), "seat_" + _text(value), table.token + _text(value)):
            if token == table.token:
                continue  # the empty value after the real token
            async with opened(service.url, table.id) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                code = await closed(ws)
            assert code in ((4401, "unauthorized"), (4400, "bad_hello")), (value, code)
            tally[code] += 1
    print(f"\ntoken: {dict(tally)}")


@pytest.mark.parametrize("field", ["after", "views", "token"])
async def test_a_hostile_raw_value_in_hello_closes_4400(
    service: ServiceProcess, table: Seated, clean_log: None, field: str
) -> None:
    """The bytes as they come, in place of a JSON value: never a valid `hello`."""
    for value in VALUES.values():
        text = f'{{"type":"hello","{field}":{_text(value)}}}'
        async with opened(service.url, table.id) as ws:
            await ws.send(text)
            assert await closed(ws) == (4400, "bad_hello"), value


@pytest.mark.parametrize("field", ["id", "if_match", "command"])
async def test_a_hostile_command_value_is_an_invalid_request_and_changes_nothing(
    service: ServiceProcess, table: Seated, clean_log: None, field: str
) -> None:
    move = table.move.decode()
    was = await _version(service, table.id)
    async with greeted(service.url, table.id, table.token, was) as (ws, _):
        for n, value in enumerate(VALUES.values()):
            text = _text(value)
            parts = {"id": json.dumps(f"k{n}"), "if_match": str(was), "command": move}
            raw = dict(parts, **{field: text})  # the bytes as they come
            quoted = dict(parts, **{field: json.dumps(text)})  # the same as a JSON string
            for fields in (raw, quoted):
                if field == "id" and fields is quoted and _an_id(text):
                    continue  # a valid id: the move would be made (as HTTP's test skips it)
                body = ",".join(f'"{k}":{v}' for k, v in fields.items())
                await ws.send('{"type":"command",' + body + "}")
                problem = await answer(ws)
                assert problem["type"] == "problem", (field, value, problem)
                assert problem["problem"]["code"] == "invalid_request", problem
                assert problem["problem"]["status"] == 422, problem
                assert len(json.dumps(problem)) < 2048, "a problem must not echo a large input"
            assert await _version(service, table.id) == was, (field, value)
        await say(ws, {"type": "ping"})
        assert await next_of(ws, "pong") == {"type": "pong"}


async def _version(service: ServiceProcess, game_id: str) -> int:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        found: int = (await client.get(f"/v1/games/{game_id}")).json()["version"]
        return found
