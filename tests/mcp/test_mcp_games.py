"""The MCP endpoint, driven by a client that is not ours — the `mcp` SDK's own, over Streamable
HTTP — against real service processes (issue 29): whole matches of each game against house seats
by scripted agents that choose among the legal moves the tools list, each agent's calls served
by two processes in turn (the endpoint is stateless); the third game of the tests through the
same tools; tokens that may not act; refusals as tool errors the session survives; the limits."""

from __future__ import annotations

import asyncio
import random
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import Client

from tests.apps import ENGINES
from tests.conftest import ServiceProcess, serving
from tests.mcp.agent import Seat, ToolFailed, call, connected, third_game_service
from tests.third_game import ENGINE as HIGH_CARD
from tests.third_game import KIND as THIRD

FIGURES: dict[str, Any] = {}
"""Tool calls a match cost, by game, for the report."""


@pytest.fixture(scope="module")
def two(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[ServiceProcess]]:
    """Two service processes on one Redis; the first logs at DEBUG (nothing it logs may hold
    a tool's arguments)."""
    logs = tmp_path_factory.mktemp("mcp")
    with (
        serving(redis_url, logs / "a.log", LOG_LEVEL="DEBUG") as a,
        serving(redis_url, logs / "b.log") as b,
    ):
        yield [a, b]


async def opened(client: Client, kind: str, house: int, **options: Any) -> dict[str, Any]:
    return await call(
        client, "open_table", {"kind": kind, "house_players": house, "options": options}
    )


async def match(
    services: list[ServiceProcess], kind: str, agents: int, house: int, seed: int, **options: Any
) -> tuple[list[Seat], dict[str, Any], list[str]]:
    """A match of `kind`: `agents` scripted agents and `house` house seats; each agent calls
    the two processes in turn. Answers the seats, the final answer and the tokens handed out."""
    rng = random.Random(seed)
    async with connected(services[0].url) as a, connected(services[1].url) as b:
        table = await opened(a, kind, house, **options)
        tokens = [table["host_token"]]
        seats = []
        for n in range(agents):
            joined = await call(
                b if n % 2 else a,
                "join_table",
                {"table_id": table["table_id"], "name": f"Agent {n}"},
            )
            assert joined["seat"] == house + n and joined["status"] == "open"
            tokens.append(joined["token"])
            clients = [a, b] if n % 2 == 0 else [b, a]
            seats.append(
                Seat(clients, table["table_id"], joined["token"], random.Random(rng.random()))
            )
        started = await call(
            b, "start_table", {"table_id": table["table_id"], "host_token": table["host_token"]}
        )
        assert started["view"]["status"] == "playing"
        finals = await asyncio.gather(*(seat.play() for seat in seats))
    final = finals[0]
    assert final["status"] == "finished" and final["view"]["winners"], final
    return seats, final, tokens


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        ("cheat", {"house_pause_seconds": 0, "rounds": 2}),
        ("thirty_one", {"lives": 1}),
    ],
)
async def test_whole_matches_of_each_game_against_the_house_on_two_processes(
    two: list[ServiceProcess], kind: str, options: dict[str, Any]
) -> None:
    seats, final, tokens = await match(two, kind, agents=2, house=1, seed=29, **options)
    assert sum(seat.moves for seat in seats) > 0, "the agents made moves of their own"
    for seat in seats:
        # a move chosen from the list is never refused by the rules: only a table that moved on
        assert set(seat.refused) <= {"version_mismatch"}
    FIGURES[kind] = {
        "events": final["version"],
        "moves": [s.moves for s in seats],
        "calls": [dict(s.calls.counts) for s in seats],
    }
    print(f"MCP match of {kind}: {FIGURES[kind]}")
    # nothing either process logged holds a token, its hash's prefix aside (arguments unlogged)
    for service in two:
        text = service.log.read_text()
        assert not any(token in text for token in tokens)


async def test_a_third_game_plays_through_the_tools_unchanged(
    redis_url: str, tmp_path: Path
) -> None:
    with third_game_service(redis_url, tmp_path / "third.log") as service:
        seats, final, _ = await match([service, service], THIRD, agents=1, house=1, seed=3)
        async with connected(service.url) as client:
            games = await call(client, "list_games", {})
            assert THIRD in [k["kind"] for k in games["kinds"]]
            # Its rules are its package's `rules.md`, served through the registry like any game's.
            read = await client.read_resource(f"kronikas://rules/{THIRD}")
            assert read.contents[0].text == HIGH_CARD.rules_text
            assert "## " not in read.contents[0].text and "# High Card" in read.contents[0].text
            # a move's answer holds the view in short; `get_view` the whole, which names its kind
            seat = {"table_id": seats[0].table_id, "token": seats[0].token}
            whole = await call(client, "get_view", seat)
    assert seats[0].moves > 0 and final["view"]["winners"] and whole["view"]["kind"] == THIRD


