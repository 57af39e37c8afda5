"""The bench's HTTP/1.1 client: one keep-alive connection, just enough client to go fast.

Every workload sets its tables up through it (benchmarks/commands.py drives its commands on it);
benchmarks/follow.py cuts its answers with `cut_answer` too.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

_decode = msgspec.json.decode
_encode = msgspec.json.encode


def cut_answer(buffer: bytearray) -> tuple[int, bytes] | None:
    """The status and body of the first whole HTTP/1.1 answer in `buffer`, cut out of it; None
    while it has not all arrived (answers here always carry Content-Length)."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    head = bytes(buffer[:end]).lower()
    at = head.find(b"content-length:")
    stop = head.find(b"\r\n", at)
    length = int(head[at + 15 : stop if stop >= 0 else None]) if at >= 0 else 0
    if len(buffer) < end + 4 + length:
        return None
    body = bytes(buffer[end + 4 : end + 4 + length])
    del buffer[: end + 4 + length]
    return int(head[9:12]), body


class Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection: just enough client to go fast.

    A protocol rather than a stream pair: the answer is cut out of the bytes as they arrive,
    with no reader task in between, so that the generator spends as little of the machine as it
    can (it shares the cores with the server and Redis).
    """

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport
        self.buffer = bytearray()
        self.answer: asyncio.Future[tuple[int, bytes]] | None = None

    async def open(self) -> Connection:
        loop = asyncio.get_running_loop()
        self.transport, _ = await loop.create_connection(lambda: self, "127.0.0.1", self.port)
        return self

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if self.answer is None or (cut := cut_answer(self.buffer)) is None:
            return
        answer, self.answer = self.answer, None
        answer.set_result(cut)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.answer is not None and not self.answer.done():
            self.answer.set_exception(exc or ConnectionResetError("the service closed"))

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        token: str | None = None,
        answer: msgspec.json.Decoder[Any] | None = None,
    ) -> tuple[int, Any]:
        """One request; the answer decoded by `answer` (only the fields the script reads)."""
        payload = b"" if body is None else _encode(body)
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(payload)}\r\n"
        if payload:
            head += "Content-Type: application/json\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        self.answer = asyncio.get_running_loop().create_future()
        self.transport.write(head.encode() + b"\r\n" + payload)
        status, data = await self.answer
        if not data:
            return status, None
        if status >= 400 or answer is None:
            return status, _decode(data)
        return status, answer.decode(data)

    def close(self) -> None:
        self.transport.close()
