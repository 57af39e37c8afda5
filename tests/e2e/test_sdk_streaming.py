"""The SDK's hand-written streaming helper against the real service."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Iterator

import httpx
import pytest
from kronikas_client import AuthenticatedClient, Client
from kronikas_client.api.games import create_game, get_game, join_game, send_command, start_game
from kronikas_client.events import GameEvent
from kronikas_client.models import (
    CheatCardsPlayedEvent,
    CheatGameView,
    CommandResult,
    CreateCheatGame,
    Created,
    Joined,
    JoinRequest,
    Play,
)
from kronikas_client.streaming import SSEParser, StreamError, astream_events, stream_events

from tests.conftest import ServiceProcess


def cheat_table(url: str) -> tuple[str, list[AuthenticatedClient], CheatGameView]:
    """A started two-seat Cheat table; the clients by seat and the view of the seat on turn."""
    anyone = Client(base_url=url)
    created = create_game.sync(client=anyone, body=CreateCheatGame(seed=21))
    assert isinstance(created, Created)
    game_id = created.game.id
    seats = []
    for name in ("A", "B"):
        joined = join_game.sync(game_id, client=anyone, body=JoinRequest(name=name))
        assert isinstance(joined, Joined)
        seats.append(AuthenticatedClient(base_url=url, token=joined.token))
    host = AuthenticatedClient(base_url=url, token=created.host_token)
    started = start_game.sync(game_id, client=host)
    assert isinstance(started, CheatGameView) and started.turn is not None
    view = get_game.sync(game_id, client=seats[started.turn])
    assert isinstance(view, CheatGameView)
    return game_id, seats, view


def play_first_card(game_id: str, client: AuthenticatedClient, view: CheatGameView) -> None:
    assert view.me is not None
    result = send_command.sync(game_id, client=client, body=Play(cards=view.me.hand[:1]))
    assert isinstance(result, CommandResult), result


def test_the_parser_joins_data_lines_and_drops_comments() -> None:
    lines = [": keep-alive", "", "id: 7", "event: x", 'data: {"a":', "data: 1}", "retry: 10", ""]
    (message,) = list(SSEParser().feed_lines(lines))
    assert (message.id, message.event, message.data, message.retry) == ("7", "x", '{"a":\n1}', 10)


def test_a_stream_receives_a_commands_events_as_they_happen(service: ServiceProcess) -> None:
    game_id, seats, view = cheat_table(service.url)
    watcher = seats[1 - view.me.seat] if view.me else seats[0]
    received: list[GameEvent] = []

    def follow() -> None:
        for event in stream_events(watcher, game_id, after=view.version, read_timeout=10):
            received.append(event)
            return

    reader = threading.Thread(target=follow)
    reader.start()
    time.sleep(0.3)
    play_first_card(game_id, seats[view.turn or 0], view)
    reader.join(10)
    assert [(e.version, e.type_) for e in received] == [(view.version + 1, "cheat.cards_played")]
    (played,) = received
    assert isinstance(played, CheatCardsPlayedEvent)
    assert played.data.cards is None  # another seat's cards stay hidden


class DropAfterFirstEvent(httpx.BaseTransport):
    """Loopback transport that cuts the first stream right after its first event."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.streams: list[httpx.Request] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        if not request.url.path.endswith("/stream"):
            return response
        self.streams.append(request)
        if len(self.streams) > 1:
            return response
        upstream = response.stream
        assert isinstance(upstream, httpx.SyncByteStream)

        def cut() -> Iterator[bytes]:
            buffered = b""
            for chunk in upstream:
                buffered += chunk
                end = re.search(rb"\r?\n\r?\n", buffered)
                if end:
                    yield buffered[: end.end()]
                    upstream.close()
                    raise httpx.ReadError("connection dropped")

        return httpx.Response(
            response.status_code,
            headers=response.headers,
            stream=_Bytes(cut()),
            request=request,
        )


class _Bytes(httpx.SyncByteStream):
    def __init__(self, chunks: Iterator[bytes]) -> None:
        self.chunks = chunks

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks


def test_a_dropped_stream_resumes_with_last_event_id(service: ServiceProcess) -> None:
    game_id, seats, view = cheat_table(service.url)
    transport = DropAfterFirstEvent()
    client = AuthenticatedClient(base_url=service.url, token=seats[0].token)
    client.set_httpx_client(
        httpx.Client(
            base_url=service.url,
            headers={"Authorization": f"Bearer {seats[0].token}"},
            transport=transport,
        )
    )
    events = []
    for event in stream_events(client, game_id, retry_delay=0.05, read_timeout=10):
        events.append(event)
        if event.version == view.version:
            break
    assert [e.version for e in events] == list(range(1, view.version + 1))
    assert len(transport.streams) == 2
    assert transport.streams[1].headers["Last-Event-ID"] == "1"


def test_a_refused_stream_raises_with_the_problem(service: ServiceProcess) -> None:
    client = Client(base_url=service.url)
    with pytest.raises(StreamError) as refused:
        next(stream_events(client, "no-such-table"))
    assert refused.value.status == 404
    assert refused.value.problem is not None and refused.value.problem.code == "not_found"


async def test_the_async_stream_resumes_after_a_version(service: ServiceProcess) -> None:
    game_id, seats, view = cheat_table(service.url)
    watcher = AuthenticatedClient(base_url=service.url, token=seats[0].token)

    async def first_two() -> list[GameEvent]:
        out = []
        async for event in astream_events(watcher, game_id, after=view.version - 1):
            out.append(event)
            if len(out) == 2:
                break
        return out

    task = asyncio.create_task(first_two())
    await asyncio.sleep(0.3)
    await asyncio.to_thread(play_first_card, game_id, seats[view.turn or 0], view)
    events = await asyncio.wait_for(task, 10)
    assert [e.version for e in events] == [view.version, view.version + 1]
    await watcher.get_async_httpx_client().aclose()
