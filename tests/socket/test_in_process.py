"""The seat socket in-process (Litestar's test client): what a real network cannot show on cue.

A client that stops reading: the server's sends wait, what follows queues up to
`SOCKET_BACKLOG` messages, and one more closes the socket 4508 (nothing more is kept for it). The
app's shutdown closes its sockets 1001. A server that cannot answer an upgrade with a problem
closes a foreign page's socket 1008. And the OpenAPI document describes every message.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio
import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import AsyncTestClient, WebSocketTestSession
from litestar.testing import transport as test_transport

from kronikas.api.app import create_app
from kronikas.api.openapi import export
from kronikas.api.socket_route import close_all
from kronikas.api.ws_protocol import SeatSocketProtocol, protocol
from kronikas.config import Settings
from tests.api.tables import Tables, move
from tests.apps import ENGINES, Client, settings

BACKLOG = 3


class Stalling(WebSocketTestSession):
    """A test session whose client stops reading while `stalled` is set: the app's sends of
    messages wait (its close does not)."""

    stalled = threading.Event()

    async def do_asgi_call(self) -> None:
        async def receive() -> Any:
            while self.receive_queue.empty():
                await anyio.sleep(0.001)
            return self.receive_queue.get()

        async def send(message: Any) -> None:
            while self.stalled.is_set() and message["type"] == "websocket.send":
                await anyio.sleep(0.005)
            self.send_queue.put(message)

        try:
            await self.client.app(self.scope, receive, send)
        except BaseException as exc:
            self.send_queue.put(exc)
            raise


@pytest.fixture
async def app_client(redis_url: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Client]:
    monkeypatch.setattr(test_transport, "WebSocketTestSession", Stalling)
    Stalling.stalled.clear()
    app = create_app(
        settings(redis_url, socket_backlog=BACKLOG, socket_heartbeat_s=60), games=ENGINES
    )
    async with AsyncTestClient(app) as client:
        yield client


def received(ws: WebSocketTestSession) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.receive_text(timeout=10))
    return message


async def test_a_slow_reader_is_closed_past_the_backlog(app_client: Client) -> None:
    rng = random.Random(5)
    tables = Tables(app_client)
    table = await tables.ready("cheat", 3, seed=5)
    now = (await tables.view(table))["version"]
    ws = await app_client.websocket_connect(f"/v1/games/{table.id}/socket")
    with ws:
        ws.send_json({"type": "hello", "after": now})
        assert received(ws)["type"] == "welcome"
        version = (await move(tables, table, rng))["version"]
        pushed = received(ws)
        assert pushed["type"] == "events" and pushed["version"] == version
        Stalling.stalled.set()  # the client reads no more
        # one message waits in a send, BACKLOG behind it; one more is one too many
        for _ in range(1 + BACKLOG + 1):
            await move(tables, table, rng)
        Stalling.stalled.clear()
        with pytest.raises(WebSocketDisconnect) as gone:
            received(ws)  # what waited behind the send was dropped: the close comes next
        assert (gone.value.code, gone.value.detail) == (4508, "slow_reader")


async def test_the_app_shutting_down_closes_its_sockets_1001(app_client: Client) -> None:
    table = await Tables(app_client).ready("thirty_one", 2)
    ws = await app_client.websocket_connect(f"/v1/games/{table.id}/socket")
    with ws:
        ws.send_json({"type": "hello", "token": table.players[0]})
        assert received(ws)["type"] == "welcome"
        app_client.blocking_portal.call(close_all, app_client.app.state.sockets)
        with pytest.raises(WebSocketDisconnect) as gone:
            while True:
                received(ws)
        assert (gone.value.code, gone.value.detail) == (1001, "going_away")


async def test_a_server_that_cannot_answer_an_upgrade_closes_a_foreign_page_1008(
    redis_url: str,
) -> None:
    """Litestar's test client, like a server without the ASGI denial-response extension,
    cannot carry a 403 answer to an upgrade: a foreign page's socket is accepted by no one and
    closed 1008 `forbidden` (the server's plain refusal), while the service's own page opens."""
    app = create_app(settings(redis_url, cors_origins=("https://frontend.example",)), games=ENGINES)
    async with AsyncTestClient(app) as client:
        table = await Tables(client).ready("thirty_one", 2)
        path = f"/v1/games/{table.id}/socket"
        with pytest.raises(WebSocketDisconnect) as refused:
            ws = await client.websocket_connect(path, headers={"origin": "https://evil.example"})
            with ws:
                received(ws)
        assert (refused.value.code, refused.value.detail) == (1008, "forbidden")
        for allowed in ("https://frontend.example", "http://testserver.local"):
            ws = await client.websocket_connect(path, headers={"origin": allowed})
            with ws:
                ws.send_json({"type": "hello", "token": table.players[0]})
                assert received(ws)["type"] == "welcome"


async def test_cors_origins_star_lets_every_page_open_a_socket(redis_url: str) -> None:
    """`CORS_ORIGINS=*` (docs/api.md, the seat socket): a page of any origin opens one."""
    app = create_app(settings(redis_url, cors_origins=("*",)), games=ENGINES)
    async with AsyncTestClient(app) as client:
        table = await Tables(client).ready("thirty_one", 2)
        path = f"/v1/games/{table.id}/socket"
        for origin in ("https://evil.example", "null", "http://testserver.local"):
            ws = await client.websocket_connect(path, headers={"origin": origin})
            with ws:
                ws.send_json({"type": "hello", "token": table.players[0]})
                assert received(ws)["type"] == "welcome", origin


async def test_a_plain_request_to_the_socket_is_405(client: Client) -> None:
    r = await client.get("/v1/games/0123456789abcdef/socket")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"


def test_every_message_is_in_the_document(redis_url: str) -> None:
    schemas = json.loads(export(create_app(settings(redis_url), games=ENGINES)))["components"][
        "schemas"
    ]
    unions = {
        "SocketClientMessage": {"hello", "command", "ping"},
        "SocketServerMessage": {
            "welcome",
            "events",
            "view",
            "result",
            "problem",
            "heartbeat",
            "pong",
        },
    }
    for name, tags in unions.items():
        union = schemas[name]
        assert union["discriminator"]["propertyName"] == "type"
        assert set(union["discriminator"]["mapping"]) == tags
        for ref in union["discriminator"]["mapping"].values():
            assert ref.rsplit("/", 1)[-1] in schemas
    command = schemas["SocketCommand"]["properties"]
    assert command["command"]["$ref"] == "#/components/schemas/Command"
    assert command["id"]["pattern"] == "^[!-~]{1,128}$"
    assert schemas["SocketResult"]["properties"]["result"]["$ref"].endswith("/CommandResult")
    assert schemas["SocketProblem"]["properties"]["problem"]["$ref"].endswith("/Problem")
    events = schemas["SocketEvents"]["properties"]["events"]["items"]
    assert events["$ref"] == "#/components/schemas/GameEvent"
    assert schemas["SocketHello"]["required"] == ["type"]  # the rest have defaults
    assert set(schemas["SocketWelcome"]["required"]) == set(schemas["SocketWelcome"]["properties"])


def test_the_socket_settings() -> None:
    settings_ = Settings.from_env({})
    assert (settings_.socket_hello_s, settings_.socket_idle_s) == (5, 60)
    assert (settings_.socket_heartbeat_s, settings_.socket_backlog) == (15, 64)
    assert (settings_.socket_implementation, settings_.socket_deflate) == ("websockets", False)
    assert protocol("websockets") is SeatSocketProtocol
    assert protocol(Settings.from_env({"SOCKET_IMPLEMENTATION": "wsproto"}).socket_implementation)
    for name, bad in [("SOCKET_IMPLEMENTATION", "h11"), ("SOCKET_BACKLOG", "0")]:
        with pytest.raises(ValueError, match=name):
            Settings.from_env({name: bad})
