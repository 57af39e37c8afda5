"""The bundled redis-server that `make run` and the tests start: a port taken before it binds."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from kronikas.adapters.embedded_redis import EmbeddedRedis


def taken_port() -> tuple[socket.socket, int]:
    """A loopback port something else listens on, and that listener."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    return listener, listener.getsockname()[1]


def test_a_picked_port_taken_before_the_server_binds_it_is_replaced(tmp_path: Path) -> None:
    listener, port = taken_port()
    server = EmbeddedRedis(tmp_path)
    server.port = port  # as if another process took the free port `free_port` found
    try:
        server.start()
        assert server.port != port
        assert server.ping()
    finally:
        server.stop()
        listener.close()


def test_a_port_asked_for_that_is_taken_fails_the_start_saying_why(tmp_path: Path) -> None:
    listener, port = taken_port()
    try:
        with pytest.raises(RuntimeError, match="Address already in use"):
            EmbeddedRedis(tmp_path, port).start()
    finally:
        listener.close()
