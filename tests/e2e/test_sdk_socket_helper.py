"""The SDK's seat-socket helper (`kronikas_client.socket`) against a small scripted server: its
own logic — the hello, resuming after a lost socket without a gap or a repeat, a command waiting
across the loss sent again under its id, refusals, keep-alive, a silent server — each of which a
real server shows only by chance. The real service is in test_sdk_socket.py."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from kronikas_client.models import CheatGameView, Play
from kronikas_client.socket import (
    CommandRefused,
    SeatSocket,
    SocketClosed,
    connect_seat,
    socket_url,
)
from litestar import Litestar
from litestar.testing import AsyncTestClient
from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tests.api.tables import Tables

AT = "2026-12-03T09:00:00.000Z"


def accepted(version: int) -> dict[str, Any]:
    """An event of a Cheat table, as the wire spells it."""
    data = {"type": "play_accepted", "seat": 0, "player": 0}
    return {"type": "cheat.play_accepted", "version": version, "at": AT, "data": data}


def ended(version: int) -> dict[str, Any]:
    data = {"type": "match_ended", "winners": [0], "points": [0, 3]}
    return {
        "type": "cheat.match_ended",
        "version": version,
        "at": AT,
        "final": True,
        "data": data,
    }


@dataclass
class FakeTable:
    """A table behind a scripted socket server: every command adds one event (a command whose
    type is `end` ends the match); ids are answered once and replayed after, as the service
    does. `cut_after_command` drops the connection right after applying a command, unanswered
    (the outcome a client cannot know); `cut_before_view` drops it between an `events` message
    and its `view`; `gap_once` pushes one `events` message that skips a
    version; `silent` stops answering anything after the welcome; `limit_replays` answers that
    many replays of a recorded id with a 429 (a replay is paid for; a command of type `limited`
    always is one)."""

    view: dict[str, Any]
    events: list[dict[str, Any]] = field(default_factory=list)
    hellos: list[dict[str, Any]] = field(default_factory=list)
    received: list[dict[str, Any]] = field(default_factory=list)
    answers: dict[str, str] = field(default_factory=dict)
    connections: list[ServerConnection] = field(default_factory=list)
    close_at_hello: list[tuple[int, str]] = field(default_factory=list)
    cut_after_command: int = 0
    cut_before_view: int = 0
    gap_once: bool = False
    silent: bool = False
    limit_replays: int = 0
    heartbeat_s: int = 15
    idle_s: int = 60

    def game(self) -> dict[str, Any]:
        return self.view | {"version": len(self.events)}

    async def handler(self, ws: ServerConnection) -> None:
        hello = json.loads(await ws.recv())
        self.hellos.append(hello)
        if self.close_at_hello:
            code, reason = self.close_at_hello.pop(0)
            await ws.close(code, reason)
            return
        welcome = {
            "type": "welcome",
            "version": len(self.events),
            "seat": 0,
            "player_id": "p1",
            "role": "player",
            "heartbeat_s": self.heartbeat_s,
            "idle_s": self.idle_s,
            "max_bytes": 65536,
            "game": self.game() if hello["views"] else None,
        }
        await ws.send(json.dumps(welcome))
        self.connections.append(ws)
        try:
            await self.push(ws, hello["after"], hello["views"])
            async for text in ws:
                message = json.loads(text)
                self.received.append(message)
                if self.silent:
                    continue
                if message["type"] == "ping":
                    await ws.send('{"type":"pong"}')
                elif message["type"] == "command" and message["command"]["type"] == "leave":
                    await ws.close(4401, "unauthorized")  # the token's player left
                    return
                elif message["type"] == "command":
                    await self.command(ws, message)
        except ConnectionClosed:
            pass
        finally:
            self.connections.remove(ws)

    async def push(self, ws: ServerConnection, after: int, views: bool) -> None:
        news = self.events[after:]
        if news:
            await ws.send(json.dumps({"type": "events", "events": news, "version": len(self)}))
            if views and self.cut_before_view:
                self.cut_before_view -= 1
                ws.transport.abort()  # the events went out; their view is lost with the line
                return
            if views:
                game = self.game()
                await ws.send(json.dumps({"type": "view", "game": game, "version": len(self)}))

    async def command(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        key = message["id"]
        limited = message["command"]["type"] == "limited"
        if limited or (key in self.answers and self.limit_replays):
            self.limit_replays -= not limited
            problem = {"status": 429, "code": "rate_limited", "title": "Slow", "detail": "wait"}
            answer = {"type": "problem", "id": key, "problem": problem, "retry_after": 0}
            await ws.send(json.dumps(answer))
            return
        if key in self.answers:
            await ws.send(self.answers[key])
            return
        if message["command"]["type"] == "refuse":
            problem = {"status": 409, "code": "illegal_move", "title": "No", "detail": "not now"}
            answer = {"type": "problem", "id": key, "problem": problem, "retry_after": None}
            await ws.send(json.dumps(answer))
            return
        version = len(self) + 1
        event = ended(version) if message["command"]["type"] == "end" else accepted(version)
        self.events.append(event)
        result = {"version": version, "events": [event], "game": self.game()}
        self.answers[key] = json.dumps({"type": "result", "id": key, "result": result})
        if self.cut_after_command:
            self.cut_after_command -= 1
            ws.transport.abort()
            return
        await ws.send(self.answers[key])

    async def from_elsewhere(self, event: Callable[[int], dict[str, Any]] = accepted) -> None:
        """Another seat's move: one new event pushed to every open connection."""
        if self.gap_once:  # two moves, and only the second one's event pushed
            self.gap_once = False
            self.events += [accepted(len(self) + 1), event(len(self) + 2)]
            news = json.dumps({"type": "events", "events": self.events[-1:], "version": len(self)})
            for ws in list(self.connections):
                await ws.send(news)
            return
        self.events.append(event(len(self) + 1))
        for ws in list(self.connections):
            await self.push(ws, len(self) - 1, False)

    def __len__(self) -> int:
        return len(self.events)


