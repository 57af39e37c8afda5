"""The SDK's hand-written streaming helper against the real service."""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Iterator
from typing import Any

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
from kronikas_client.streaming import (
    SSEParser,
    StreamError,
    astream_events,
    final,
    stream_events,
)

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


# -- the end of the match ------------------------------------------------------------------------

QUICK = {
    "cheat": {"rounds": 1},
    "thirty_one": {"lives": 1, "max_circuits": 1},
}
"""Options of a short match of each game: one round."""
PREFERRED = {
    "cheat": ["play", "accept"],
    "thirty_one": ["show", "keep", "pass", "swap_all"],
}
"""The moves the driver below makes, the first of them the seat may make."""


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def quick_table(http: httpx.Client, kind: str) -> tuple[str, list[str]]:
    """A started two-seat table of `kind` with one-round options: its id and the seats' tokens."""
    r = http.post("/v1/games", json={"kind": kind, "options": QUICK[kind], "seed": 5})
    assert r.status_code == 201, r.text
    game_id, host = r.json()["game"]["id"], r.json()["host_token"]
    tokens = []
    for name in ("A", "B"):
        joined = http.post(f"/v1/games/{game_id}/players", json={"name": name})
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    assert http.post(f"/v1/games/{game_id}/start", headers=_bearer(host)).status_code == 200
    return game_id, tokens


def play_to_the_end(http: httpx.Client, kind: str, game_id: str, tokens: list[str]) -> int:
    """Moves by the seat on turn until the match is over; answers the table's last version."""
    for _ in range(500):
        spectator = http.get(f"/v1/games/{game_id}").json()
        if spectator["status"] == "finished":
            return int(spectator["version"])
        token = tokens[spectator["turn"]]
        view = http.get(f"/v1/games/{game_id}", headers=_bearer(token)).json()
        move = next(m for m in PREFERRED[kind] if m in view["legal"])
        command: dict[str, Any] = {"type": move}
        if move == "play":
            command["cards"] = view["me"]["hand"][:1]
        r = http.post(f"/v1/games/{game_id}/commands", json=command, headers=_bearer(token))
        assert r.status_code == 200, r.text
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_a_stream_stops_by_itself_when_the_match_is_over(
    kind: str, service: ServiceProcess
) -> None:
    with httpx.Client(base_url=service.url, timeout=10) as http:
        game_id, tokens = quick_table(http, kind)
        received: list[GameEvent] = []
        spectator = Client(base_url=service.url)

        def follow() -> None:  # the defaults: no list of event names
            received.extend(stream_events(spectator, game_id, read_timeout=10, max_reconnects=2))

        reader = threading.Thread(target=follow, daemon=True)
        reader.start()
        last = play_to_the_end(http, kind, game_id, tokens)
        reader.join(20)
        assert not reader.is_alive(), "the stream went on after the match's end"
        assert [e.version for e in received] == list(range(1, last + 1))
        assert received[-1].type_ == f"{kind}.match_ended"
        page = http.get(f"/v1/games/{game_id}/events").json()["events"]
        assert [e["version"] for e in page if final(e)] == [last]  # the marker, on that one alone


def frames(*events: dict[str, Any]) -> bytes:
    return b"".join(
        b"id: %d\r\nevent: %s\r\ndata: %s\r\n\r\n"
        % (e["version"], e["type"].encode(), json.dumps(e).encode())
        for e in events
    )


PLAYED = {
    "version": 2,
    "at": "2026-01-01T00:00:00.000Z",
    "type": "cheat.cards_played",
    "data": {"type": "cards_played", "seat": 0, "count": 1, "rank": "7", "turn": 0,
             "next_rank": "8", "cards": None},
}  # fmt: skip
ENDED = {
    "version": 1,
    "at": "2026-01-01T00:00:00.000Z",
    "type": "cheat.match_ended",
    "data": {"type": "match_ended", "winners": [0], "points": [7, 5]},
    "final": False,  # never sent so: it only shows that the name alone does not stop a stream
}


def test_the_stream_stops_on_the_marker_not_on_an_events_name() -> None:
    """Whatever the game and its event's name, the event marked `final` ends the stream; an
    event named like a match's end but not marked so does not."""
    third = PLAYED | {"version": 3, "final": True}  # as a game unknown to the helper marks it
    after = PLAYED | {"version": 4}
    body = frames(ENDED, PLAYED, third, after)
    transport = httpx.MockTransport(
        lambda request: httpx.Response(
            200, headers={"Content-Type": "text/event-stream"}, content=body
        )
    )
    client = Client(base_url="http://kronikas.test")
    client.set_httpx_client(httpx.Client(base_url="http://kronikas.test", transport=transport))
    events = list(stream_events(client, "g", max_reconnects=0))
    assert [e.version for e in events] == [1, 2, 3]
    assert final(third) and not final(ENDED) and not final({"final": "yes"})
