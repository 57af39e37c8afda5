"""What a record page and a page of past views cost (docs/api.md, Rate limits; issue 41 item 4),
on an app of small limits: a record page as an events page (one a page of fewer than 50
events), a page of past views one read for each view it holds — whoever pays, the address of a
spectator or the bucket of a seat's token."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.api.tables import Table, Tables, auth
from tests.api.test_fair_costs import Client, small
from tests.api.test_tables import assert_problem


@pytest.fixture
async def few_reads(redis_url: str) -> AsyncIterator[Client]:
    """Six reads at once for the address, and for each token (one a second after)."""
    async for client in small(redis_url, read_burst=6, read_per_s=1, rate_burst=6, rate_per_s=1):
        yield client


async def reads_left(client: Client, table: Table, token: str | None) -> int:
    """How many views the reader may still read now (each costs one), up to the 429."""
    for read in range(7):
        r = await client.get(f"/v1/games/{table.id}", headers=auth(token))
        if r.status_code == 429:
            assert_problem(r, 429, "rate_limited")
            return read
        assert r.status_code == 200, r.text
    raise AssertionError("never held back")


@pytest.mark.parametrize("seat", [False, True], ids=["spectator", "seat"])
async def test_a_page_of_past_views_costs_one_read_a_view_it_holds(
    few_reads: Client, seat: bool
) -> None:
    table = await Tables(few_reads).ready("cheat", 3)
    token = table.players[0] if seat else None
    r = await few_reads.get(f"/v1/games/{table.id}/views?limit=4", headers=auth(token))
    assert r.status_code == 200 and len(r.json()["views"]) == 4, r.text
    assert await reads_left(few_reads, table, token) == 2


async def test_a_page_of_past_views_near_the_end_costs_the_views_it_holds(
    few_reads: Client,
) -> None:
    table = await Tables(few_reads).ready("cheat", 3)
    version = (await Tables(few_reads).view(table, table.players[1]))["version"]
    r = await few_reads.get(
        f"/v1/games/{table.id}/views",
        params={"after": version - 2, "limit": 50},
        headers=auth(table.players[1]),
    )
    assert r.status_code == 200 and len(r.json()["views"]) == 2, r.text
    assert await reads_left(few_reads, table, table.players[1]) == 3


async def test_a_record_page_costs_what_an_events_page_costs(few_reads: Client) -> None:
    table = await Tables(few_reads).ready("cheat", 3)
    for route in ("record", "events"):
        r = await few_reads.get(f"/v1/games/{table.id}/{route}", headers=auth(table.players[2]))
        assert r.status_code == 200, r.text
    assert await reads_left(few_reads, table, table.players[2]) == 4