@pytest.fixture
async def table_view(client: AsyncTestClient[Litestar]) -> dict[str, Any]:
    """A real seat's view of a Cheat table, as the service writes it."""
    tables = Tables(client)
    table = await tables.ready("cheat", 2)
    return await tables.view(table, table.players[0])


@pytest.fixture
async def fake(table_view: dict[str, Any]) -> AsyncIterator[tuple[FakeTable, str]]:
    table = FakeTable(table_view, events=[accepted(v) for v in (1, 2, 3)])
    async with serve(table.handler, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        yield table, f"http://127.0.0.1:{port}"


async def until(check: Callable[[], bool], timeout: float = 20.0) -> None:
    """Poll until `check()` holds (a generous bound for a loaded machine)."""
    async with asyncio.timeout(timeout):
        while not check():
            await asyncio.sleep(0.01)


async def versions(socket: SeatSocket, into: list[int]) -> None:
    async for event in socket:
        into.append(event.version)


def test_the_socket_address_follows_the_base_url() -> None:
    assert socket_url("http://h:8/", "g 1") == "ws://h:8/v1/games/g%201/socket"
    assert socket_url("https://h/api", "g") == "wss://h/api/v1/games/g/socket"


async def test_events_come_once_in_order_and_end_with_the_final_one(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    seen: list[int] = []
    async with asyncio.timeout(30), connect_seat(url, "g", token="t", after=1) as socket:
        assert socket.welcome is not None and socket.welcome.version == 3
        reader = asyncio.create_task(versions(socket, seen))
        result = await socket.command(Play(cards=["7H"]), id="m-1", if_match=3)
        assert (result.version, [e.version for e in result.events]) == (4, [4])
        assert isinstance(result.game, CheatGameView)
        again = await socket.command(Play(cards=["7H"]), id="m-1", if_match=3)  # a replay
        assert again.version == 4 and len(table) == 4
        await table.from_elsewhere()
        await table.from_elsewhere(ended)
        await asyncio.wait_for(reader, 20)
    assert seen == [2, 3, 4, 5, 6]  # from `after`; the result's event once; stops at the final
    assert table.hellos == [{"type": "hello", "token": "t", "after": 1, "views": False}]
    assert socket.final and socket.version == 6


async def test_views_come_with_the_events_they_follow(fake: tuple[FakeTable, str]) -> None:
    _, url = fake
    async with asyncio.timeout(30), connect_seat(url, "g", views=True) as socket:
        updates = socket.updates()
        first = await anext(updates)
        assert [e.version for e in first.events] == [1, 2, 3]
        assert first.view is not None and first.view.version == 3
        await socket.command({"type": "accept"})
        mine = await anext(updates)  # a command's result is an update too, with its view
        assert [e.version for e in mine.events] == [4] and mine.view is not None
        assert socket.view is not None and socket.view.version == 4


async def test_a_view_lost_with_the_socket_comes_with_the_next_welcome(
    fake: tuple[FakeTable, str],
) -> None:
    # Nothing new happens after the resume (the table waits for this seat): without the
    # welcome's view the seat would never see the view its move is owed on.
    table, url = fake
    table.cut_before_view = 1
    async with (
        asyncio.timeout(30),
        connect_seat(url, "g", views=True, retry_delay=0.01) as socket,
    ):
        updates = socket.updates()
        first = await anext(updates)  # the events; their view went with the connection
        assert [e.version for e in first.events] == [1, 2, 3] and first.view is None
        second = await anext(updates)  # the resumed connection's welcome brings it
        assert second.events == [] and second.view is not None and second.view.version == 3
    assert [hello["after"] for hello in table.hellos] == [0, 3]


async def test_a_lost_socket_resumes_and_a_waiting_command_is_answered_once(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    table.cut_after_command = 1  # applied, then the connection is gone: the outcome unknown
    seen: list[int] = []
    async with connect_seat(url, "g", token="t", retry_delay=0.01) as socket:
        reader = asyncio.create_task(versions(socket, seen))
        await until(lambda: socket.version == 3)
        result = await asyncio.wait_for(socket.command(Play(cards=["7H"]), id="m-2"), 20)
        assert result.version == 4
        await table.from_elsewhere(ended)
        await asyncio.wait_for(reader, 20)
    assert [hello["after"] for hello in table.hellos] == [0, 3]
    assert [m["id"] for m in table.received if m["type"] == "command"] == ["m-2", "m-2"]
    assert len(table) == 5  # the command was applied once
    assert seen == [1, 2, 3, 4, 5] and socket.reconnects == 1


async def test_a_command_sent_again_waits_out_a_429_and_is_answered_once(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    table.cut_after_command = 1  # applied, unanswered: sent again on the next connection...
    table.limit_replays = 2  # ...where its replay is refused twice for the rate
    async with asyncio.timeout(30), connect_seat(url, "g", token="t", retry_delay=0.01) as socket:
        result = await socket.command(Play(cards=["7H"]), id="m-2")
        assert result.version == 4
        with pytest.raises(CommandRefused) as first:  # sent once: nothing applied, the caller's
            await socket.command({"type": "limited"}, id="m-3")
        assert (first.value.status, first.value.code) == (429, "rate_limited")
    sent = [m["id"] for m in table.received if m["type"] == "command"]
    assert sent == ["m-2"] * 4 + ["m-3"], sent
    assert len(table) == 4 and socket.reconnects == 1, "applied once"


async def test_a_push_that_skips_a_version_is_filled_by_resuming(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    table.gap_once = True
    seen: list[int] = []
    async with connect_seat(url, "g", token="t", retry_delay=0.01) as socket:
        reader = asyncio.create_task(versions(socket, seen))
        await until(lambda: socket.version == 3)
        await table.from_elsewhere()  # versions 4 and 5 happen; only 5 is pushed
        await until(lambda: len(table.hellos) == 2 and socket.version == 5)
        await table.from_elsewhere(ended)
        await asyncio.wait_for(reader, 20)
    assert seen == [1, 2, 3, 4, 5, 6]
    assert [hello["after"] for hello in table.hellos] == [0, 3]


@pytest.mark.parametrize("code", [4401, 4404, 4400])
async def test_a_refusal_for_good_is_raised_at_once(fake: tuple[FakeTable, str], code: int) -> None:
    table, url = fake
    table.close_at_hello = [(code, "unauthorized")]
    with pytest.raises(SocketClosed) as refused:
        await connect_seat(url, "g", token="x", retry_delay=0.01).open()
    assert refused.value.code == code and len(table.hellos) == 1


async def test_a_rate_limited_hello_waits_its_retry_after_and_tries_again(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    table.close_at_hello = [(4429, "rate_limited retry_after=0"), (4503, "unavailable")]
    async with connect_seat(url, "g", retry_delay=0.01) as socket:
        assert socket.welcome is not None
    assert len(table.hellos) == 3


async def test_a_refused_command_raises_with_the_problem(fake: tuple[FakeTable, str]) -> None:
    table, url = fake
    async with asyncio.timeout(30), connect_seat(url, "g", token="t") as socket:
        with pytest.raises(CommandRefused) as refused:
            await socket.command({"type": "refuse"}, id="m-3")
        assert (refused.value.status, refused.value.code, refused.value.id) == (
            409,
            "illegal_move",
            "m-3",
        )
        assert refused.value.problem.detail == "not now"
        with pytest.raises(ValueError):
            await socket.command({"type": "call"}, id="no spaces")
        with pytest.raises(ValueError):  # over the welcome's max_bytes: never sent
            await socket.command({"type": "play", "cards": ["7H"] * 20000})
        assert [m["type"] for m in table.received] == ["command"]


async def test_it_pings_when_it_has_nothing_to_say_and_answers_come_back(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    table.heartbeat_s, table.idle_s = 1, 3
    async with connect_seat(url, "g", token="t") as socket:
        assert await socket.ping(timeout=20) >= 0
        asked = sum(m["type"] == "ping" for m in table.received)
        await until(lambda: sum(m["type"] == "ping" for m in table.received) > asked)
    assert len(table.hellos) == 1


async def test_a_silent_server_counts_as_a_lost_socket(fake: tuple[FakeTable, str]) -> None:
    table, url = fake
    table.silent = True
    async with connect_seat(url, "g", token="t", retry_delay=0.01, read_timeout=0.5) as socket:
        await until(lambda: len(table.hellos) >= 2)  # half a second unheard: it resumed
        assert table.hellos[-1]["after"] == 3
        assert socket.reconnects >= 1


async def test_a_socket_closed_for_good_while_open_ends_the_loop_and_is_not_resumed(
    fake: tuple[FakeTable, str],
) -> None:
    table, url = fake
    async with asyncio.timeout(30), connect_seat(url, "g", token="t", retry_delay=0.01) as socket:
        with pytest.raises(SocketClosed) as left:
            await socket.command({"type": "leave"})
        assert left.value.code == 4401
        with pytest.raises(SocketClosed):
            async for _ in socket:
                pass
    assert len(table.hellos) == 1


async def test_commands_on_a_closed_socket_fail_plainly(fake: tuple[FakeTable, str]) -> None:
    _, url = fake
    socket = await connect_seat(url, "g", token="t").open()
    await socket.close()
    with pytest.raises(SocketClosed):
        await socket.command({"type": "call"})
