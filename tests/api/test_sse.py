"""The event stream's response (api/sse.py), driven as the server drives it: its start through the
framework's `send`, its frames to the server's own, and its end when the client hangs up."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from litestar import Request

from kronikas.adapters.memory import MemoryChangeFeed, MemoryEventStore
from kronikas.adapters.randomness import for_table
from kronikas.api.sse import SERVER_SEND, EventStream
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas.domain.cheat import CheatOptions

SETTINGS = Settings(rate_per_s=100_000, rate_burst=100_000, sse_keepalive_s=30.0)


class Client:
    """One stream's connection: what reached the server, and a hang-up to make."""

    def __init__(self) -> None:
        self.through_framework: list[dict[str, Any]] = []
        self.to_server: list[dict[str, Any]] = []
        self.gone = asyncio.Event()
        self.asked = 0

    async def send(self, message: Any) -> None:
        self.through_framework.append(message)

    async def server_send(self, message: Any) -> None:
        self.to_server.append(message)

    async def receive(self) -> Any:
        self.asked += 1
        if self.asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    def frames(self) -> list[bytes]:
        return [m["body"] for m in self.to_server]


async def streaming(games: Games, game_id: str, client: Client) -> asyncio.Task[None]:
    scope: Any = {
        "type": "http",
        "method": "GET",
        "path": f"/v1/games/{game_id}/stream",
        "headers": [],
        "query_string": b"",
        SERVER_SEND: client.server_send,
    }
    events = await games.stream(game_id, None, 0)
    response = EventStream(events, {"Cache-Control": "no-cache"}).to_asgi_response(
        None, Request(scope)
    )
    return asyncio.create_task(response(scope, client.receive, client.send))


async def until(condition: Any) -> None:
    for _ in range(400):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("not within 2 s")


async def test_frames_follow_the_table_and_the_stream_ends_when_the_client_hangs_up() -> None:
    feed = MemoryChangeFeed()
    games = Games(MemoryEventStore(feeds=[feed]), feed, for_table, SETTINGS)
    game_id = json.loads(await games.create("cheat", CheatOptions(), seed=3))["game"]["id"]
    client = Client()
    task = await streaming(games, game_id, client)
    await until(lambda: client.frames())
    [start] = client.through_framework
    assert start["type"] == "http.response.start" and start["status"] == 200
    assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
    assert client.frames()[0].startswith(b"id: 1\r\nevent: cheat.game_created\r\ndata: {")
    assert feed.viewers(game_id) == {None}, "the stream waits on the table"

    await games.join(game_id, "A")
    await until(lambda: any(f.startswith(b"id: 2\r\n") for f in client.frames()))

    client.gone.set()  # ends the stream at once, not at its next keep-alive 30 s on
    await asyncio.wait({task}, timeout=2.0)  # (no cancel on time-out, which it would swallow)
    assert task.done(), "the stream ended when the client left"
    assert not task.cancelled() and task.exception() is None
    assert feed.viewers(game_id) == set(), "gone from the table's waiters"
    assert all(m["more_body"] for m in client.to_server), "nothing sent after the hang-up"


async def test_a_stream_cancelled_by_the_server_stays_cancelled() -> None:
    feed = MemoryChangeFeed()
    games = Games(MemoryEventStore(feeds=[feed]), feed, for_table, SETTINGS)
    game_id = json.loads(await games.create("cheat", CheatOptions(), seed=3))["game"]["id"]
    client = Client()
    task = await streaming(games, game_id, client)
    await until(lambda: client.frames())
    task.cancel()  # a shutdown, say: not the client's hang-up, which the stream would swallow
    await asyncio.wait({task}, timeout=2.0)
    assert task.cancelled()
    assert feed.viewers(game_id) == set()
