"""The web table plays over the seat socket (issue 27), in Chromium, and falls back to the
stream and HTTP when it cannot.

What went over the wire is read from outside the page: Chromium's own record of the page's
WebSockets and their frames (`page.on("websocket")`) and of its requests; the transport the page
chose is also on its connection indicator (`data-transport`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import TestClient
from playwright.async_api import Page, WebSocket, expect

from kronikas.adapters import embedded_redis
from kronikas.api.app import create_app
from kronikas.api.web import socket_sources
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tests.browser.conftest import WEB_DIR, PageFactory, Served
from tests.browser.test_web_table import (
    act,
    button,
    choose_cards,
    create_table,
    enabled,
    join,
    open_lobby,
    sync,
)
from tests.conftest import ServiceProcess


class Wire:
    """A page's traffic: its requests, its sockets and the messages sent on them."""

    def __init__(self, page: Page) -> None:
        self.urls: list[str] = []
        self.posts: list[str] = []
        self.sockets: list[str] = []
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("request", self._request)
        page.on("websocket", self._socket)

    def _request(self, request: Any) -> None:
        self.urls.append(request.url)
        if request.method == "POST":
            self.posts.append(request.url)

    def _socket(self, ws: WebSocket) -> None:
        self.sockets.append(ws.url)
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m.get("type") == kind]

    def commands_over_http(self) -> list[str]:
        return [u for u in self.posts if u.endswith("/commands")]

    def streams(self) -> list[str]:
        return [u for u in self.urls if "/stream?" in u]


async def move(*pages: Page) -> None:
    """The seat on turn makes a Cheat move: accept, or play its first card."""
    await sync(*pages)
    for page in pages:
        if await enabled(page, "Accept"):
            await act(page, button(page, "Accept").click)
            return
        if await enabled(page, re.compile("^Play")):
            await choose_cards(page, 1)
            play = button(page, re.compile(r"^Play 1 card as "))
            await expect(play).to_be_enabled()
            await act(page, play.click)
            return
    pytest.fail("nobody may move")


async def log_versions(page: Page) -> list[int]:
    return [
        int(v) for v in await page.locator(".log li").evaluate_all("l => l.map(e => e.dataset.v)")
    ]


def without_gap_or_repeat(versions: list[int]) -> None:
    """The log lists each version once, newest first, none missing."""
    assert versions == list(range(versions[0], versions[0] - len(versions), -1)), versions


async def start_match(url: str, ilona: Page, bence: Page) -> None:
    await open_lobby(ilona, f"{url}/")
    await create_table(ilona, "Cheat", {"max_play": 1, "rounds": 1, "decks": 1}, "Ilona")
    await join(bence, await ilona.locator("#share").input_value(), "Bence")
    await sync(ilona, bence)
    await act(ilona, button(ilona, "Start").click)
    await sync(ilona, bence)


async def test_two_people_play_over_the_socket(
    web_service: Served, page_factory: PageFactory
) -> None:
    ilona, bence = await page_factory(), await page_factory()
    wires = [Wire(ilona), Wire(bence)]
    await start_match(web_service.url, ilona, bence)
    for page in (ilona, bence):
        await expect(page.locator(".connection")).to_have_text("live")
        await expect(page.locator(".connection")).to_have_attribute("data-transport", "socket")

    for _ in range(6):
        await move(ilona, bence)
    await sync(ilona, bence)

    commands = wires[0].of("command") + wires[1].of("command")
    assert len(commands) == 6, commands
    assert all(c["if_match"] >= 1 and c["id"] for c in commands)
    assert len({c["id"] for c in commands}) == 6
    for wire in wires:
        # Moves over the socket, events and views pushed on it: no POST …/commands, no stream.
        assert wire.commands_over_http() == [] and wire.streams() == []
        assert wire.sockets and all(u.startswith("ws://") for u in wire.sockets)
        hello = [h for h in wire.of("hello") if h["token"]]  # a spectator's, before the join
        assert len(hello) == 1 and hello[0]["views"] is True
        assert not [u for u in wire.sockets if hello[0]["token"] in u or "token" in u]
        assert any(m["type"] == "view" for m in wire.received)
        assert [m["id"] for m in wire.received if m["type"] == "result"] == [
            c["id"] for c in wire.of("command")
        ]
    for page in (ilona, bence):
        without_gap_or_repeat(await log_versions(page))


@pytest.fixture
def restartable(
    redis_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[ServiceProcess]]:
    """A service process that the test may stop and start again on the same port."""
    first = ServiceProcess(
        redis_url, tmp_path / "service.log", LOG_LEVEL="INFO", WEB_DIR=str(WEB_DIR)
    )
    processes = [first]
    monkeypatch.setattr(embedded_redis, "free_port", lambda: first.port)
    try:
        yield processes
    finally:
        for p in processes:
            p.stop()


