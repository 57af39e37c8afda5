"""The seat socket's contract, from outside: a real service process, a real WebSocket.

Who may open one and as whom, what it pushes (the stream's events, redacted the same), what a
command over it answers (HTTP's bytes and problems, in HTTP's idempotency record), resuming
without a gap or a repeat, the close codes of a bad start, heartbeats and the idle time-out, and
a token that loses its seat while its socket is open.
"""

from __future__ import annotations

import json
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus

from tests.api.tables import Table, Tables, auth, candidates, game_moves, move
from tests.conftest import ServiceProcess, serving
from tests.socket.wire import answer, closed, greeted, next_of, opened, say, versions_until

IDLE_S = 3
FRONTEND = "https://frontend.example"
"""A web frontend the service's `CORS_ORIGINS` lists."""


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """A service whose socket times are short enough to watch (hello 1 s, heartbeat 1 s, idle
    3 s), and one web frontend in its `CORS_ORIGINS`."""
    log = tmp_path_factory.mktemp("socket") / "service.log"
    with serving(
        redis_url,
        log,
        SOCKET_HELLO_S="1",
        SOCKET_HEARTBEAT_S="1",
        SOCKET_IDLE_S=str(IDLE_S),
        CORS_ORIGINS=FRONTEND,
        LOG_LEVEL="INFO",
    ) as server:
        yield server
    assert "seat_" not in log.read_text(), "a token was logged"


