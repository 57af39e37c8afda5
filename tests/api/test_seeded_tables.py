"""A seeded table says so wherever it is listed or joined (docs/api.md, Seeded tables): whoever
knows a table's seed knows every hand, and a brute force against the commitment finds a small
seed at once, so a player must see it before sitting down. The lobby's entries (HTTP and MCP's
`list_tables`) and `join_table`'s answer carry `seeded`, as the view does, through every append;
an entry an older version stored (without the flag) reads as not seeded. Against a real service.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from kronikas.adapters.scripts import game_keys
from tests.api.tables import auth
from tests.conftest import ServiceProcess
from tests.mcp.agent import call, connected


@pytest.fixture
def client(service: ServiceProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=service.url, timeout=30) as c:
        yield c


def created(client: httpx.Client, seeded: bool) -> dict[str, Any]:
    body: dict[str, Any] = {"kind": "cheat"}
    if seeded:
        body["seed"] = secrets.randbelow(2**31)
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    assert made["game"]["seeded"] is seeded
    return made


def entry(client: httpx.Client, game_id: str, **filters: str) -> dict[str, Any]:
    page = client.get("/v1/games", params={"kind": "cheat", "limit": 100, **filters}).json()
    found = [e for e in page["games"] if e["id"] == game_id]
    assert len(found) == 1, (game_id, filters)
    return found[0]


def test_the_lobby_says_which_tables_are_seeded_through_every_append(
    client: httpx.Client,
) -> None:
    seeded, plain = created(client, seeded=True), created(client, seeded=False)
    assert entry(client, seeded["game"]["id"])["seeded"] is True
    assert entry(client, plain["game"]["id"])["seeded"] is False
    for table in (seeded, plain):
        game = table["game"]["id"]
        for name in ("Ilona", "Bence"):
            client.post(f"/v1/games/{game}/players", json={"name": name}).raise_for_status()
        client.post(f"/v1/games/{game}/start", headers=auth(table["host_token"]))
    assert entry(client, seeded["game"]["id"], status="playing")["seeded"] is True
    assert entry(client, plain["game"]["id"], status="playing")["seeded"] is False


async def test_mcp_lists_and_joins_a_seeded_table_as_seeded(service: ServiceProcess) -> None:
    async with connected(service.url) as mcp:
        seeded = await call(mcp, "open_table", {"kind": "cheat", "seed": secrets.randbelow(2**31)})
        plain = await call(mcp, "open_table", {"kind": "cheat"})
        listed = await call(mcp, "list_tables", {"kind": "cheat", "limit": 100})
        flags = {t["id"]: t["seeded"] for t in listed["tables"]}
        assert flags[seeded["table_id"]] is True
        assert flags[plain["table_id"]] is False
        joined = await call(mcp, "join_table", {"table_id": seeded["table_id"], "name": "Ilona"})
        assert joined["seeded"] is True
        joined = await call(mcp, "join_table", {"table_id": plain["table_id"], "name": "Ilona"})
        assert joined["seeded"] is False


async def test_an_entry_an_older_version_stored_reads_as_not_seeded(
    client: httpx.Client, redis: Redis
) -> None:
    table = created(client, seeded=False)
    game = table["game"]["id"]
    meta = game_keys(game)["meta"]
    stored = await redis.hget(meta, "summary")
    assert stored is not None and stored.endswith(b",false]")
    # The summary as versions before the flag wrote it: kind, status, players, created_ms
    older = stored.removesuffix(b",false]") + b"]"
    await redis.hset(meta, "summary", older)
    listed = entry(client, game)
    assert listed["seeded"] is False and listed["status"] == "open"
    client.post(f"/v1/games/{game}/players", json={"name": "Ilona"}).raise_for_status()
    assert entry(client, game)["players"] == 1
    assert (await redis.hget(meta, "summary")) == stored.replace(b",0,", b",1,", 1)
