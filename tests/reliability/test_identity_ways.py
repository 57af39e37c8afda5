"""A token is its player, on every way in, across a leave before the start (docs/api.md,
"Identity and tokens", the seat socket's "Identity", MCP; docs/security.md, "Hidden cards").

On two service processes on one Redis, the second holding the table before the leave:
- an MCP `wait` pending while its player leaves is refused (`unauthorized`) and shows nothing;
- a leaver's token, used at once after the leave on the process that held the table, is refused
  on every way in: the view, events, a long-poll, past views, the record, the stream (header and
  `?token=`), a socket's `hello`, and every MCP tool; its open stream, long-poll and socket end;
- a player whose seat moved down (2 → 1) sees its own hand under its new seat only, on its
  socket (events and views), stream, long-polls, MCP calls, past views and record, at every
  version across the renumbering: never a card another seat holds at that version.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from tests.api.tables import Table, Tables, auth, move, stream_events
from tests.conftest import ServiceProcess, serving
from tests.mcp.agent import ToolFailed, call, connected
from tests.socket.wire import closed, greeted, opened, say

WAIT_S = 10.0
"""Bound on each wait: a stream ends, a long-poll or an MCP wait answers well within it."""
LONG = 20
"""The `wait` of long-polls and MCP waits left open across a change: longer than the test."""


@pytest.fixture(scope="module")
def two(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServiceProcess]]:
    logs = tmp_path_factory.mktemp("identity_ways")
    with serving(redis_url, logs / "a.log") as a, serving(redis_url, logs / "b.log") as b:
        yield [a, b]


@contextlib.asynccontextmanager
async def clients(two: list[ServiceProcess]) -> AsyncIterator[tuple[httpx.AsyncClient, ...]]:
    async with (
        httpx.AsyncClient(base_url=two[0].url, timeout=40) as a,
        httpx.AsyncClient(base_url=two[1].url, timeout=40) as b,
    ):
        yield a, b


async def socket_reader(ws: ClientConnection, into: list[dict[str, Any]]) -> tuple[int, str]:
    """Every message a socket receives, into `into`, until it closes: its close code, reason."""
    try:
        while True:
            text = await ws.recv()
            assert isinstance(text, str)
            into.append(json.loads(text))
    except ConnectionClosed as gone:
        assert gone.rcvd is not None, f"closed without a close frame: {gone}"
        return gone.rcvd.code, gone.rcvd.reason


async def open_table(tables: Tables, kind: str, players: int, seed: int) -> tuple[Table, list[str]]:
    table = await tables.create(kind, seed=seed)
    ids = [(await tables.join(table))["player_id"] for _ in range(players)]
    return table, ids


def strings(value: Any) -> set[str]:
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def refused_401(r: httpx.Response, what: str) -> None:
    assert r.status_code == 401, f"{what}: {r.status_code} {r.text[:300]}"
    assert r.json()["code"] == "unauthorized", f"{what}: {r.text[:300]}"


async def mcp_refused(client: Any, tool: str, arguments: dict[str, Any]) -> None:
    with pytest.raises(ToolFailed) as refused:
        await call(client, tool, arguments)
    assert refused.value.problem["code"] == "unauthorized", (tool, refused.value.text)


MCP_TOOLS: list[tuple[str, dict[str, Any]]] = [
    ("get_view", {}),
    ("wait", {"after_version": 0, "timeout_s": 0}),
    ("wait", {"after_version": 0, "timeout_s": 2}),
    ("get_events", {"after_version": 0}),
    ("record", {"after_version": 0}),
    ("make_move", {"move": {"type": "leave"}}),
    ("leave_table", {}),
]


@pytest.mark.parametrize("through", ["http", "mcp"])
@pytest.mark.parametrize("leaver", [0, 1, 2])
async def test_an_mcp_wait_pending_across_its_players_leave_is_refused(
    two: list[ServiceProcess], leaver: int, through: str
) -> None:
    async with clients(two) as (http_a, _):
        tables = Tables(http_a)
        table, _ = await open_table(tables, "cheat", 3, seed=21 + leaver)
        now = (await tables.view(table))["version"]
        token = table.players[leaver]
        async with connected(two[1].url) as on_b, connected(two[0].url) as on_a:
            seat = {"table_id": table.id, "token": token}
            assert (await call(on_b, "get_view", seat))["seat"] == leaver  # b holds the table
            waiting = asyncio.create_task(
                call(on_b, "wait", {**seat, "after_version": now, "timeout_s": LONG})
            )
            await asyncio.sleep(0.3)
            assert not waiting.done(), "the wait answered before anything happened"
            if through == "http":
                r = await tables.send(table, leaver, {"type": "leave"})
                assert r.status_code == 200, r.text
            else:
                await call(on_a, "leave_table", seat)
            with pytest.raises(ToolFailed) as refused:
                await asyncio.wait_for(waiting, WAIT_S)
            assert refused.value.problem["code"] == "unauthorized", refused.value.text
            for tool, arguments in MCP_TOOLS:
                await mcp_refused(on_b, tool, {**seat, **arguments})
            # the table goes on without it; the token still learns nothing of it
            table.players.pop(leaver)
            await tables.start(table)
            for tool, arguments in MCP_TOOLS:
                await mcp_refused(on_b, tool, {**seat, **arguments})
            async with connected(two[1].url, token=token) as bearer:
                for tool, arguments in MCP_TOOLS:
                    await mcp_refused(bearer, tool, {"table_id": table.id, **arguments})


@pytest.mark.parametrize("leaver", [0, 1, 2])
async def test_a_leavers_token_is_refused_at_once_on_every_way_in_on_a_process_that_held_the_table(
    two: list[ServiceProcess], leaver: int
) -> None:
    async with clients(two) as (http_a, http_b):
        tables = Tables(http_a)
        table, _ = await open_table(tables, "cheat", 3, seed=31 + leaver)
        token = table.players[leaver]
        base = f"/v1/games/{table.id}"
        # b reads the table with the token on every way first: it holds it
        now = (await Tables(http_b).view(table, token))["version"]
        assert (await Tables(http_b).view(table, token))["me"]["seat"] == leaver
        r = await http_b.get(f"{base}/events", headers=auth(token))
        assert r.status_code == 200, r.text
        r = await http_b.get(f"{base}/views", headers=auth(token))
        assert r.status_code == 200, r.text
        got_stream: list[dict[str, Any]] = []
        got_socket: list[dict[str, Any]] = []
        async with (
            http_b.stream("GET", f"{base}/stream", params={"token": token}) as stream,
            greeted(two[1].url, table.id, token, now) as (ws, hi),
            connected(two[1].url) as mcp_b,
        ):
            assert stream.status_code == 200 and hi["seat"] == leaver
            reading = asyncio.create_task(stream_events(stream, got_stream))
            socket = asyncio.create_task(socket_reader(ws, got_socket))
            poll = asyncio.create_task(
                http_b.get(
                    f"{base}/events", params={"after": now, "wait": LONG}, headers=auth(token)
                )
            )
            await asyncio.sleep(0.3)
            r = await tables.send(table, leaver, {"type": "leave"})
            assert r.status_code == 200, r.text
            left_at = r.json()["version"]
            # at once, on b: every way in refuses it
            attempts = await asyncio.gather(
                http_b.get(base, headers=auth(token)),
                http_b.get(f"{base}/events", headers=auth(token)),
                http_b.get(f"{base}/events", params={"token": token}, headers=auth(token)),
                http_b.get(f"{base}/views", headers=auth(token)),
                http_b.get(f"{base}/record", headers=auth(token)),
                http_b.get(f"{base}/stream", headers=auth(token)),
                http_b.get(f"{base}/stream", params={"token": token}),
                http_b.post(f"{base}/commands", json={"type": "leave"}, headers=auth(token)),
            )
            for n, refused in enumerate(attempts):
                refused_401(refused, f"HTTP way {n} on b right after the leave")
            for tool, arguments in MCP_TOOLS:
                await mcp_refused(mcp_b, tool, {"table_id": table.id, "token": token, **arguments})
            async with opened(two[1].url, table.id) as late:
                await say(late, {"type": "hello", "token": token, "after": 0})
                assert await closed(late) == (4401, "unauthorized")
            # what was open on b ends: the stream, the long-poll (401), the socket (4401)
            await asyncio.wait_for(reading, WAIT_S)
            refused_401(await asyncio.wait_for(poll, WAIT_S), "long-poll open across the leave")
            assert await asyncio.wait_for(socket, WAIT_S) == (4401, "unauthorized")
        table.players.pop(leaver)
        await tables.start(table)
        # it received nothing made after its leave
        assert all(int(e["version"]) <= left_at for e in got_stream), got_stream
        pushed = [e for m in got_socket if m["type"] == "events" for e in m["events"]]
        assert all(e["version"] <= left_at for e in pushed), got_socket
        assert not [m for m in got_socket if m["type"] == "view"], got_socket
        for way in (
            http_b.get(base, headers=auth(token)),
            http_b.get(f"{base}/views", headers=auth(token)),
            http_a.get(f"{base}/events", headers=auth(token)),
        ):
            refused_401(await way, "after the start")


MOVES = 12
"""Moves played after the start: enough for plays and calls, short of a round's end."""


