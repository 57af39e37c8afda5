"""The seat socket's text frames, written by the service's own protocol while the socket is open
(api/ws_protocol.py, `text_frame`): byte for byte what websockets' own server writes, at every
length form (7, 16 and 64 bits) and on both sides of each bound, as a client parses them."""

from __future__ import annotations

import pytest
from websockets.frames import TEXT, Frame
from websockets.protocol import OPEN
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from kronikas.api.ws_protocol import text_frame


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
