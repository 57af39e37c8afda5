"""What `OUTBOX_BYTES` counts of a connection (api/sse.py, `Outlet`), over a real loopback TCP
connection whose reader reads when the test says: the bytes its transport holds besides what is
left of the message in flight, so that a message larger than the bound is not held against a
reader while it reads it, and everything behind it is."""

from __future__ import annotations

import asyncio
import socket

from kronikas.api.sse import Outlet

BIG = 1_000_000
SMALL = 1000


class Connection(asyncio.Protocol):
    """The server's side: as uvicorn's protocols, `send` is a method of the object holding the
    transport (which is how `Outlet` reaches it)."""

    def __init__(self, made: asyncio.Future[Connection]) -> None:
        self.made = made
        self.transport: asyncio.WriteTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        self.transport = transport
        self.made.set_result(self)

    async def send(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(data)


async def read(loop: asyncio.AbstractEventLoop, sock: socket.socket, count: int) -> None:
    while count > 0:
        got = await loop.sock_recv(sock, min(count, 1 << 16))
        assert got, "the connection ended"
        count -= len(got)


async def test_the_bound_counts_what_waits_behind_the_message_in_flight_until_it_is_read() -> None:
    loop = asyncio.get_running_loop()
    made: asyncio.Future[Connection] = loop.create_future()
    server = await loop.create_server(lambda: Connection(made), "127.0.0.1", 0)
    reader = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reader.setblocking(False)
    try:
        await loop.sock_connect(reader, server.sockets[0].getsockname())
        connection = await made
        outlet = Outlet(connection.send)

        await connection.send(b"x" * BIG)
        held = outlet.took(BIG)
        assert 0 < held <= BIG and outlet.in_flight() == held  # the kernel took the rest
        for _ in range(10):
            await connection.send(b"y" * SMALL)
            outlet.took(SMALL)
        assert outlet.waiting() - outlet.in_flight() == 10 * SMALL

        await read(loop, reader, BIG // 2)  # the reader reads: its message shrinks, not the rest
        assert 0 < outlet.in_flight() < held
        assert outlet.waiting() - outlet.in_flight() == 10 * SMALL

        await read(loop, reader, BIG // 2 + 10 * SMALL)  # all of it: nothing waits
        assert outlet.waiting() == outlet.in_flight() == 0
    finally:
        reader.close()
        server.close()
