"""The arena's two ways in — its HTTP routes and the MCP tools `arena_enter` and
`arena_ratings` — answer the same situation alike (api/mcp/arena.py: "the same limits, the same
answers, the same refusals"; tests/reliability/test_settings_everywhere.py: `arena_enter` pays
the address's read bucket once, "for the queue request it makes, as `POST /v1/arena/queue`
pays"; docs/security.md: "a refused request changes nothing").

`arena_enter` queues its entrant (`Arena.enqueue`) and then reads the ticket (`Arena.ticket`)
in one call, paid once, as the queue request. Once each paid the address's read and the
entrant's queue request: a budget that let `POST /v1/arena/queue` through (202) refused the tool
(`rate_limited`) after it had queued its entrant — and, when the call registered the entrant
(`name`), after that registration was spent, its token never shown.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import kronikas.api.mcp.arena as mcp_arena
from tests.arena.conftest import PEER, Client, arena_app, bearer, register
from tests.arena.test_attack_mcp import MCP_HEADERS


@pytest.fixture(autouse=True)
def no_long_poll(monkeypatch: pytest.MonkeyPatch) -> None:
    """`arena_enter` reads the ticket without waiting (a waiting entrant's call ends at once)."""
    monkeypatch.setattr(mcp_arena, "WAIT_MAX_S", 0)


async def arena_enter(client: Client, arguments: dict[str, Any], peer: str) -> dict[str, Any]:
    """`arena_enter` at `/mcp` from `peer`: its answer, or its tool error's problem (`error`)."""
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "arena_enter", "arguments": arguments},
    }
    r = await client.post("/mcp", json=call, headers=MCP_HEADERS | {PEER: peer})
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    answer: dict[str, Any] = json.loads(result["content"][0]["text"])
    return {"error": answer} if result.get("isError") else answer


async def test_arena_enter_is_let_through_by_the_read_budget_the_queue_route_is(
    redis_url: str,
) -> None:
    """A read bucket of one per address: `POST /v1/arena/queue` answers 202 `waiting`;
    `arena_enter` with an entrant token, from another address of its own, answers the same."""
    async with arena_app(redis_url, arena_fill_s=3600, read_per_s=1, read_burst=1) as a:
        _, rest = await register(a, "Rest", peer="198.51.100.81")
        _, agent = await register(a, "Agent", peer="198.51.100.82")
        r = await a.post(
            "/v1/arena/queue",
            json={"kind": "cheat"},
            headers=bearer(rest) | {PEER: "198.51.100.83"},
        )
        assert (r.status_code, r.json()["status"]) == (202, "waiting"), r.text
        answer = await arena_enter(a, {"kind": "cheat", "token": agent}, peer="198.51.100.84")
        assert answer.get("status") == "waiting", answer


async def test_arena_enter_is_let_through_by_the_queue_budget_the_queue_route_is(
    redis_url: str,
) -> None:
    """`ARENA_QUEUE_PER_MIN` of one: an entrant's first queue request is let through on each way
    in (`POST /v1/arena/queue` 202 `waiting`; `arena_enter` the waiting ticket)."""
    async with arena_app(redis_url, arena_fill_s=3600, arena_queue_per_min=1) as a:
        _, rest = await register(a, "Rest", peer="198.51.100.85")
        _, agent = await register(a, "Agent", peer="198.51.100.86")
        r = await a.post("/v1/arena/queue", json={"kind": "cheat"}, headers=bearer(rest))
        assert (r.status_code, r.json()["status"]) == (202, "waiting"), r.text
        answer = await arena_enter(a, {"kind": "cheat", "token": agent}, peer="198.51.100.87")
        assert answer.get("status") == "waiting", answer


async def test_a_busy_entrant_is_answered_within_the_read_budget_the_queue_route_is(
    redis_url: str,
) -> None:
    """A seated entrant queueing again, each request from a fresh address with a read bucket of
    one: `POST /v1/arena/queue` is 409 `arena_busy`; `arena_enter` answers the ticket as it
    stands (api/mcp/arena.py), its own seat — not `rate_limited`."""
    async with arena_app(redis_url, arena_fill_s=0, read_per_s=1, read_burst=1) as a:
        _, token = await register(a, "Busy", peer="198.51.100.88")
        r = await a.post(
            "/v1/arena/queue",
            json={"kind": "cheat"},
            headers=bearer(token) | {PEER: "198.51.100.89"},
        )
        assert (r.status_code, r.json()["status"]) == (202, "seated"), r.text
        seat = r.json()
        r = await a.post(
            "/v1/arena/queue",
            json={"kind": "cheat"},
            headers=bearer(token) | {PEER: "198.51.100.90"},
        )
        assert (r.status_code, r.json()["code"]) == (409, "arena_busy"), r.text
        answer = await arena_enter(a, {"kind": "cheat", "token": token}, peer="198.51.100.91")
        assert answer == seat, answer


async def test_a_refused_arena_enter_registers_no_entrant_it_does_not_hand_over(
    redis_url: str,
) -> None:
    """One registration an hour, one queue request a minute: over HTTP, registering (201, the
    token) and queueing (202) both pass. `arena_enter` with a `name` does both in one call:
    it answers the new entrant's token and its ticket — or, refused, it spent no registration."""
    peer = "198.51.100.92"
    async with arena_app(
        redis_url, arena_fill_s=3600, arena_register_per_hour=1, arena_queue_per_min=1
    ) as a:
        answer = await arena_enter(a, {"kind": "cheat", "name": "Agent"}, peer=peer)
        if "error" in answer:
            r = await a.post(
                "/v1/arena/entrants",
                json={"name": "Rest", "games": ["cheat"]},
                headers={PEER: peer},
            )
            assert r.status_code == 201, (answer, r.text)
        else:
            assert answer["entrant_token"].startswith("ke_"), answer
            assert answer["status"] == "waiting", answer
