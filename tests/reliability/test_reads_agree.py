"""The ways in agree on reads (docs/api.md, Rate limits; Agents: the MCP endpoint): a read of
events costs what it carries, whichever way it comes in.

- "A read of events costs what it carries: 1, and 1 more for every 50 events" — and MCP's limits
  "are this API's". A `GET …/events` page of 100 events costs 3, as does the MCP `record` of 100
  events; `get_events` and `wait`, which carry at most 100 events, cost the same 3 for 100. They
  once paid for the REST page of up to 500 events they read, and sent 100 of it.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas.api.mcp.results import EVENTS_MAX
from kronikas.application.queries import read_cost
from tests.api.tables import Table, Tables, auth
from tests.apps import ENGINES, Client, settings
from tests.reliability.test_ways_agree import MCP_HEADERS

BURST = 8
"""Each token's bucket on the measuring app: a few views' worth, refilled too slowly to count."""
SEED = 2
"""A seeded Cheat table of two seats, played by `random.Random(SEED)`: 166 events."""


async def long_table(redis_url: str) -> Table:
    """A finished table of more than `EVENTS_MAX` events, played on an app without limits."""
    async with AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as client:
        tables = Tables(client)
        table = await tables.ready("cheat", 2, seed=SEED)
        await tables.play_to_end(table, random.Random(SEED))
        assert (await tables.view(table))["version"] > EVENTS_MAX + 50
        return table


def measuring(redis_url: str) -> Client:
    """An app whose tokens hold `BURST` reads, refilled at one read in 1000 s."""
    limits = {"rate_burst": BURST, "rate_per_s": 0.001}
    return AsyncTestClient(create_app(settings(redis_url, **limits), games=ENGINES))


async def tool(client: Client, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A tool call at `/mcp` that must succeed: its structured result."""
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": name, "arguments": arguments},
    }
    r = await client.post("/mcp", json=call, headers=MCP_HEADERS)
    assert r.status_code == 200, r.text
    result = r.json()["result"]
    assert not result.get("isError"), result
    answer: dict[str, Any] = json.loads(result["content"][0]["text"])
    return answer


async def reads_left(client: Client, table: Table, token: str) -> int:
    """How many views (one each) the token may still read now, up to its 429."""
    for read in range(BURST + 1):
        r = await client.get(f"/v1/games/{table.id}", headers=auth(token))
        if r.status_code == 429:
            assert r.json()["code"] == "rate_limited", r.text
            return read
        assert r.status_code == 200, r.text
    raise AssertionError("never held back")


async def rest_page(client: Client, table: Table, token: str, version: int) -> int:
    """`GET …/events` after `version - EVENTS_MAX`: the events it carries."""
    after = version - EVENTS_MAX
    r = await client.get(
        f"/v1/games/{table.id}/events", params={"after": after}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    return len(r.json()["events"])


async def mcp_get_events(client: Client, table: Table, token: str, version: int) -> int:
    page = await tool(client, "get_events", {"table_id": table.id, "token": token})
    assert page["more"], page
    return len(page["events"])


async def mcp_wait(client: Client, table: Table, token: str, version: int) -> int:
    arguments = {"table_id": table.id, "token": token, "after_version": 0, "timeout_s": 0}
    answer = await tool(client, "wait", arguments)
    assert answer["more"], answer
    return len(answer["events"])


@pytest.mark.parametrize(
    "read",
    [rest_page, mcp_get_events, mcp_wait],
    ids=["GET events", "MCP get_events", "MCP wait"],
)
async def test_a_read_of_events_costs_what_it_carries_on_every_way(
    redis_url: str, read: Any
) -> None:
    table = await long_table(redis_url)
    token = table.players[0]
    async with measuring(redis_url) as client:
        version = (await Tables(client).view(table))["version"]
        carried = await read(client, table, token, version)
        assert carried == EVENTS_MAX
        # 100 events cost 3 (1, and 1 more for every 50), as the REST page of 100 costs: what
        # is left of the bucket is its burst less that.
        assert await reads_left(client, table, token) == BURST - read_cost(carried)
