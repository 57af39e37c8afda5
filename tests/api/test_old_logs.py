"""Tables stored before event types were named by their game still load and play on.

`logs_before_wire_names.json` holds the raw Redis records of a short game of each kind, captured
from the service as it was before the change (the log keeps the bare tags, `round_dealt`): its
list of records, its token hashes and the lobby's summary. Each test writes one back under a new
id, reads it through the API, and plays it to the end.
"""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.adapters.scripts import game_keys
from tests.api.tables import Table, Tables, auth

Client = AsyncTestClient[Litestar]
LOGS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "logs_before_wire_names.json").read_text()
)


async def restore(redis: Redis, kind: str) -> Table:
    """The captured game of `kind`, written back under a new id."""
    saved = LOGS[kind]
    game_id = secrets.token_hex(8)
    keys = game_keys(game_id)
    await redis.rpush(keys["log"], *saved["log"])
    await redis.hset(keys["auth"], mapping=saved["auth"])
    meta = {k: v for k, v in saved["meta"].items() if k in ("version", "summary", "listed")}
    await redis.hset(keys["meta"], mapping=meta)
    for key in keys.values():
        await redis.expire(key, 3600)
    return Table(game_id, kind, saved["host"], list(saved["players"]))


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_an_old_log_loads_names_its_events_by_game_and_plays_on(
    kind: str, tables: Tables, client: Client, redis: Redis
) -> None:
    stored = [json.loads(raw)["e"]["type"] for raw in LOGS[kind]["log"]]
    assert "round_dealt" in stored and not any("." in t for t in stored)
    table = await restore(redis, kind)

    view = await tables.view(table, table.players[0])
    assert view["kind"] == kind and view["status"] == "playing"
    assert view["version"] == len(stored)
    r = await client.get(f"/v1/games/{table.id}/events", headers=auth(table.players[0]))
    assert r.status_code == 200, r.text
    events = r.json()["events"]
    assert [e["type"] for e in events] == [f"{kind}.{t}" for t in stored]
    assert [e["data"]["type"] for e in events] == stored  # the event's own fields keep its tag

    moves = await tables.play_to_end(table, random.Random(1))
    assert moves > 0
    r = await client.get(
        f"/v1/games/{table.id}/events", params={"after": len(stored)}, headers=auth(table.host)
    )
    new = [e["type"] for e in r.json()["events"]]
    assert new and all(t.startswith(f"{kind}.") for t in new)
    assert new[-1] == f"{kind}.match_ended"


async def test_an_old_cheat_table_keeps_no_limit_of_plays_while_new_ones_get_300(
    tables: Tables, client: Client, redis: Redis
) -> None:
    """Stored before `max_plays` existed, the table's options name none: its rounds have no
    limit, and its view says so by leaving the option out; a new table is told 300."""
    table = await restore(redis, "cheat")
    options = (await tables.view(table, table.players[0]))["options"]
    assert "max_plays" not in options and options["max_play"] == 4
    r = await client.get("/v1/games/" + table.id + "/events", headers=auth(table.players[0]))
    assert "max_plays" not in r.json()["events"][0]["data"]["options"]
    kinds = (await client.get("/v1/kinds")).json()["kinds"]
    cheat = next(k for k in kinds if k["kind"] == "cheat")
    assert next(o for o in cheat["options"] if o["name"] == "max_plays")["default"] == 300
    # A Thirty-One table stored then names its `max_circuits` (null) and keeps it.
    old = await restore(redis, "thirty_one")
    assert (await tables.view(old, old.players[0]))["options"]["max_circuits"] is None
