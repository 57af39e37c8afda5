"""A game is one package: a table's view carries its own game's block and no key of another's.

Each view is tagged by `kind`; a Cheat table's view has `cheat` and no `thirty_one`, a Thirty-One
table's the other way round, in the lobby, in play, for a seat and for a spectator, and for a
table stored before the change (views are made from the log, never stored).
"""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from tests.api.tables import Table, Tables
from tests.api.test_old_logs import restore

Client = AsyncTestClient[Litestar]
BLOCKS = {"cheat": "cheat", "thirty_one": "thirty_one"}
"""Each kind's own block in its view."""


def only_its_own_block(view: dict[str, Any], kind: str) -> None:
    assert view["kind"] == kind
    assert BLOCKS[kind] in view
    assert not any(other in view for k, other in BLOCKS.items() if k != kind), sorted(view)


async def views_of(tables: Tables, table: Table) -> list[dict[str, Any]]:
    return [await tables.view(table), *[await tables.view(table, t) for t in table.players]]


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_a_view_carries_only_its_own_games_block(kind: str, tables: Tables) -> None:
    table = await tables.create(kind, seed=3)
    for _ in range(3):
        only_its_own_block((await tables.join(table))["game"], kind)
    for view in await views_of(tables, table):
        assert view["status"] == "open"
        only_its_own_block(view, kind)

    only_its_own_block(await tables.start(table), kind)
    for view in await views_of(tables, table):
        assert view["status"] == "playing" and view[BLOCKS[kind]] is not None
        only_its_own_block(view, kind)


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_a_table_stored_before_has_no_other_games_block(
    kind: str, tables: Tables, redis: Redis
) -> None:
    table = await restore(redis, kind)
    for view in await views_of(tables, table):
        only_its_own_block(view, kind)