async def test_a_token_from_one_table_cannot_act_at_another(two: list[ServiceProcess]) -> None:
    async with connected(two[0].url) as client:
        first = await opened(client, "thirty_one", 1)
        second = await opened(client, "thirty_one", 1)
        mine = await call(client, "join_table", {"table_id": first["table_id"], "name": "Ilona"})
        await call(client, "join_table", {"table_id": second["table_id"], "name": "Ilona"})
        for table in (first, second):
            await call(
                client,
                "start_table",
                {"table_id": table["table_id"], "host_token": table["host_token"]},
            )
        before = await call(client, "get_view", {"table_id": second["table_id"]})
        for tool, arguments in [
            ("make_move", {"move": {"type": "show"}}),
            ("get_view", {}),
            ("wait", {"after_version": 0}),
            ("leave_table", {}),
            ("get_events", {}),
            ("record", {}),
        ]:
            with pytest.raises(ToolFailed) as refused:
                await call(
                    client,
                    tool,
                    {"table_id": second["table_id"], "token": mine["token"], **arguments},
                )
            assert refused.value.problem["code"] == "unauthorized", refused.value.text
            assert mine["token"] not in refused.value.text
        # the host token of the other table may not play either, nor start this one again
        with pytest.raises(ToolFailed) as refused:
            await call(
                client,
                "make_move",
                {
                    "table_id": second["table_id"],
                    "token": first["host_token"],
                    "move": {"type": "show"},
                },
            )
        assert refused.value.problem["code"] == "unauthorized"
        after = await call(client, "get_view", {"table_id": second["table_id"]})
        assert after["version"] == before["version"], "nothing changed at the other table"


