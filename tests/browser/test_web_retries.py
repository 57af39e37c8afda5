"""The web table's retries of a move with the same key wait out a 429 (a retry is paid for as any
request, docs/api.md, Versions and retries), over HTTP and over the seat socket, in Chromium.

The network between the page and the service is played from outside the page: Playwright's
routes drop an answer after the service made it, and answer a retry 429, as a spent bucket does.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from playwright.async_api import Route, WebSocketRoute

from tests.api.tables import Tables
from tests.browser.conftest import PageFactory, Served

LIMITED = {
    "type": "about:blank",
    "status": 429,
    "code": "rate_limited",
    "title": "Too Many Requests",
    "detail": "Too many requests; try again in 1 s.",
}


async def test_a_move_retried_over_http_waits_out_a_429_and_keeps_its_key(
    web_service: Served, page_factory: PageFactory
) -> None:
    page_factory.allow(r"429|Failed to load resource|ERR_FAILED")
    async with httpx.AsyncClient(base_url=web_service.url, timeout=30) as client:
        tables = Tables(client)
        table = await tables.ready("cheat", 2)
        turn = (await tables.view(table))["turn"]
        mine = await tables.view(table, table.players[turn])
    page = await page_factory()
    await page.goto(f"{web_service.url}/")
    keys: list[str] = []
    answers: list[int] = []

    async def network(route: Route) -> None:
        keys.append(await route.request.header_value("Idempotency-Key") or "")
        if len(keys) == 1:  # the service applies it; its answer is lost on the way back
            answers.append((await route.fetch()).status)
            await route.abort()
        elif len(keys) in (2, 4):  # the retry meets a spent bucket (and, 4th, a first try)
            await route.fulfill(
                status=429,
                headers={"Retry-After": "1"},
                json=LIMITED,
                content_type="application/problem+json",
            )
        else:
            await route.continue_()

    await page.route(re.compile(r"/v1/games/[0-9a-f]+/commands$"), network)
    result = await page.evaluate(
        """async ([id, token, version, cards]) => {
          const { api } = await import("./api.js");
          const answer = await api.command(id, token, version, { type: "play", cards });
          return answer.body.version;
        }""",
        [table.id, table.players[turn], mine["version"], mine["me"]["hand"][:1]],
    )
    assert answers == [200] and len(keys) == 3 and len(set(keys)) == 1, (answers, keys)
    assert result == mine["version"] + 1, "the first answer, applied once"

    first_try = await page.evaluate(
        """async ([id, token]) => {
          const { api } = await import("./api.js");
          try {
            await api.command(id, token, null, { type: "call" });
          } catch (e) {
            return e.status;
          }
          return 200;
        }""",
        [table.id, table.players[turn]],
    )
    assert first_try == 429 and len(keys) == 4, (
        "a first try's 429 is the caller's: nothing was sent again"
    )


async def test_a_move_sent_again_on_the_socket_waits_out_a_429_under_its_id(
    web_service: Served, page_factory: PageFactory
) -> None:
    page = await page_factory()
    await page.goto(f"{web_service.url}/")
    sockets: list[list[dict[str, Any]]] = []

    def server(ws: WebSocketRoute) -> None:
        heard: list[dict[str, Any]] = []
        sockets.append(heard)

        async def on(text: str | bytes) -> None:
            message = json.loads(text)
            heard.append(message)
            if message["type"] == "hello":
                welcome = {"type": "welcome", "version": 3, "seat": 0, "player_id": "p1"}
                welcome |= {"role": "player", "heartbeat_s": 15, "idle_s": 60}
                ws.send(json.dumps(welcome | {"max_bytes": 65536, "game": None}))
                return
            if message["type"] != "command":
                return
            sent = sum(m["type"] == "command" for s in sockets for m in s)
            if sent == 1:  # applied; the socket is lost before its answer
                await ws.close(code=1011, reason="gone")
            elif sent == 2:  # sent again on the next socket: a spent bucket
                problem = {"type": "problem", "id": message["id"], "problem": LIMITED}
                ws.send(json.dumps(problem | {"retry_after": 1}))
            else:
                result = {"version": 4, "events": [], "game": {}}
                ws.send(json.dumps({"type": "result", "id": message["id"], "result": result}))

        ws.on_message(on)

    await page.route_web_socket(re.compile(r"/socket$"), server)
    version = await page.evaluate(
        """async () => {
          const { seatSocket } = await import("./socket.js");
          const seat = seatSocket("0123456789abcdef", {
            token: "t", onEvent() {}, onView() {}, onFallback() {},
          });
          const answer = await seat.command({ type: "pass" }, null);
          seat.stop();
          return answer.body.version;
        }"""
    )
    ids = [m["id"] for s in sockets for m in s if m["type"] == "command"]
    assert version == 4 and len(sockets) == 2, sockets
    assert len(ids) == 3 and len(set(ids)) == 1, ids
