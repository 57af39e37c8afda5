"""The seat socket's protocol (api/ws_protocol.py) at the level of its bytes: the text frames it
writes itself while the socket is open (`text_frame`), byte for byte what websockets' own server
writes, at every length form (7, 16 and 64 bits) and on both sides of each bound, as a client
parses them; and its inbox, which stops the connection being read once it holds `INBOX_PAUSE`
messages the application has not taken, until it has taken them all."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.frames import TEXT, Frame
from websockets.protocol import OPEN
from websockets.server import ServerProtocol
from websockets.speedups import apply_mask
from websockets.streams import StreamReader

from kronikas.api.ws_protocol import INBOX_PAUSE, SeatSocketProtocol, text_frame


def websockets_frame(data: bytes) -> bytes:
    """The frame websockets' server protocol writes for a text message of `data`."""
    server = ServerProtocol()
    server.state = OPEN
    server.send_text(data)
    return b"".join(server.data_to_send())


@pytest.mark.parametrize("size", [0, 1, 125, 126, 127, 65535, 65536, 70000])
def test_a_text_frame_is_what_websockets_writes_and_what_a_client_reads(size: int) -> None:
    data = ("é" * (size // 2) + "a" * (size % 2)).encode()  # two bytes each, and one
    assert len(data) == size
    frame = text_frame(data)
    assert frame == websockets_frame(data)
    reader = StreamReader()
    reader.feed_data(frame)
    parsing = Frame.parse(reader.read_exact, mask=False)
    try:
        next(parsing)
    except StopIteration as done:
        parsed = done.value
    else:  # pragma: no cover - the whole frame was fed
        raise AssertionError("the frame was cut short")
    assert (parsed.opcode, parsed.fin, bytes(parsed.data)) == (TEXT, True, data)


class Transport(asyncio.Transport):
    """A connection's transport that keeps what is written and counts pauses of its reading."""

    def __init__(self) -> None:
        super().__init__()
        self.written: list[bytes] = []
        self.paused = self.resumed = 0
        self.closed = False

    def write(self, data: Any) -> None:
        self.written.append(bytes(data))

    def pause_reading(self) -> None:
        self.paused += 1

    def resume_reading(self) -> None:
        self.resumed += 1

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.2", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


def client_frame(data: bytes, opcode: int = 0x81) -> bytes:
    """A client's frame: masked, as RFC 6455 requires of clients."""
    mask = os.urandom(4)
    return bytes((opcode, 0x80 | len(data))) + mask + apply_mask(data, mask)


class Opened:
    """A socket opened on the protocol, whose application takes a message when asked."""

    def __init__(self) -> None:
        self.take: asyncio.Queue[None] = asyncio.Queue()
        self.taken: list[Any] = []
        self.sends: asyncio.Queue[str] = asyncio.Queue()
        self.transport = Transport()
        config = Config(self.app, ws="websockets-sansio", ws_ping_interval=None, interface="asgi3")
        config.load()
        self.protocol = SeatSocketProtocol(config=config, server_state=ServerState(), app_state={})

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        await receive()  # the connect
        await send({"type": "websocket.accept"})
        try:
            while True:
                sending = asyncio.ensure_future(self.sends.get())
                taking = asyncio.ensure_future(self.take.get())
                done, _ = await asyncio.wait({sending, taking}, return_when=asyncio.FIRST_COMPLETED)
                for pending in (sending, taking):
                    if pending not in done:
                        pending.cancel()
                if sending in done:
                    await send({"type": "websocket.send", "text": sending.result()})
                if taking in done:
                    self.taken.append(await receive())
        except asyncio.CancelledError:
            return  # the connection lost at the test's end

    async def settle(self) -> None:
        for _ in range(20):
            await asyncio.sleep(0)


@pytest.fixture
async def opened() -> AsyncIterator[Opened]:
    socket = Opened()
    socket.protocol.connection_made(socket.transport)
    socket.protocol.data_received(
        b"GET /v1/games/x/socket HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    await socket.settle()
    assert socket.protocol.handshake_complete
    yield socket
    socket.protocol.connection_lost(None)
    await socket.settle()


async def test_the_inbox_holds_a_few_messages_before_the_connection_stops_being_read(
    opened: Opened,
) -> None:
    assert INBOX_PAUSE == 2, "docs/api.md: at most two received messages wait"
    protocol, transport = opened.protocol, opened.transport
    sent = [f'{{"n":{n}}}' for n in range(INBOX_PAUSE)]
    for text in sent[:-1]:  # a seat's command (and a ping beside it): read on
        protocol.data_received(client_frame(text.encode()))
    assert (transport.paused, protocol.queue.qsize()) == (0, INBOX_PAUSE - 1)
    protocol.data_received(client_frame(sent[-1].encode()))
    assert transport.paused == 1, "at the bound, the connection is no longer read"
    for _ in sent:
        assert transport.resumed == 0, "not while the inbox holds a message"
        opened.take.put_nowait(None)
        await opened.settle()
    assert transport.resumed == 1, "read again once the application took them all"
    assert [m["text"] for m in opened.taken] == sent


async def test_each_message_sent_while_open_is_one_frame_a_client_reads(opened: Opened) -> None:
    before = len(opened.transport.written)
    for text in ('{"type":"pong"}', "é" * 100):
        opened.sends.put_nowait(text)
        await opened.settle()
    frames = opened.transport.written[before:]
    assert frames == [text_frame(b'{"type":"pong"}'), text_frame(("é" * 100).encode())]


async def test_a_text_message_that_is_not_utf8_closes_the_socket_with_1007(
    opened: Opened,
) -> None:
    opened.protocol.data_received(client_frame(b"\xff\xfe"))
    await opened.settle()
    assert opened.transport.written[-1][:4] == b"\x88\x02\x03\xef", "a close frame, 1007"
    queued = opened.protocol.queue.items  # type: ignore[attr-defined]
    assert [m["type"] for m in queued] == ["websocket.disconnect"], "nothing received"
