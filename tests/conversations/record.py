"""Record the seat-socket conversations from the service (see the package's docstring).

Each is played in-process against a fresh app on the test Redis, on a table dealt from a seed,
by a client that sends exactly what a client of the protocol sends; what differs from run to
run (the table's id, tokens, player ids, times) is replaced by fixed words, so a recording is
the same every time the service behaves the same.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import ExitStack, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect
from litestar.testing import AsyncTestClient, WebSocketTestSession
from litestar.testing import transport as test_transport

from kronikas.api.app import create_app
from tests.api.tables import Table, Tables, candidates, game_moves
from tests.apps import ENGINES, Client, settings
from tests.socket.test_in_process import Stalling

HERE = Path(__file__).resolve().parent
GAME_ID = "0123456789abcdef"
"""The table's id in every recording (the fake server serves the socket at this id)."""
BACKLOG = 3
Line = dict[str, Any]


class Recorder:
    """One conversation: what the client sends and what the server answers, as it happens."""

    def __init__(self, client: Client, table: Table) -> None:
        self.client, self.table = client, table
        self.lines: list[Line] = []
        self.ws: WebSocketTestSession | None = None
        self.sessions = ExitStack()

    async def connect(self, hello: dict[str, Any]) -> Line:
        ws = await self.client.websocket_connect(f"/v1/games/{self.table.id}/socket")
        self.ws = self.sessions.enter_context(ws)
        return self.send({"type": "hello", **hello})

    def send(self, message: dict[str, Any]) -> Line:
        assert self.ws is not None
        self.ws.send_text(json.dumps(message))
        self.lines.append({"send": message})
        return message

    def receive(self) -> Line:
        """The server's next message; a close is recorded and raises WebSocketDisconnect."""
        assert self.ws is not None
        try:
            message: Line = json.loads(self.ws.receive_text(timeout=10))
        except WebSocketDisconnect as closed:
            self.lines.append({"close": [closed.code, closed.detail]})
            self.ws = None
            raise
        self.lines.append({"receive": message})
        return message

    def closed(self) -> Line:
        with pytest.raises(WebSocketDisconnect):
            self.receive()
        return self.lines[-1]


async def _seat_to_act(tables: Tables, table: Table) -> tuple[int, dict[str, Any]]:
    for seat, token in enumerate(table.players):
        view = await tables.view(table, token)
        if game_moves(view):
            return seat, view
    raise AssertionError("no seat may move")


async def play(client: Client) -> Recorder:
    """Open with views, a move with its id and answer, the same id again (its answer replayed),
    a move refused (409), another seat's move pushed (events, then the view)."""
    tables = Tables(client)
    table = await tables.ready("cheat", 3, seed=5)
    seat, view = await _seat_to_act(tables, table)
    rec = Recorder(client, table)
    token = table.players[seat]
    await rec.connect({"token": token, "after": view["version"], "views": True})
    assert rec.receive()["type"] == "welcome"
    rng = random.Random(5)
    move = candidates(view, rng)[-1]
    for _ in range(2):  # the second time, the service answers what it answered the first
        rec.send({"type": "command", "id": "move-1", "command": move, "if_match": view["version"]})
        assert rec.receive()["type"] == "result"
    rec.send({"type": "command", "id": "move-2", "command": move})
    assert rec.receive()["type"] == "problem"
    other, theirs = await _seat_to_act(tables, table)
    assert other != seat
    answer = None
    for command in candidates(theirs, rng):
        r = await tables.send(table, other, command)
        if r.status_code == 200:
            answer = r.json()
            break
    assert answer is not None
    pushed = rec.receive()
    assert pushed["type"] == "events" and pushed["version"] == answer["version"], pushed
    assert rec.receive()["type"] == "view"
    return rec


async def seat_lost(client: Client) -> Recorder:
    """A move refused (the table is not started), then the player leaves before the start (over
    HTTP, from another tab): the seat is gone, and the socket with it (4401)."""
    tables = Tables(client)
    table = await tables.create("cheat", seed=5)
    for _ in range(2):
        await tables.join(table)
    view = await tables.view(table, table.players[1])
    rec = Recorder(client, table)
    await rec.connect({"token": table.players[1], "after": view["version"], "views": True})
    assert rec.receive()["type"] == "welcome"
    rec.send({"type": "command", "id": "early-1", "command": {"type": "call"}})
    assert rec.receive()["type"] == "problem"
    left = await tables.send(table, 1, {"type": "leave"})
    assert left.status_code == 200, left.text
    with pytest.raises(WebSocketDisconnect):
        while True:
            rec.receive()
    assert rec.lines[-1]["close"][0] == 4401, rec.lines[-1]
    return rec


