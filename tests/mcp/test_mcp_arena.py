"""An LLM agent in the arena through the MCP tools, against a real service process: it enters
(registering with a name the first time), is seated, plays the table with the table tools and
the seat's token, reads its rating and the leaderboard once the set has finished, and enters
again. The arena's two tools fit in the list's budget (test_mcp_answers.py measures the whole
list); no answer or error echoes an entrant token it was not meant to hand out."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
import redis

from kronikas.api.mcp.bounds import scrubbed
from tests.conftest import serving
from tests.mcp.agent import Seat, ToolFailed, call, connected

ARENA_ENV = {
    "ARENA_FILL_SECONDS": "0",  # a lone entrant's set is filled by the standing entrants at once
    "ARENA_TICK_MS": "50",
    "ARENA_TURN_SECONDS": "5",
    "ARENA_REGISTER_PER_HOUR": "1000000",
    "ARENA_QUEUE_PER_MIN": "1000000",
}


@pytest.fixture(scope="module")
def arena_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = redis.Redis.from_url(redis_url)
    keys = list(store.scan_iter(match="{arena}:*", count=1000))
    if keys:
        store.delete(*keys)  # an arena of this module's own: no entrant left queued before
    store.close()
    log = tmp_path_factory.mktemp("mcp-arena") / "service.log"
    with serving(redis_url, log, **ARENA_ENV) as running:
        yield running.url


async def rated(client: Any, entrant_id: str, rounds: int = 600) -> dict[str, Any]:
    """The entrant's page once a match of its is listed (its set finished and was rated)."""
    for _ in range(rounds):
        page = await call(client, "arena_ratings", {"entrant_id": entrant_id})
        if page["matches"]:
            return page
        await asyncio.sleep(0.1)
    raise AssertionError("the set was never rated")


async def test_an_agent_enters_plays_reads_its_rating_and_enters_again(
    arena_service: str,
) -> None:
    name = f"agent-{uuid.uuid4().hex[:8]}"
    async with connected(arena_service) as client:
        prompt = await client.get_prompt("play_a_table", {})
        assert "arena_enter" in prompt.messages[0].content.text  # type: ignore[union-attr]
        listed = {t.name: t for t in (await client.list_tools()).tools}
        assert {"arena_enter", "arena_ratings"} <= set(listed)
        assert listed["arena_ratings"].annotations.read_only_hint  # type: ignore[union-attr]

        ticket = await call(client, "arena_enter", {"kind": "cheat", "name": name})
        entrant_token, entrant_id = ticket["entrant_token"], ticket["entrant_id"]
        assert entrant_token.startswith("ke_") and ticket["status"] == "seated"
        assert ticket["token"] != entrant_token and ticket["kind"] == "cheat"

        seat = Seat([client], ticket["table_id"], ticket["token"], random.Random(45))
        last = await seat.play()
        assert last["status"] == "finished" and seat.moves > 0

        page = await rated(client, entrant_id)
        assert page["name"] == name and not page["standing"]
        assert [m["table_id"] for m in page["matches"]] == [ticket["table_id"]]
        [rating] = page["ratings"]
        assert (rating["kind"], rating["players"], rating["matches"]) == ("cheat", 2, 1)
        board = await call(client, "arena_ratings", {"kind": "cheat"})
        names = {e["name"] for e in board["entries"]}
        assert {name, "House", "Random"} <= names

        again = await call(client, "arena_enter", {"kind": "cheat", "token": entrant_token})
        assert "entrant_token" not in again
        assert again["status"] == "seated" and again["table_id"] != ticket["table_id"]


async def test_arena_enter_takes_the_connections_entrant_token(arena_service: str) -> None:
    async with connected(arena_service) as client:
        first = await call(client, "arena_enter", {"kind": "thirty_one", "name": "Connected"})
    async with connected(arena_service, token=first["entrant_token"]) as client:
        ticket = await call(client, "arena_enter", {"kind": "thirty_one"})
        assert ticket["status"] == "seated" and ticket["table_id"] == first["table_id"]


async def test_a_refusal_is_a_tool_error_that_echoes_no_token(arena_service: str) -> None:
    forged = "ke_" + "A" * 32
    async with connected(arena_service) as client:
        with pytest.raises(ToolFailed) as anonymous:
            await call(client, "arena_enter", {"kind": "cheat"})
        assert anonymous.value.problem["code"] == "unauthorized"
        with pytest.raises(ToolFailed) as wrong:
            await call(client, "arena_enter", {"kind": "cheat", "token": forged})
        assert wrong.value.problem["code"] == "unauthorized"
        assert forged not in wrong.value.text
        with pytest.raises(ToolFailed) as seat_token:
            await call(client, "arena_enter", {"kind": "cheat", "token": "seat_" + "B" * 32})
        assert seat_token.value.problem["code"] == "unauthorized"
        with pytest.raises(ToolFailed) as neither:
            await call(client, "arena_ratings", {})
        assert neither.value.problem["code"] == "invalid_request"
        with pytest.raises(ToolFailed) as unknown:
            await call(client, "arena_ratings", {"entrant_id": f"en_{uuid.uuid4().hex}"})
        assert unknown.value.problem["code"] == "not_found"
    assert scrubbed(f"bad {forged}!") == "bad <token>!"
    assert scrubbed("make_move and wait") == "make_move and wait"
