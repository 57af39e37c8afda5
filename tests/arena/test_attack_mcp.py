"""Attacks on a set's tables through `/mcp`, the seat socket and an entrant token, while the set
is in play (docs/arena.md, Duplicate deals; docs/security.md, who may do what): every MCP tool
that takes a table id refuses a stranger — no token (409 `set_in_play`), the other table's seat
token or a made-up one (`unauthorized`: a token this table does not know) — and shows no card;
the lobby never lists the set's tables; an entrant's own `ke_…` token is no table's token, on
any way in; and a spectator's socket `hello` is closed 4400 `set_in_play`, exactly."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from litestar.exceptions import WebSocketDisconnect

from tests.arena.conftest import Client, arena_app, bearer, queue, register, two_arenas
from tests.arena.test_attack_tables import seated
from tests.mcp.agent import pick
from tests.reliability.test_leaks import cards_in, named

MCP_HEADERS = {"Accept": "application/json, text/event-stream"}
STILL = {"arena_fill_s": 600, "arena_turn_s": 3600}
"""Four real entrants make a set (no standing entrant plays), and no seat's clock runs out
during a test: nothing moves a table but its seats."""


async def a_set(apps: list[Client]) -> list[tuple[str, dict[str, Any]]]:
    """Four entrants seated in one 2-seat set (two tables): each one's entrant token and
    ticket, the entrants registered and queued on `apps` in turn."""
    entrants = []
    for i in range(4):
        app = apps[i % len(apps)]
        _, token = await register(app, f"Mcp {i}", peer=f"198.51.100.{120 + i}")
        await queue(app, token)
        entrants.append((app, token))
    tickets = await asyncio.gather(*(seated(app, token) for app, token in entrants))
    assert len({t["set_id"] for t in tickets}) == 1 and len({t["table_id"] for t in tickets}) == 2
    return [(token, ticket) for (_, token), ticket in zip(entrants, tickets, strict=True)]


async def tool(
    client: Client, name: str, arguments: dict[str, Any], connection: str | None = None
) -> tuple[bool, str, dict[str, Any] | None]:
    """One `tools/call` at `/mcp` (stateless: no session to open first), with `connection` as
    the connection's bearer token: whether it is a tool error, its text, its structured result."""
    message = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    headers = MCP_HEADERS | (bearer(connection) if connection else {})
    r = await client.post("/mcp", json=message, headers=headers)
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    text = "".join(block.get("text", "") for block in result["content"])
    return bool(result.get("isError")), text, result.get("structuredContent")


def refused(name: str, answer: tuple[bool, str, Any], code: str) -> dict[str, Any]:
    """The answer is a tool error of `code`, a bare problem (no view, no moves), naming no
    card, by its code or in words."""
    is_error, text, _ = answer
    assert is_error, (name, text[:300])
    problem = json.loads(text)
    assert problem["code"] == code, (name, problem)
    assert set(problem) <= {"code", "detail"}, (name, problem)
    assert not list(cards_in(problem)) and not named(text), (name, text)
    return problem


async def version_of(client: Client, table: str, seat_token: str) -> int:
    r = await client.get(f"/v1/games/{table}", headers=bearer(seat_token))
    assert r.status_code == 200, r.text
    return int(r.json()["version"])


async def closed_with(client: Client, table: str, token: str | None) -> tuple[int, str]:
    """The close code and reason of a seat socket at `table` after `hello` with `token`."""
    ws = await client.websocket_connect(f"/v1/games/{table}/socket")
    with ws:
        ws.send_json({"type": "hello", "token": token})
        with pytest.raises(WebSocketDisconnect) as closed:
            text = ws.receive_text(timeout=10)
            raise AssertionError(f"welcomed: {text[:300]}")
    return closed.value.code, closed.value.detail


async def test_no_mcp_tool_opens_a_table_in_play_to_a_stranger(redis_url: str) -> None:
    """A user checks, on the other instance, every tool that takes a table id against one
    table of a set: without a token the reads answer `set_in_play` (a `wait` and the acting tools
    need a token: `unauthorized`; a join: `set_in_play`); with the other table's seat token or a
    made-up one, `unauthorized`. No answer holds a card, the other token, or more than the
    problem; and `list_tables` lists neither table, whatever the filter or page."""
    async with two_arenas(redis_url, **STILL) as (a, b):
        seats = await a_set([a, b])
        target = seats[0][1]
        other = next(t for _, t in seats if t["table_id"] != target["table_id"])
        table = target["table_id"]
        before = await version_of(a, table, target["token"])
        # a token shaped as the seat tokens are, of letters of its own (seed 7)
        rng = random.Random(7)
        prefix, _, rest = target["token"].partition("_")  # `seat_…`
        alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
        made_up = f"{prefix}_" + "".join(rng.choice(alphabet) for _ in rest)
        assert made_up != target["token"] and len(made_up) == len(target["token"])
        move = {"type": "play", "cards": ["7H"]}
        calls: dict[str, dict[str, Any]] = {
            "get_view": {},
            "get_events": {"after_version": 0},
            "record": {"after_version": 0},
            "wait": {"after_version": 0, "timeout_s": 0},
            "make_move": {"move": move},
            "leave_table": {},
            "start_table": {},
        }
        spectator = {"get_view": "set_in_play", "get_events": "set_in_play"}
        spectator |= {"record": "set_in_play"}  # the rest need a token: `unauthorized`
        for name, arguments in calls.items():
            args = {"table_id": table, **arguments}
            answer = await tool(b, name, args)
            refused(f"{name}, no token", answer, spectator.get(name, "unauthorized"))
            for who, token in (("the other table's seat", other["token"]), ("made up", made_up)):
                key = "host_token" if name == "start_table" else "token"
                for by_connection in (False, True):
                    given = args if by_connection else args | {key: token}
                    answer = await tool(b, name, given, token if by_connection else None)
                    problem = refused(f"{name}, {who}", answer, "unauthorized")
                    assert token not in answer[1], (name, problem)
        answer = await tool(b, "join_table", {"table_id": table, "name": "Spy"})
        refused("join_table", answer, "set_in_play")

        # the lobby: neither table of the set, by any filter, on any page
        tables = {t["table_id"] for _, t in seats}
        for filters in ({}, {"status": "playing"}, {"status": "open"}, {"kind": "cheat"}):
            for offset in range(0, 500, 100):
                is_error, text, listed = await tool(
                    a, "list_tables", {**filters, "limit": 100, "offset": offset}
                )
                assert not is_error and listed is not None, text
                assert not {t["id"] for t in listed["tables"]} & tables, filters
                assert not any(t in text for t in tables), filters
                if not listed["more"]:
                    break

        # the scanner is awake: the seat itself, through the same tool, sees its hand
        is_error, text, mine = await tool(b, "get_view", {"table_id": table}, target["token"])
        assert not is_error and mine is not None, text
        assert mine["view"]["me"]["hand"] and set(mine["view"]["me"]["hand"]) <= {
            card for card, _ in cards_in(json.loads(text))
        }
        assert await version_of(a, table, target["token"]) == before