async def test_a_player_moved_down_sees_its_own_hand_only_on_every_way(
    two: list[ServiceProcess],
) -> None:
    rng = random.Random(41)
    async with clients(two) as (http_a, http_b):
        tables = Tables(http_a)
        table, ids = await open_table(tables, "cheat", 4, seed=41)
        mover, mover_id = table.players[2], ids[2]
        joined = 4  # created at 1, the joins at 2-5
        base = f"/v1/games/{table.id}"
        now = (await tables.view(table))["version"]
        received: list[tuple[str, int, Any]] = []
        """(way, version, what) for everything the mover received."""
        got_stream: list[dict[str, Any]] = []
        got_socket: list[dict[str, Any]] = []

        async def long_polls() -> None:
            after = now
            while True:
                r = await http_b.get(
                    f"{base}/events", params={"after": after, "wait": LONG}, headers=auth(mover)
                )
                assert r.status_code == 200, r.text
                for event in r.json()["events"]:
                    received.append(("long-poll", event["version"], event))
                after = r.json()["version"]

        async with (
            http_b.stream("GET", f"{base}/stream", headers=auth(mover)) as stream,
            greeted(two[1].url, table.id, mover, 0, views=True) as (ws, hi),
            connected(two[1].url) as mcp_b,
        ):
            assert hi["seat"] == 2 and hi["player_id"] == mover_id
            seat = {"table_id": table.id, "token": mover}

            async def mcp_waits() -> None:
                after = now
                while True:
                    answer = await call(
                        mcp_b, "wait", {**seat, "after_version": after, "timeout_s": LONG}
                    )
                    received.append(("mcp wait", answer["version"], answer))
                    after = answer["version"]

            tasks = [
                asyncio.create_task(stream_events(stream, got_stream)),
                asyncio.create_task(socket_reader(ws, got_socket)),
                asyncio.create_task(long_polls()),
                asyncio.create_task(mcp_waits()),
            ]
            await asyncio.sleep(0.3)
            r = await tables.send(table, 1, {"type": "leave"})
            assert r.status_code == 200, r.text
            left_at = r.json()["version"]
            table.players.pop(1)
            ids.pop(1)
            dealt = (await tables.start(table))["version"]
            view = await call(mcp_b, "get_view", seat)
            received.append(("mcp get_view", view["version"], view))
            assert view["seat"] == 1 and view["view"]["me"]["id"] == mover_id
            last = dealt
            for _ in range(MOVES):
                last = (await move(tables, table, rng))["version"]
                view = await call(mcp_b, "get_view", seat)
                received.append(("mcp get_view", view["version"], view))

            async def caught_up() -> None:
                while not (
                    got_stream
                    and int(got_stream[-1]["version"]) >= last
                    and any(m.get("version") == last for m in got_socket if m["type"] == "view")
                    and any(w == "long-poll" and v >= last for w, v, _ in received)
                    and any(w == "mcp wait" and v >= last for w, v, _ in received)
                ):
                    for task in tasks:  # a way that failed says why
                        if task.done():
                            task.result()
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(caught_up(), 3 * WAIT_S)
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        for event in got_stream:
            received.append(("stream", int(event["version"]), event))
        for message in got_socket:
            if message["type"] == "events":
                for event in message["events"]:
                    received.append(("socket events", event["version"], event))
            elif message["type"] == "view":
                received.append(("socket view", message["version"], message["game"]))
        past, _ = await Tables(http_b).past_views(table, mover)
        for view in past:
            received.append(("past view", view["version"], view))
        r = await http_b.get(f"{base}/record", params={"limit": 500}, headers=auth(mover))
        assert r.status_code == 200, r.text
        received.append(("record", last, r.json()))

        # what every other seat held at each version, by their own past views, less the cards
        # the mover may know: any it held itself, any a spectator was shown (a call's cards)
        others: dict[int, set[str]] = {}
        for token in (t for t in table.players if t != mover):
            theirs, _ = await Tables(http_a).past_views(table, token)
            for other in theirs:
                if other["me"] is not None:
                    others.setdefault(other["version"], set()).update(other["me"]["hand"])
        own = {v["version"]: v for v in past}
        assert sorted(own) == list(range(1, last + 1)), sorted(own)
        own_ever = set().union(*(set(v["me"]["hand"]) for v in past if v["me"] is not None))
        r = await http_b.get(f"{base}/events", params={"after": 0})
        assert r.status_code == 200 and not r.json()["more"], r.text
        public = strings(r.json()["events"])
        assert others[dealt] and own[dealt]["me"]["hand"]
        secret = {v: held - own_ever - public for v, held in others.items()}

        for way, version, what in received:
            held = set().union(*secret.values()) if way == "record" else secret.get(version, set())
            shown = strings(what) & held
            assert not shown, f"{way} at version {version} shows another seat's cards {shown}"
        for way, version, what in received:
            me = None
            if way in ("socket view", "past view"):
                me = what["me"]
            elif way in ("mcp get_view", "mcp wait"):
                me = what["view"]["me"]
                assert what["seat"] == (1 if version >= left_at else 2), (way, version, what)
            if me is None and way == "past view" and version < joined:
                continue
            if me is not None or way != "stream":
                assert me is not None or way not in ("socket view", "past view"), (way, version)
            if me is not None:
                assert me["id"] == mover_id, (way, version, me)
                assert me["seat"] == (1 if version >= left_at else 2), (way, version, me)
                if version >= dealt:
                    assert sorted(me["hand"]) == sorted(own[version]["me"]["hand"]), (way, version)
            if way in ("stream", "socket events", "long-poll") and what["type"].endswith(
                "round_dealt"
            ):
                hands = what["data"]["hands"]
                assert [i for i, h in enumerate(hands) if h is not None] == [1], (way, hands)
                assert sorted(hands[1]) == sorted(own[version]["me"]["hand"]), way
        ways = {way for way, _, _ in received}
        assert ways >= {
            "stream",
            "socket events",
            "socket view",
            "long-poll",
            "mcp wait",
            "mcp get_view",
            "past view",
            "record",
        }, ways