async def test_a_refused_move_is_a_tool_error_with_the_legal_moves(
    two: list[ServiceProcess],
) -> None:
    async with connected(two[0].url) as client:
        table = await opened(client, "thirty_one", 1)
        joined = await call(client, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
        seat = Seat([client], table["table_id"], joined["token"], random.Random(1))
        # before the start: nothing to do yet
        with pytest.raises(ToolFailed) as early:
            await seat.call("make_move", move={"type": "pass"})
        assert early.value.problem["code"] == "not_your_turn" and early.value.problem["detail"]
        await call(
            client,
            "start_table",
            {"table_id": table["table_id"], "host_token": table["host_token"]},
        )
        answer = await seat.call("wait", after_version=0, timeout_s=10)
        while not answer["your_turn"]:
            answer = await seat.call("wait", after_version=answer["version"], timeout_s=10)
        hand = answer["view"]["me"]["hand"]
        wrong = next(c for c in ("7H", "8H", "9H", "10H") if c not in hand)
        with pytest.raises(ToolFailed) as refused:
            await seat.call(
                "make_move",
                move={"type": "swap", "give": wrong, "take": wrong},
                expected_version=answer["version"],
            )
        problem = refused.value.problem
        assert problem["code"] == "illegal_move" and problem["detail"]
        assert problem["moves"] == answer["moves"] and problem["version"] == answer["version"]
        # a malformed move and a stale one: tool errors too, and the session goes on
        with pytest.raises(ToolFailed) as malformed:
            await seat.call("make_move", move={"type": "fly"})
        assert malformed.value.problem["code"] == "invalid_request"
        with pytest.raises(ToolFailed) as stale:
            await seat.call("make_move", move=answer["moves"][0], expected_version=0)
        assert stale.value.problem["code"] == "version_mismatch"
        assert stale.value.problem["moves"] == answer["moves"]
        moved = await seat.call(
            "make_move",
            move=answer["moves"][0],
            expected_version=answer["version"],
            idempotency_key="once",
        )
        again = await seat.call(
            "make_move",
            move=answer["moves"][0],
            expected_version=answer["version"],
            idempotency_key="once",
        )
        assert again["events"] == moved["events"], "a retry with its key is answered as the first"


async def test_an_unknown_token_is_refused_and_never_echoed(two: list[ServiceProcess]) -> None:
    made_up = "seat_" + secrets.token_urlsafe(24)
    async with connected(two[1].url) as client:
        table = await opened(client, "cheat", 1)
        for tool, arguments in [
            ("get_view", {"token": made_up}),
            ("make_move", {"token": made_up, "move": {"type": "call"}}),
            ("wait", {"token": made_up, "after_version": 0}),
            ("start_table", {"host_token": made_up}),
            ("make_move", {"token": "not a token!", "move": {"type": "call"}}),
            # a token put where it does not belong is not quoted back either
            ("wait", {"token": made_up, "after_version": made_up}),
            (
                "make_move",
                {"token": made_up, "move": {"type": "call"}, "idempotency_key": made_up + " "},
            ),
        ]:
            with pytest.raises(ToolFailed) as refused:
                await call(client, tool, {"table_id": table["table_id"], **arguments})
            assert made_up not in refused.value.text and made_up[5:20] not in refused.value.text
        with pytest.raises(ToolFailed) as no_token:
            await call(
                client, "make_move", {"table_id": table["table_id"], "move": {"type": "call"}}
            )
        assert no_token.value.problem["code"] == "unauthorized"
        with pytest.raises(ToolFailed) as no_table:
            await call(client, "get_view", {"table_id": made_up})
        assert no_table.value.problem["code"] == "not_found" and made_up not in no_table.value.text


async def test_the_token_may_come_once_as_the_connections_header(
    two: list[ServiceProcess],
) -> None:
    async with connected(two[0].url) as client:
        table = await opened(client, "cheat", 2, house_pause_seconds=0)
        joined = await call(client, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
    async with connected(two[1].url, token=joined["token"]) as seat:
        view = await call(seat, "get_view", {"table_id": table["table_id"]})
        assert view["seat"] == joined["seat"] and view["view"]["me"] is not None
        # a token given as an argument wins over the header's: the host token starts the table
        await call(
            seat, "start_table", {"table_id": table["table_id"], "host_token": table["host_token"]}
        )
        answer = await call(seat, "wait", {"table_id": table["table_id"], "after_version": 0})
        assert answer["seat"] == joined["seat"]


async def test_a_token_whose_player_left_before_the_start_is_refused(
    two: list[ServiceProcess],
) -> None:
    async with connected(two[0].url) as client:
        table = await opened(client, "cheat", 1)
        joined = await call(client, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
        left = await call(
            client, "leave_table", {"table_id": table["table_id"], "token": joined["token"]}
        )
        assert left["seat"] is None and [e["type"] for e in left["events"]] == ["player_left"]
        for tool, arguments in [
            ("get_view", {}),
            ("wait", {"after_version": 0}),
            ("make_move", {"move": {"type": "call"}}),
        ]:
            with pytest.raises(ToolFailed) as refused:
                await call(
                    client,
                    tool,
                    {"table_id": table["table_id"], "token": joined["token"], **arguments},
                )
            assert refused.value.problem["code"] == "unauthorized"


async def test_rules_resources_and_the_prompt(two: list[ServiceProcess]) -> None:
    async with connected(two[1].url) as client:
        listed = {str(r.uri): r for r in (await client.list_resources()).resources}
        for kind in ("cheat", "thirty_one"):
            uri = f"kronikas://rules/{kind}"
            assert listed[uri].mime_type == "text/markdown"
            read = await client.read_resource(uri)
            assert read.contents[0].text == ENGINES[kind].rules_text
        prompt = await client.get_prompt("play_a_table", {"kind": "thirty_one"})
        text = prompt.messages[0].content.text
        assert "kronikas://rules/thirty_one" in text and "make_move" in text and "wait" in text
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert set(tools) == {
            "list_games",
            "list_tables",
            "open_table",
            "join_table",
            "start_table",
            "get_view",
            "make_move",
            "wait",
            "leave_table",
            "get_events",
            "record",
            "arena_enter",
            "arena_ratings",
        }
        assert all(t.description for t in tools.values())


async def test_waits_count_against_the_caps_and_calls_against_the_rate(
    redis_url: str, tmp_path: Path
) -> None:
    limits = {"STREAMS_PER_TOKEN": "1", "RATE_LIMIT_PER_S": "1", "RATE_LIMIT_BURST": "10"}
    with serving(redis_url, tmp_path / "limits.log", **limits) as service:
        async with connected(service.url) as a, connected(service.url) as b:
            table = await opened(a, "cheat", 1)
            joined = await call(a, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
            seat = {"table_id": table["table_id"], "token": joined["token"]}
            version = joined["version"]
            # an open table waits for nobody: two waits of one token at once, through two
            # connections, and its cap is one: one waits its 5 s, the other is refused
            first, second = await asyncio.gather(
                *(
                    call(c, "wait", {**seat, "after_version": version, "timeout_s": 5})
                    for c in (a, b)
                ),
                return_exceptions=True,
            )
            refused = [r for r in (first, second) if isinstance(r, ToolFailed)]
            waits = [r for r in (first, second) if isinstance(r, dict)]
            assert len(refused) == 1 and len(waits) == 1, (first, second)
            assert refused[0].problem["code"] == "rate_limited", refused[0].text
            assert refused[0].problem["retry_after_s"] >= 1
            waited = waits[0]
            assert waited["events"] == [] and waited["version"] == version
            # one token's calls take from its bucket, wherever they come from
            codes = []
            for _ in range(40):
                try:
                    await call(b, "get_view", seat)
                    codes.append("ok")
                except ToolFailed as failed:
                    codes.append(failed.problem["code"])
                    assert failed.problem["retry_after_s"] >= 1
                    break
            assert codes[-1] == "rate_limited", codes


async def test_a_chunked_body_over_the_limit_is_the_services_413_problem(
    two: list[ServiceProcess],
) -> None:
    import httpx

    body = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "' + b"x" * 70_000
    body += b'"}}'

    async def chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
        for start in range(0, len(body), 8192):
            yield body[start : start + 8192]

    async with httpx.AsyncClient(base_url=two[0].url, timeout=20) as client:
        r = await client.post(
            "/mcp",
            content=chunks(),
            headers={
                "Accept": "application/json, text/event-stream",
                "Content-Type": "application/json",
            },
        )
    assert r.request.headers.get("transfer-encoding") == "chunked"
    assert r.status_code == 413, r.text
    assert r.headers["content-type"] == "application/problem+json"
    assert r.json()["code"] == "payload_too_large"