async def test_an_entrants_own_token_is_no_token_of_its_table(redis_url: str) -> None:
    """The entrant whose turn it is presents its `ke_…` token, not its seat token, at its own
    table: the view, the events (a page and a long-poll), the stream (header and `?token=`), a
    legal move and a leave over HTTP are 401 `unauthorized`; the socket's `hello` is closed 4401;
    every MCP table tool (the token as argument or as the connection's) is `unauthorized`. The
    table's version is the same afterwards, and the seat still holds its hand."""
    async with arena_app(redis_url, **STILL) as a:
        seats = await a_set([a])
        turns = []
        for entrant, ticket in seats:
            _, text, view = await tool(
                a, "get_view", {"table_id": ticket["table_id"], "token": ticket["token"]}
            )
            assert view is not None, text
            turns.append((view["your_turn"] and view["may_act"], entrant, ticket, view))
        _, entrant, ticket, view = next(t for t in turns if t[0])
        assert entrant.startswith("ke_")
        table, seat_token = ticket["table_id"], ticket["token"]
        move = pick(view, random.Random(11))  # a move the seat may make now
        before = await version_of(a, table, seat_token)

        for path in ("", "/events", "/events?wait=0.3", "/views", "/record"):
            r = await a.get(f"/v1/games/{table}{path}", headers=bearer(entrant))
            assert r.status_code == 401 and r.json()["code"] == "unauthorized", (path, r.text)
        for path, headers in (("/stream", bearer(entrant)), (f"/stream?token={entrant}", {})):
            r = await asyncio.wait_for(a.get(f"/v1/games/{table}{path}", headers=headers), 20)
            assert r.status_code == 401 and r.json()["code"] == "unauthorized", (path, r.text)
        for command in (move, {"type": "leave"}):
            r = await a.post(f"/v1/games/{table}/commands", json=command, headers=bearer(entrant))
            assert r.status_code == 401 and r.json()["code"] == "unauthorized", r.text

        assert await closed_with(a, table, entrant) == (4401, "unauthorized")

        calls: dict[str, dict[str, Any]] = {
            "get_view": {},
            "get_events": {"after_version": 0},
            "record": {"after_version": 0},
            "wait": {"after_version": before, "timeout_s": 0},
            "make_move": {"move": move, "expected_version": before},
            "leave_table": {},
        }
        for name, arguments in calls.items():
            args = {"table_id": table, **arguments}
            for answer in (
                await tool(a, name, args | {"token": entrant}),
                await tool(a, name, args, entrant),
            ):
                refused(f"{name}, the entrant token", answer, "unauthorized")
                assert entrant not in answer[1]

        assert await version_of(a, table, seat_token) == before
        _, text, after = await tool(a, "get_view", {"table_id": table, "token": seat_token})
        assert after is not None, text
        assert after["view"]["me"]["hand"] == view["view"]["me"]["hand"]
        assert after["your_turn"] and after["moves"] == view["moves"]


async def test_a_tokenless_socket_at_a_table_in_play_is_closed_4400_set_in_play(
    redis_url: str,
) -> None:
    """The close code a spectator's client reads is the documented one (docs/api.md, close
    codes; docs/arena.md): `hello` without a token at either table of a set in play is closed
    4400 with the reason `set_in_play` — not 4401, which tells a client its token is bad. The
    other table's seat token is a token this table does not know: 4401 `unauthorized`. The
    seat's own token is welcomed (the socket is not simply shut)."""
    async with two_arenas(redis_url, **STILL) as (a, b):
        seats = await a_set([a, b])
        tickets = [t for _, t in seats]
        for mine in tickets[:2]:
            other = next(t for t in tickets if t["table_id"] != mine["table_id"])
            for app in (a, b):
                assert await closed_with(app, other["table_id"], None) == (4400, "set_in_play")
                closed = await closed_with(app, other["table_id"], mine["token"])
                assert closed == (4401, "unauthorized")
        ws = await b.websocket_connect(f"/v1/games/{tickets[0]['table_id']}/socket")
        with ws:
            ws.send_json({"type": "hello", "token": tickets[0]["token"]})
            welcome = json.loads(ws.receive_text(timeout=10))
            assert welcome["type"] == "welcome" and welcome["seat"] == tickets[0]["seat"]