async def test_the_page_resumes_after_the_service_restarts(
    redis_url: str, restartable: list[ServiceProcess], page_factory: PageFactory, tmp_path: Path
) -> None:
    # While the service is down, Chromium logs each attempt that cannot connect.
    page_factory.allow(r"WebSocket connection to .* failed|ERR_CONNECTION_REFUSED|Failed to load")
    url = restartable[0].url
    ilona, bence = await page_factory(), await page_factory()
    wires = [Wire(ilona), Wire(bence)]
    await start_match(url, ilona, bence)
    for _ in range(3):
        await move(ilona, bence)
    seen = await sync(ilona, bence)

    restartable[0].stop()  # its sockets close with 1001: reconnect
    restartable.append(
        ServiceProcess(redis_url, tmp_path / "again.log", LOG_LEVEL="INFO", WEB_DIR=str(WEB_DIR))
    )
    for page in (ilona, bence):
        await expect(page.locator(".connection")).to_have_text("live", timeout=30_000)
    for wire in wires:
        hellos = wire.of("hello")
        assert len(hellos) >= 2 and len(wire.sockets) >= 2, wire.sockets
        assert hellos[-1]["after"] == seen  # from the last version seen: no gap, no repeat

    for _ in range(3):
        await move(ilona, bence)
    await sync(ilona, bence)
    for wire in wires:
        assert wire.commands_over_http() == [] and wire.streams() == []
    assert len(wires[0].of("command") + wires[1].of("command")) == 6
    for page in (ilona, bence):
        versions = await log_versions(page)
        without_gap_or_repeat(versions)
        assert versions[0] > seen + 2


NO_WEBSOCKET = "delete window.WebSocket;"


async def test_without_websocket_the_page_plays_over_the_stream_and_http(
    web_service: Served, page_factory: PageFactory
) -> None:
    ilona, bence = await page_factory(), await page_factory()
    for page in (ilona, bence):
        await page.context.add_init_script(NO_WEBSOCKET)
    wires = [Wire(ilona), Wire(bence)]
    await start_match(web_service.url, ilona, bence)
    for page in (ilona, bence):
        await expect(page.locator(".connection")).to_have_text("live")
        await expect(page.locator(".connection")).to_have_attribute("data-transport", "stream")
    for _ in range(4):
        await move(ilona, bence)
    await sync(ilona, bence)
    assert len(wires[0].commands_over_http() + wires[1].commands_over_http()) == 4
    for wire in wires:
        assert wire.sockets == [] and wire.streams()
    for page in (ilona, bence):
        without_gap_or_repeat(await log_versions(page))


async def test_a_socket_that_never_opens_falls_back_to_the_stream(
    web_service: Served, page_factory: PageFactory
) -> None:
    """Something between the page and the service refuses WebSockets: after three closes
    before a `welcome`, the page follows the stream and moves over HTTP."""
    ilona, bence = await page_factory(), await page_factory()
    refused: list[str] = []

    async def refuse(ws: Any) -> None:
        refused.append(ws.url)
        await ws.close(code=1011, reason="no")

    for page in (ilona, bence):
        await page.route_web_socket(re.compile(r"/socket$"), refuse)
    wires = [Wire(ilona), Wire(bence)]
    await start_match(web_service.url, ilona, bence)
    for page in (ilona, bence):
        await expect(page.locator(".connection")).to_have_attribute(
            "data-transport", "stream", timeout=30_000
        )
        await expect(page.locator(".connection")).to_have_text("live")
    await move(ilona, bence)
    await sync(ilona, bence)
    assert len(wires[0].commands_over_http() + wires[1].commands_over_http()) == 1
    assert len(refused) >= 6


ALLOWED = ("http://127.0.0.1:5173", "https://cards.example.org")


@pytest.fixture
def client(redis_url: str) -> Iterator[TestClient[Litestar]]:
    settings = Settings(
        redis_url=redis_url,
        log_level="CRITICAL",
        web_dir=str(WEB_DIR),
        cors_origins=ALLOWED,
        allowed_hosts=(TEST_HOST, "cards.example.net"),
    )
    with TestClient(create_app(settings, games=ENGINES)) as c:
        yield c


def test_the_web_tables_policy_lets_it_open_the_socket(client: TestClient[Any]) -> None:
    for path in ("/", "/app.js", "/socket.js", "/client/socket.js"):
        r = client.get(path, headers={"Host": "cards.example.net:8443"})
        assert r.status_code == 200, path
        csp = dict(
            (part.split()[0], part.split()[1:])
            for part in r.headers["content-security-policy"].split(";")
        )
        assert csp["connect-src"] == [
            "'self'",
            *ALLOWED,
            "ws://cards.example.net:8443",
            "wss://cards.example.net:8443",
            "ws://127.0.0.1:5173",
            "wss://cards.example.org",
        ], path
    # A Host that is not a host names nothing: it could not add a directive.
    assert socket_sources("x; script-src *") == ()