@pytest.fixture
async def http(service: ServiceProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        yield client


async def events_of(http: httpx.AsyncClient, table: Table, token: str | None) -> list[Any]:
    r = await http.get(f"/v1/games/{table.id}/events", headers=auth(token))
    assert r.status_code == 200, r.text
    events: list[Any] = r.json()["events"]
    return events


def sent(id: str, command: str, if_match: int | None = None) -> str:
    """A command message around a command's exact JSON text (its idempotency body)."""
    tail = "}" if if_match is None else f',"if_match":{if_match}}}'
    return f'{{"type":"command","id":"{id}","command":' + command + tail


def result_of(id: str, body: str) -> str:
    """The `result` the server sends around an HTTP answer's body, byte for byte."""
    return f'{{"type":"result","id":"{id}","result":' + body + "}"


async def seat_on_turn(tables: Tables, table: Table) -> tuple[int, dict[str, Any]]:
    spectator = await tables.view(table)
    seat = spectator["turn"]
    return seat, await tables.view(table, table.players[seat])


async def test_each_viewer_hears_what_its_stream_would_say(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    viewers = [*table.players, table.host, None]
    for token in viewers:
        async with greeted(service.url, table.id, token) as (ws, welcome):
            view = await tables.view(table, token)
            me = view["me"]
            role = "player" if me else "host" if token else "spectator"
            assert welcome["type"] == "welcome" and welcome["role"] == role
            assert welcome["version"] == view["version"]
            assert welcome["seat"] == (me["seat"] if me else None)
            assert welcome["player_id"] == (me["id"] if me else None)
            assert (welcome["heartbeat_s"], welcome["idle_s"]) == (1, IDLE_S)
            assert welcome["max_bytes"] == 65536 and welcome["game"] is None
            pushed = await versions_until(ws, welcome["version"])
            # the same envelopes and redaction as a page of events (and the stream) for this token
            assert pushed == await events_of(http, table, token)


async def test_a_command_answers_what_http_answers_in_the_same_record(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    seat, view = await seat_on_turn(tables, table)
    command = json.dumps({"type": "play", "cards": view["me"]["hand"][:1]})
    async with greeted(service.url, table.id, table.players[seat], view["version"]) as (ws, _):
        await ws.send(sent("m-1", command, view["version"]))
        raw = await ws.recv()
        assert isinstance(raw, str)
        result = json.loads(raw)
        assert result["type"] == "result" and result["id"] == "m-1"
        # HTTP with the same Idempotency-Key and body: the same command, answered from its record
        r = await http.post(
            f"/v1/games/{table.id}/commands",
            content=command,
            headers=auth(table.players[seat])
            | {"Content-Type": "application/json", "Idempotency-Key": "m-1"},
        )
        assert r.status_code == 200
        # byte for byte: the socket's `result` holds exactly the HTTP answer's body
        assert raw == result_of("m-1", r.text)
        assert r.json()["version"] == view["version"] + len(r.json()["events"])
        # and the socket replays it too, the same again
        await ws.send(sent("m-1", command))
        assert await ws.recv() == raw
        # another body under the same id: HTTP's 422
        await say(ws, {"type": "command", "id": "m-1", "command": {"type": "call"}})
        problem = await next_of(ws, "problem")
        assert problem["id"] == "m-1" and problem["problem"]["code"] == "invalid_request"
    # and an id first used over HTTP is known to the socket
    seat, view = await seat_on_turn(tables, table)
    body = {"type": "play", "cards": view["me"]["hand"][:1]}
    r = await http.post(
        f"/v1/games/{table.id}/commands",
        content=json.dumps(body),
        headers=auth(table.players[seat])
        | {"Content-Type": "application/json", "Idempotency-Key": "h-1"},
    )
    assert r.status_code == 200
    async with greeted(service.url, table.id, table.players[seat], r.json()["version"]) as (ws, _):
        await ws.send(sent("h-1", json.dumps(body)))
        assert await ws.recv() == result_of("h-1", r.text)


async def test_a_command_retried_on_a_new_socket_after_the_table_moved_on_gets_its_result(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    """A client whose socket dropped before its `result` came reconnects and sends the command
    again with its `id`, after the other seat has moved: the first result, byte for byte, and
    nothing applied twice."""
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    seat, view = await seat_on_turn(tables, table)
    command = json.dumps({"type": "play", "cards": view["me"]["hand"][:1]})
    token = table.players[seat]
    async with greeted(service.url, table.id, token, view["version"]) as (ws, _):
        await ws.send(sent("m-1", command, view["version"]))
        first = await ws.recv()
    assert isinstance(first, str) and json.loads(first)["id"] == "m-1"
    theirs = await move(tables, table, random.Random(3))  # the other seat: the only one to act
    assert theirs["seat"] != seat
    moved = theirs["version"]
    async with greeted(service.url, table.id, token, moved) as (ws, _):
        await ws.send(sent("m-1", command, view["version"]))
        assert await ws.recv() == first
    assert (await tables.view(table))["version"] == moved, "nothing applied twice"


async def test_every_refusal_is_the_problem_http_answers(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    seat, view = await seat_on_turn(tables, table)
    other = 1 - seat
    hand = view["me"]["hand"]
    not_held = next(c for c in ("7H", "8H", "9H", "10H", "UH", "OH", "KH", "AH") if c not in hand)
    cases: list[tuple[str | None, dict[str, Any], int | None, int, str]] = [
        (table.players[other], {"type": "play", "cards": hand[:1]}, None, 409, "not_your_turn"),
        (table.players[seat], {"type": "play", "cards": [not_held]}, None, 409, "illegal_move"),
        (table.players[seat], {"type": "play", "cards": hand[:1]}, 1, 412, "version_mismatch"),
        (table.players[seat], {"type": "nonsense"}, None, 422, "invalid_request"),
        (table.players[seat], {"type": "play", "cards": hand[:1], "x": 1}, None, 422, None),
        (table.host, {"type": "play", "cards": hand[:1]}, None, 403, "forbidden"),
        (None, {"type": "play", "cards": hand[:1]}, None, 401, "unauthorized"),
    ]
    for n, (token, command, if_match, status, code) in enumerate(cases):
        headers = auth(token) | ({"If-Match": f'"{if_match}"'} if if_match else {})
        r = await http.post(f"/v1/games/{table.id}/commands", json=command, headers=headers)
        assert r.status_code == status, r.text
        async with greeted(service.url, table.id, token, view["version"]) as (ws, _):
            message: dict[str, Any] = {"type": "command", "id": f"r-{n}", "command": command}
            if if_match is not None:
                message["if_match"] = if_match
            await say(ws, message)
            problem = await next_of(ws, "problem")
            assert problem["id"] == f"r-{n}"
            assert problem["problem"]["status"] == status
            assert problem["problem"]["code"] == r.json()["code"] == (code or "invalid_request")
            assert problem["problem"]["title"] == r.json()["title"]
            if token is not None:  # (without one, the detail says where a socket sends it)
                assert problem["problem"]["detail"] == r.json()["detail"]
            assert problem["retry_after"] is None
            # a malformed message is a problem too, without an id, and the socket stays open
            for bad in ('{"type":"command","id":"x y","command":{}}', "[1", '{"type":"hello"}'):
                await ws.send(bad)
                problem = await next_of(ws, "problem")
                assert problem["id"] is None and problem["problem"]["code"] == "invalid_request"
            await say(ws, {"type": "ping"})
            assert (await next_of(ws, "pong")) == {"type": "pong"}


async def test_a_bad_start_closes_with_its_code(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("thirty_one", 2)
    starts: list[tuple[str, str | None, int, str]] = [
        (table.id, "seat_" + "A" * 32, 4401, "unauthorized"),  # a token of no table
        (table.id, "not a token!", 4401, "unauthorized"),  # malformed
        ("0123456789abcdef", None, 4404, "not_found"),
        ("x" * 80, table.players[0], 4404, "not_found"),
    ]
    for game_id, token, code, reason in starts:
        async with opened(service.url, game_id) as ws:
            await say(ws, {"type": "hello", "token": token})
            assert await closed(ws) == (code, reason)
    for first in ('{"type":"ping"}', "hello", '{"type":"hello","after":-1}', '{"type":"hi"}'):
        async with opened(service.url, table.id) as ws:
            await ws.send(first)
            assert await closed(ws) == (4400, "bad_hello")
    async with opened(service.url, table.id) as ws:  # nothing said: closed after SOCKET_HELLO_S
        assert await closed(ws) == (4408, "hello_timeout")
    async with opened(service.url, table.id) as ws:
        await ws.send(b'{"type":"hello"}')
        assert await closed(ws) == (1003, "binary")
    async with opened(service.url, table.id) as ws:
        await ws.send('{"type":"hello","token":"%s"}' % ("a" * 70_000))
        assert (await closed(ws))[0] == 1009  # uvicorn refuses the frame itself (ws_max_size)
    async with greeted(service.url, table.id) as (ws, _):
        await ws.send("[" + " " * 70_000 + "]")
        assert (await closed(ws))[0] == 1009  # uvicorn refuses the frame itself (ws_max_size)


async def test_a_game_played_over_sockets_reaches_each_once_in_order_and_resumes(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    rng = random.Random(27)
    tables = Tables(http)
    table = await tables.ready("cheat", 2, seed=27)
    seen: list[list[int]] = [[], []]
    done = False
    async with (
        greeted(service.url, table.id, table.players[0]) as (ws0, _),
        greeted(service.url, table.id, table.players[1]) as (ws1, _),
    ):
        sockets = [ws0, ws1]
        views: list[dict[str, Any] | None] = [None, None]
        commands = 0
        while not done:
            # whoever may move does, over its socket (reading what was pushed to it first)
            spectator = await tables.view(table)
            if spectator["status"] == "finished":
                done = True
                break
            for seat in range(2):
                views[seat] = await tables.view(table, table.players[seat])
            movers = [s for s in range(2) if game_moves(views[s] or {})]
            seat = rng.choice(movers)
            view = views[seat]
            assert view is not None
            for command in candidates(view, rng):
                commands += 1
                await say(
                    sockets[seat],
                    {
                        "type": "command",
                        "id": f"c-{commands}",
                        "command": command,
                        "if_match": view["version"],
                    },
                )
                pushed: list[dict[str, Any]] = []
                answer_ = await answer(sockets[seat], pushed)
                seen[seat] += [e["version"] for e in pushed]
                if answer_["type"] == "result":
                    seen[seat] += [e["version"] for e in answer_["result"]["events"]]
                    break
                assert answer_["problem"]["code"] == "illegal_move", answer_
        last = spectator["version"]
        for seat, ws in enumerate(sockets):
            if not seen[seat] or seen[seat][-1] < last:
                pushed = await versions_until(ws, last)
                seen[seat] += [e["version"] for e in pushed]
            # every version exactly once and in order: in its pushes or its own results
            assert seen[seat] == list(range(1, last + 1)), seat
    # a socket lost at version v resumes from v: nothing skipped, nothing repeated
    cut = last // 2
    async with greeted(service.url, table.id, table.players[1], after=cut) as (ws, welcome):
        assert welcome["version"] == last
        pushed = await versions_until(ws, last)
        assert [e["version"] for e in pushed] == list(range(cut + 1, last + 1))
        assert pushed == (await events_of(http, table, table.players[1]))[cut:]


async def test_views_come_after_events_when_asked(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    seat, view = await seat_on_turn(tables, table)
    other = table.players[1 - seat]
    async with greeted(service.url, table.id, other, view["version"], views=True) as (ws, hi):
        assert hi["game"] == await tables.view(table, other)
        r = await tables.send(table, seat, {"type": "play", "cards": view["me"]["hand"][:1]})
        assert r.status_code == 200
        pushed = await next_of(ws, "events")
        assert pushed["version"] == r.json()["version"]
        shown = await next_of(ws, "view")
        assert shown == {
            "type": "view",
            "game": await tables.view(table, other),
            "version": pushed["version"],
        }


async def test_heartbeats_and_the_idle_time_out(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.ready("thirty_one", 2)
    async with greeted(service.url, table.id, table.players[0]) as (ws, welcome):
        await versions_until(ws, welcome["version"])
        beat = await next_of(ws, "heartbeat", timeout=5)
        assert beat == {"type": "heartbeat", "version": welcome["version"]}
        # pings keep it open past the idle time-out
        for _ in range(IDLE_S + 1):
            await say(ws, {"type": "ping"})
            await next_of(ws, "pong")
            await next_of(ws, "heartbeat", timeout=5)
        # silence closes it
        assert await closed(ws, timeout=IDLE_S + 5) == (4408, "idle")


async def test_a_player_who_leaves_before_the_start_loses_its_socket(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    tables = Tables(http)
    table = await tables.create("cheat")
    for _ in range(3):
        await tables.join(table)
    now = (await tables.view(table))["version"]
    async with (
        greeted(service.url, table.id, table.players[0], now) as (leaver, _),
        greeted(service.url, table.id, table.players[2], now) as (stayer, hi),
    ):
        assert hi["seat"] == 2
        r = await tables.send(table, 0, {"type": "leave"})
        assert r.status_code == 200, r.text
        assert await closed(leaver) == (4401, "unauthorized")
        # the player after it moved down a seat, and goes on hearing the table as itself
        pushed = await next_of(stayer, "events")
        assert [e["type"] for e in pushed["events"]] == ["cheat.player_left"]
        assert pushed["events"][0]["version"] == now + 1
    async with opened(service.url, table.id) as ws:
        await say(ws, {"type": "hello", "token": table.players[0]})
        assert await closed(ws) == (4401, "unauthorized")


async def test_a_leave_over_the_socket_is_answered_though_its_player_is_gone(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    """A `leave` sent at once after `hello`, while the socket still owes the table's earlier
    events: the leave is applied, so the socket answers its `result` (not a 401 for a player
    who is gone only because of it), then closes 4401."""
    tables = Tables(http)
    for _ in range(3):
        table = await tables.create("cheat")
        for _ in range(3):
            await tables.join(table)
        async with opened(service.url, table.id) as ws:
            await say(ws, {"type": "hello", "token": table.players[0], "after": 0})
            await say(ws, {"type": "command", "id": "bye", "command": {"type": "leave"}})
            assert (await next_of(ws, "welcome"))["seat"] == 0
            answered = await answer(ws)
            assert (answered["type"], answered["id"]) == ("result", "bye"), answered
            assert await closed(ws) == (4401, "unauthorized")
        assert len((await tables.view(table))["players"]) == 2


async def test_a_page_on_another_origin_cannot_open_a_socket(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    """A browser names the page opening a socket in `Origin`, and no same-origin rule stops a
    WebSocket: the service refuses every origin but its own and those of `CORS_ORIGINS`."""
    tables = Tables(http)
    table = await tables.ready("cheat", 2)
    own = service.url  # the web table the service serves: http://127.0.0.1:<port>
    for origin in (None, own, FRONTEND):
        async with greeted(service.url, table.id, table.players[0], origin=origin) as (_, hi):
            assert hi["seat"] == 0, origin
    refused = [
        "https://elsewhere.example",
        "null",  # a sandboxed frame, a file
        own.replace("127.0.0.1", "localhost"),  # another name: another origin
        own + "/path",
        FRONTEND + "/",  # an origin has no path: compared as the REST API's CORS and /mcp do
        "https://frontend.example.evil",
        "http://frontend.example",  # the listed one is https
        "ws://" + own.split("//", 1)[1],
        "",
    ]
    for origin in refused:
        with pytest.raises(InvalidStatus) as refusal:
            async with opened(service.url, table.id, origin=origin):
                pass
        response = refusal.value.response
        assert response.status_code == 403, origin
        assert response.headers["content-type"] == "application/problem+json", origin
        problem = json.loads(response.body)
        assert problem["code"] == "forbidden" and problem["status"] == 403, problem
        assert "CORS_ORIGINS" in problem["detail"]
    assert service.log.read_text().count('"msg": "socket refused"') >= len(refused)
