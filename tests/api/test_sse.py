"""The event stream's response (api/sse.py), driven as the server drives it: its start through the
framework's `send`, its frames to the server's own, and its end when the client hangs up."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

from litestar import Request

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.api.sse import KEEP_ALIVE, SERVER_SEND, EventStream
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions
from kronikas_rules.seating import Leave
from tests.apps import ENGINES


class Client:
    """One stream's connection: what reached the server (and in which task), a socket that backs
    up, a send that fails, and a hang-up to make."""

    def __init__(self) -> None:
        self.through_framework: list[dict[str, Any]] = []
        self.to_server: list[dict[str, Any]] = []
        self.tasks: list[asyncio.Task[Any] | None] = []
        self.backed_up: asyncio.Event | None = None
        """While set to an event not set, a send waits for it (as the server's waits for its
        socket to drain)."""
        self.failing = 0
        """How many sends to come fail."""
        self.gone = asyncio.Event()
        self.asked = 0

    async def send(self, message: Any) -> None:
        self.through_framework.append(message)

    async def server_send(self, message: Any) -> None:
        if self.failing:
            self.failing -= 1
            raise RuntimeError("the socket broke")
        if self.backed_up is not None:
            await self.backed_up.wait()
        self.to_server.append(message)
        self.tasks.append(asyncio.current_task())

    async def receive(self) -> Any:
        self.asked += 1
        if self.asked == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await self.gone.wait()
        return {"type": "http.disconnect"}

    def frames(self) -> list[bytes]:
        return [m["body"] for m in self.to_server]

    def versions(self) -> list[int]:
        return [int(f.split(b"\r\n", 1)[0][4:]) for f in self.frames() if f.startswith(b"id: ")]


def playing(keepalive_s: float = 30.0) -> Games:
    feed = MemoryChangeFeed()
    settings = Settings(
        rate_per_s=100_000,
        rate_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        sse_keepalive_s=keepalive_s,
    )
    return Games(MemoryStores(feeds=[feed]), feed, for_table, settings, ENGINES)


async def created(games: Games) -> str:
    game_id: str = json.loads(await games.create("cheat", CheatOptions(), seed=3))["game"]["id"]
    return game_id


async def join_and_leave(games: Games, game_id: str) -> int:
    """Two events (a player joins, then leaves); returns the table's version."""
    token = json.loads(await games.join(game_id, "A"))["token"]
    return (await games.command(game_id, token, Leave(), b"")).version


async def streaming(games: Games, game_id: str, client: Client) -> asyncio.Task[None]:
    scope: Any = {
        "type": "http",
        "method": "GET",
        "path": f"/v1/games/{game_id}/stream",
        "headers": [],
        "query_string": b"",
        SERVER_SEND: client.server_send,
    }
    session = await games.stream(game_id, None, 0)
    bound = games.settings.outbox_bytes
    response = EventStream(session, {"Cache-Control": "no-cache"}, bound).to_asgi_response(
        None, Request(scope)
    )
    return asyncio.create_task(response(scope, client.receive, client.send))


async def until(condition: Any) -> None:
    for _ in range(400):
        if condition():
            return
        await asyncio.sleep(0.005)
    raise AssertionError("not within 2 s")


@dataclass
class Followed:
    """A new table, and a stream following it from the start (its first frame sent)."""

    games: Games
    game_id: str
    client: Client
    task: asyncio.Task[None]

    async def end(self) -> None:
        self.task.cancel()
        await asyncio.wait({self.task}, timeout=2.0)


async def followed(keepalive_s: float = 30.0) -> Followed:
    games = playing(keepalive_s)
    game_id = await created(games)
    client = Client()
    task = await streaming(games, game_id, client)
    await until(lambda: client.versions() == [1])
    return Followed(games, game_id, client, task)


async def test_frames_follow_the_table_and_the_stream_ends_when_the_client_hangs_up() -> None:
    table = await followed()
    games, game_id, client, task = table.games, table.game_id, table.client, table.task
    feed = games.folds.changes
    [start] = client.through_framework
    assert start["type"] == "http.response.start" and start["status"] == 200
    assert (b"content-type", b"text/event-stream; charset=utf-8") in start["headers"]
    assert client.frames()[0].startswith(b"id: 1\r\nevent: cheat.game_created\r\ndata: {")
    assert feed.viewers(game_id) == {None}, "the stream waits on the table"

    await games.join(game_id, "A")
    await until(lambda: client.versions() == [1, 2])

    client.gone.set()  # ends the stream at once, not at its next keep-alive 30 s on
    await asyncio.wait({task}, timeout=2.0)  # (no cancel on time-out, which it would swallow)
    assert task.done(), "the stream ended when the client left"
    assert not task.cancelled() and task.exception() is None
    assert feed.viewers(game_id) == set(), "gone from the table's waiters"
    assert all(m["more_body"] for m in client.to_server), "nothing sent after the hang-up"


async def test_a_stream_cancelled_by_the_server_stays_cancelled() -> None:
    table = await followed()
    await table.end()  # a shutdown, say: not the client's hang-up, which the stream swallows
    assert table.task.cancelled()
    assert table.games.folds.changes.viewers(table.game_id) == set()


async def test_a_change_is_sent_as_it_comes_without_the_streams_task() -> None:
    table = await followed()
    client = table.client
    for _ in range(3):
        version = await join_and_leave(table.games, table.game_id)
        assert client.versions()[-1] == version, "sent by the time the move was answered"
    assert client.versions() == list(range(1, version + 1))
    pushed = client.tasks[1:]
    assert table.task not in pushed, "sent in the change's own course, not by the stream's task"
    await table.end()


async def test_a_frame_whose_send_must_wait_goes_before_the_frames_of_later_changes() -> None:
    table = await followed()
    client = table.client
    client.backed_up = asyncio.Event()
    for _ in range(3):
        version = await join_and_leave(table.games, table.game_id)
    await asyncio.sleep(0.05)
    assert client.versions() == [1], "held while the socket is backed up"
    client.backed_up.set()
    await until(lambda: client.versions()[-1:] == [version])
    assert client.versions() == list(range(1, version + 1)), "in order, none twice"
    await table.end()


async def test_a_send_that_fails_as_the_change_comes_is_made_again_by_the_streams_task() -> None:
    table = await followed()
    client = table.client
    client.failing = 1
    version = await join_and_leave(table.games, table.game_id)
    await until(lambda: client.versions()[-1:] == [version])
    assert client.versions() == list(range(1, version + 1))
    assert client.tasks[1] is table.task, "the frame the push failed to send, sent by the task"
    await table.end()


async def test_the_keep_alive_comes_after_quiet_not_while_changes_are_sent() -> None:
    table = await followed(keepalive_s=0.8)
    for _ in range(12):  # 1.2 s of changes, each sent as it came, 0.1 s apart
        await join_and_leave(table.games, table.game_id)
        await asyncio.sleep(0.1)
    assert KEEP_ALIVE not in table.client.frames(), "no keep-alive while frames flow"
    await until(lambda: KEEP_ALIVE in table.client.frames())  # within 2 s of quiet
    await table.end()
