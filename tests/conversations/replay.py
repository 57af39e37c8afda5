"""A WebSocket server that plays a recorded conversation, and what a client must make of it.

`Replay` listens on a loopback port and serves the socket of the recorded table
(`/v1/games/0123456789abcdef/socket`): on each connection it plays the next part of the
conversation — it reads each frame the client sends and compares it with the recorded one, and
sends the recorded answers, and closes where the service closed. A command's `id` is the
client's: the first time a recorded id is met it is bound to the one the client sent, which
must then stand for it wherever the recording repeats it (and goes into the answers).

`expected(lines)` is what any client must report having understood: the answer to each command
it sent, in order; every event once, in version order; the views it was handed; and the close
code that ended it, when the conversation ends with one that is for good.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tests.conversations.record import GAME_ID, Line

FOR_GOOD = {4401, 4404, 4400}
"""Close codes after which no client of the protocol reconnects."""


class Replay:
    """One recorded conversation at a time, served on a loopback port."""

    def __init__(self) -> None:
        self.server: Server | None = None
        self.parts: list[list[Line]] = []
        self.mismatches: list[str] = []
        self.finished = asyncio.Event()
        self.ids: dict[str, str] = {}

    @property
    def url(self) -> str:
        """The service's base URL as a client is given it (`http://…`)."""
        assert self.server is not None
        host, port = next(iter(self.server.sockets)).getsockname()[:2]
        return f"http://{host}:{port}"

    async def __aenter__(self) -> Replay:
        self.server = await serve(self._connection, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    def play(self, lines: list[Line]) -> None:
        """Serve `lines` from the next connection on (a close ends a connection's part)."""
        self.parts, part = [], []
        for line in lines:
            part.append(line)
            if "close" in line:
                self.parts.append(part)
                part = []
        if part:
            self.parts.append(part)
        self.mismatches, self.ids = [], {}
        self.finished = asyncio.Event()

    async def wait(self, timeout: float = 20) -> None:
        """Until every line was played; fails with what the client sent otherwise."""
        try:
            await asyncio.wait_for(self.finished.wait(), timeout)
        except TimeoutError:
            raise AssertionError(
                f"not played to the end: {self.mismatches or self.parts}"
            ) from None
        assert self.mismatches == []

    async def _connection(self, ws: ServerConnection) -> None:
        assert ws.request is not None
        if ws.request.path != f"/v1/games/{GAME_ID}/socket" or not self.parts:
            self.mismatches.append(f"a connection not in the recording: {ws.request.path}")
            await ws.close(1011, "not recorded")
            return
        part = self.parts.pop(0)
        try:
            for line in part:
                if "send" in line:
                    sent = self._bound(json.loads(await ws.recv()), line["send"])
                    if sent != line["send"]:
                        self.mismatches.append(f"sent {sent}, recorded {line['send']}")
                        await ws.close(1011, "not as recorded")
                        return
                elif "receive" in line:
                    await ws.send(json.dumps(self._theirs(line["receive"])))
                else:
                    code, reason = line["close"]
                    await ws.close(code, reason)
            if not self.parts:
                self.finished.set()
            async for text in ws:  # past the recording: a client may only keep the socket alive
                if json.loads(text) != {"type": "ping"}:
                    self.mismatches.append(f"sent past the recording: {text}")
        except ConnectionClosed:
            if part and "close" not in part[-1]:
                self.mismatches.append("the client closed before the recording ended")

    def _bound(self, sent: dict[str, Any], recorded: dict[str, Any]) -> dict[str, Any]:
        """`sent` with its command id replaced by the recorded one it stands for."""
        if sent.get("type") != "command" or recorded.get("type") != "command":
            return sent
        theirs = self.ids.setdefault(recorded["id"], sent["id"])
        if theirs != sent.get("id") or list(self.ids.values()).count(theirs) > 1:
            return sent
        return sent | {"id": recorded["id"]}

    def _theirs(self, message: dict[str, Any]) -> dict[str, Any]:
        """A recorded answer with its command id the client's."""
        if message.get("id") in self.ids:
            return message | {"id": self.ids[message["id"]]}
        return message


def expected(lines: list[Line], results_bring_views: bool = False) -> dict[str, Any]:
    """What a client replayed `lines` must report (see the module's docstring). With
    `results_bring_views` (the Python SDK's `Update`), a result that brings new events hands
    out its `game` as a view too."""
    hello = lines[0]["send"]
    last = hello["after"]
    events: list[dict[str, Any]] = []
    views: list[dict[str, Any]] = []
    answers: list[dict[str, Any]] = []
    for line in lines:
        message = line.get("receive", {})
        kind = message.get("type")
        handed = message.get("events") or (message.get("result") or {}).get("events") or []
        new = [event for event in handed if event["version"] > last]
        events += new
        last = max([last, *(event["version"] for event in new)])
        if kind in ("welcome", "view") and message.get("game") is not None:
            views.append(message["game"])
        if kind == "result" and new and results_bring_views:
            views.append(message["result"]["game"])
        if kind == "result":
            answers.append({"id": message["id"], "result": message["result"]})
        if kind == "problem" and message["id"] is not None:
            answer = {"id": message["id"], "problem": message["problem"]}
            answers.append(answer | {"retry_after": message["retry_after"]})
    close = lines[-1].get("close")
    ended = close[0] if close and close[0] in FOR_GOOD else None
    return {"answers": answers, "events": events, "views": views, "ended": ended}
