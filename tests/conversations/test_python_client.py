"""The Python SDK's seat socket (`kronikas_client.socket`) replayed against every recorded
conversation: it sends exactly the recorded frames and understands exactly the recorded answers."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from kronikas_client.socket import CommandRefused, SeatSocket, SocketClosed, connect_seat

from tests.conversations.record import CONVERSATIONS, GAME_ID, Line, read
from tests.conversations.replay import Replay, expected


@pytest.fixture
async def replay() -> AsyncIterator[Replay]:
    async with Replay() as server:
        yield server


async def replayed(lines: list[Line], server: Replay) -> dict[str, Any]:
    """Drive the SDK through `lines`: open as the hello says, send each recorded command under
    its id; what it handed out and answered, in the shape of `expected`."""
    hello = lines[0]["send"]
    socket = connect_seat(
        server.url, GAME_ID, token=hello["token"], after=hello["after"], views=hello["views"]
    )
    socket.until_final, socket.retry_delay = False, 0.05
    report: dict[str, Any] = {"answers": [], "events": [], "views": [], "ended": None}
    await socket.open()
    reading = asyncio.create_task(_updates(socket, report))
    for line in lines:
        message = line.get("send", {})
        if message.get("type") != "command":
            continue
        try:
            result = await socket.command(
                message["command"], id=message["id"], if_match=message.get("if_match")
            )
            report["answers"].append({"id": message["id"], "result": result.to_dict()})
        except CommandRefused as refused:
            problem = refused.problem.to_dict()
            report["answers"].append(
                {"id": refused.id, "problem": problem, "retry_after": refused.retry_after}
            )
    await server.wait()
    # The server has sent every frame; the client may still be reading the last ones.
    due = expected(lines, True)
    last = max([hello["after"], *(e["version"] for e in due["events"])])
    while (
        socket.version < last or len(report["views"]) < len(due["views"])
    ) and not reading.done():
        await asyncio.sleep(0.01)
    await socket.close()
    await reading
    return report


async def _updates(socket: SeatSocket, report: dict[str, Any]) -> None:
    try:
        async for update in socket.updates():
            report["events"] += [event.to_dict() for event in update.events]
            if update.view is not None:
                report["views"].append(update.view.to_dict())
    except SocketClosed as closed:
        report["ended"] = closed.code


@pytest.mark.parametrize("name", sorted(CONVERSATIONS))
async def test_the_python_sdk_speaks_the_recorded_conversation(name: str, replay: Replay) -> None:
    lines = read(name)
    replay.play(lines)
    assert await asyncio.wait_for(replayed(lines, replay), 30) == expected(lines, True)
