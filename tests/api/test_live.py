"""What needs a real server process: simultaneous requests, long-polls and streams."""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from tests.api.tables import Table, Tables, auth
from tests.conftest import ServiceProcess


@pytest.fixture
async def http(service: ServiceProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        yield client


@pytest.fixture
def tables(http: httpx.AsyncClient) -> Tables:
    return Tables(http)


async def cheat_at_turn(tables: Tables) -> tuple[Table, int, dict[str, Any]]:
    table = await tables.ready("cheat", 2, seed=5)
    turn = (await tables.view(table))["turn"]
    return table, turn, await tables.view(table, table.players[turn])


async def test_twenty_simultaneous_commands_on_one_version_exactly_one_wins(
    tables: Tables,
) -> None:
    table = await tables.ready("cheat", 4, seed=9)
    views = [await tables.view(table, token) for token in table.players]
    version, turn = views[0]["version"], views[0]["turn"]
    attempts = []
    for i in range(20):
        seat = i % 4
        command = (
            {"type": "play", "cards": views[seat]["me"]["hand"][:1]}
            if seat == turn
            else {"type": "call"}
        )
        attempts.append(tables.send(table, seat, command, **{"If-Match": f'"{version}"'}))
    answers = await asyncio.gather(*attempts)
    codes = Counter(r.status_code for r in answers)
    assert codes[200] == 1, codes
    assert set(codes) <= {200, 409, 412}, codes
    r = await tables.client.get(f"/v1/games/{table.id}/events")
    versions = [e["version"] for e in r.json()["events"]]
    assert versions == list(range(1, len(versions) + 1))
    assert versions[-1] == (await tables.view(table))["version"]


async def test_long_poll_returns_as_soon_as_an_event_lands(
    tables: Tables, http: httpx.AsyncClient
) -> None:
    table, turn, view = await cheat_at_turn(tables)
    url = f"/v1/games/{table.id}/events"

    async def mover() -> None:
        await asyncio.sleep(0.3)
        await tables.send(table, turn, {"type": "play", "cards": view["me"]["hand"][:1]})

    started = time.monotonic()
    task = asyncio.create_task(mover())
    r = await http.get(url, params={"after": view["version"], "wait": 30})
    elapsed = time.monotonic() - started
    await task
    assert r.status_code == 200
    assert r.json()["events"][0]["type"] == "cheat.cards_played"
    assert elapsed < 15, "woken by the move, not by the end of its wait"
    started = time.monotonic()
    quiet = await http.get(url, params={"after": r.json()["version"] + 5, "wait": 0.5})
    assert quiet.json()["events"] == [] and time.monotonic() - started >= 0.5


async def read_sse(response: httpx.Response, count: int) -> list[dict[str, str]]:
    messages: list[dict[str, str]] = []
    current: dict[str, str] = {}
    async for line in response.aiter_lines():
        if line == "":
            if "data" in current:
                messages.append(current)
                if len(messages) == count:
                    return messages
            current = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            current[field] = value.removeprefix(" ")
    return messages


async def test_a_stream_delivers_a_commands_events_within_a_second(
    tables: Tables, http: httpx.AsyncClient
) -> None:
    table, turn, view = await cheat_at_turn(tables)
    other = table.players[1 - turn]
    url = f"/v1/games/{table.id}/stream"
    async with http.stream("GET", url, params={"after": view["version"], "token": other}) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        reader = asyncio.create_task(read_sse(r, 1))
        await asyncio.sleep(0.2)
        sent = time.monotonic()
        await tables.send(table, turn, {"type": "play", "cards": view["me"]["hand"][:1]})
        (message,) = await asyncio.wait_for(reader, 20)
        # A stream that missed the notification would deliver at the next keep-alive (15 s).
        assert time.monotonic() - sent < 10
    assert message["event"] == "cheat.cards_played"
    assert message["id"] == str(view["version"] + 1)
    data = json.loads(message["data"])
    assert data["version"] == view["version"] + 1 and data["data"]["cards"] is None


async def test_a_stream_resumes_from_last_event_id(tables: Tables, http: httpx.AsyncClient) -> None:
    table, _, _ = await cheat_at_turn(tables)
    headers = auth(table.players[0]) | {"Last-Event-ID": "2"}
    async with http.stream("GET", f"/v1/games/{table.id}/stream", headers=headers) as r:
        messages = await asyncio.wait_for(read_sse(r, 2), 5)
    assert [m["id"] for m in messages] == ["3", "4"]
    assert json.loads(messages[1]["data"])["data"]["hands"][0] is not None


async def test_a_stream_with_a_bad_token_is_401_before_streaming(
    tables: Tables, http: httpx.AsyncClient
) -> None:
    table = await tables.create("cheat")
    r = await http.get(f"/v1/games/{table.id}/stream", params={"token": "forged"})
    assert r.status_code == 401 and r.json()["code"] == "unauthorized"


async def test_an_idle_stream_gets_keep_alive_comments(redis_url: str, tmp_path: Any) -> None:
    service = ServiceProcess(redis_url, tmp_path / "keepalive.log", SSE_KEEPALIVE_S="1")
    try:
        async with httpx.AsyncClient(base_url=service.url, timeout=10) as http:
            table = await Tables(http).create("cheat")
            url = f"/v1/games/{table.id}/stream"
            async with http.stream("GET", url, params={"after": 1}) as r:
                started = time.monotonic()
                lines = r.aiter_lines()
                line = await asyncio.wait_for(anext(lines), 20)
                while not line:
                    line = await asyncio.wait_for(anext(lines), 20)
        assert line.startswith(":"), line
        # SSE_KEEPALIVE_S is 1 here, against a default of 15.
        assert 0.5 < time.monotonic() - started < 10
    finally:
        service.stop()
