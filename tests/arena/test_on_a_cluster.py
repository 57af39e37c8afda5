"""The arena on a real three-master Redis Cluster: its keys share one slot (`{arena}`), its
log's script and its pipelines run there, a set is formed, played and rated."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tests.arena.conftest import bearer, queue, register
from tests.arena.test_matchmaking import seated
from tests.integration.cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    with LocalCluster(tmp_path_factory.mktemp("cluster")) as running:
        yield running


async def test_a_lone_entrants_set_is_rated_on_a_cluster(cluster: LocalCluster) -> None:
    settings = Settings(
        redis_url=cluster.url,
        redis_cluster=True,
        log_level="CRITICAL",
        rate_per_s=100_000,
        rate_burst=100_000,
        read_per_s=100_000,
        read_burst=100_000,
        address_per_s=100_000,
        address_burst=100_000,
        open_per_min=1_000_000,
        allowed_hosts=(TEST_HOST,),
        arena_fill_s=0,
        arena_tick_s=0.05,
    )
    async with AsyncTestClient(create_app(settings, games=ENGINES)) as client:
        entrant, token = await register(client, "Clustered")
        await queue(client, token)
        ticket = await seated(client, token)
        closed = await client.get(f"/v1/games/{ticket['table_id']}")
        assert closed.status_code == 409 and closed.json()["code"] == "set_in_play"
        r = await client.post(
            f"/v1/games/{ticket['table_id']}/commands",
            json={"type": "leave"},
            headers=bearer(ticket["token"]),
        )
        assert r.status_code == 200, r.text
        for _ in range(600):
            r = await client.get(f"/v1/arena/sets/{ticket['set_id']}")
            if r.status_code == 200:
                break
            await asyncio.sleep(0.1)
        assert r.status_code == 200, r.text
        board = (await client.get("/v1/arena/leaderboard?kind=cheat")).json()
        assert entrant in {e["entrant_id"] for e in board["entries"]}
        assert (
            await client.delete(f"/v1/arena/entrants/{entrant}", headers=bearer(token))
        ).status_code == 204