async def slow_reader(client: Client) -> Recorder:
    """A spectator that stops reading is closed 4508; it comes back after the last version it
    read, and the events it missed come at once."""
    tables = Tables(client)
    table = await tables.ready("cheat", 3, seed=5)
    now = (await tables.view(table))["version"]
    rng = random.Random(5)
    rec = Recorder(client, table)
    await rec.connect({"token": None, "after": now, "views": False})
    assert rec.receive()["type"] == "welcome"
    await _move(tables, table, rng)
    read = rec.receive()["version"]
    Stalling.stalled.set()  # the client reads no more: one send waits, BACKLOG behind it, one more
    try:
        for _ in range(1 + BACKLOG + 1):
            await _move(tables, table, rng)
    finally:
        Stalling.stalled.clear()
    assert rec.closed()["close"][0] == 4508
    await rec.connect({"token": None, "after": read, "views": False})
    welcome = rec.receive()
    while rec.receive()["version"] < welcome["version"]:
        pass
    return rec


async def ping(client: Client) -> Recorder:
    """A quiet client pings before the server's idle limit (a third of `idle_s`): `pong`."""
    tables = Tables(client)
    table = await tables.ready("cheat", 3, seed=5)
    now = (await tables.view(table))["version"]
    rec = Recorder(client, table)
    await rec.connect({"token": None, "after": now, "views": False})
    assert rec.receive()["type"] == "welcome"
    rec.send({"type": "ping"})
    assert rec.receive()["type"] == "pong"
    return rec


async def _move(tables: Tables, table: Table, rng: random.Random) -> None:
    seat, view = await _seat_to_act(tables, table)
    for command in candidates(view, rng):
        if (await tables.send(table, seat, command)).status_code == 200:
            return
    raise AssertionError("no command accepted")


CONVERSATIONS: dict[str, tuple[Callable[[Client], Awaitable[Recorder]], dict[str, Any]]] = {
    "play": (play, {}),
    "seat_lost": (seat_lost, {}),
    "slow_reader": (slow_reader, {"socket_backlog": BACKLOG}),
    "ping": (ping, {"socket_idle_s": 3}),
}
"""Each conversation, and the settings of the service it is recorded from (heartbeats are
left out: `socket_heartbeat_s` is a minute, longer than any conversation)."""


@asynccontextmanager
async def service(redis_url: str, **overrides: Any) -> AsyncIterator[Client]:
    app = create_app(settings(redis_url, socket_heartbeat_s=60, **overrides), games=ENGINES)
    async with AsyncTestClient(app) as client:
        yield client


async def record(name: str, redis_url: str, monkeypatch: pytest.MonkeyPatch) -> list[Line]:
    """The conversation `name`, recorded from a fresh service, its varying words replaced."""
    script, overrides = CONVERSATIONS[name]
    monkeypatch.setattr(test_transport, "WebSocketTestSession", Stalling)
    Stalling.stalled.clear()
    async with service(redis_url, **overrides) as client:
        rec = await script(client)
        with contextlib.suppress(WebSocketDisconnect):
            rec.sessions.close()
    return normalized(rec.lines, rec.table)


_PLAYER = re.compile(r'"player_id": "([0-9a-f]{12})"|\{"id": "([0-9a-f]{12})", "name"')
_REQUEST = re.compile(r'("request_id": )"[^"]*"')
_TIME = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)")


def normalized(lines: list[Line], table: Table) -> list[Line]:
    """The lines with the table's id, its tokens, its players' ids and every time fixed."""
    text = "\n".join(json.dumps(line, ensure_ascii=False) for line in lines)
    words = {table.id: GAME_ID, table.host: "host-token"}
    words |= {token: f"seat-token-{n}" for n, token in enumerate(table.players)}
    for old, new in words.items():
        text = text.replace(old, new)
    players = dict.fromkeys(a or b for a, b in _PLAYER.findall(text))
    for n, old in enumerate(players):
        text = text.replace(f'"{old}"', f'"player-{n}"')
    text = _TIME.sub("2026-01-01T00:00:00.000Z", text)
    text = _REQUEST.sub(r'\1"request-id"', text)
    return [json.loads(line) for line in text.splitlines()]


def path_of(name: str) -> Path:
    return HERE / f"{name}.jsonl"


def read(name: str) -> list[Line]:
    return [json.loads(line) for line in path_of(name).read_text().splitlines() if line]


def write(name: str, lines: list[Line]) -> None:
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    path_of(name).write_text(text)
