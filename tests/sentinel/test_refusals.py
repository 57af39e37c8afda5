"""A server that cannot take writes — a replica (`READONLY`), a primary short of replicas
(`NOREPLICAS`) — refuses a command before running it: the service answers 503 `unavailable`
(nothing was changed), never a 500, and asks again where the primary is."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from litestar import Litestar

from kronikas.adapters.embedded_redis import free_port, redis_binary
from kronikas.api.app import create_app
from tests.api.tables import Tables
from tests.apps import ENGINES, TEST_HOST, settings
from tests.redis_group import MASTER, RedisGroup, ask, can_start
from tests.sentinel.helpers import running


@pytest.fixture
def group(tmp_path: Path) -> Iterator[RedisGroup]:
    if reason := can_start(tmp_path):
        pytest.skip(reason)
    with RedisGroup(tmp_path / "redis", replicas=1, sentinels=0) as group:
        yield group


def client_of(app: Litestar) -> httpx.AsyncClient:
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=app), base_url=f"http://{TEST_HOST}", timeout=30
    )


async def test_a_replica_refuses_and_the_service_says_unavailable(group: RedisGroup) -> None:
    replica = group.replicas()[0]
    app = create_app(settings(replica.url), games=ENGINES)
    async with (
        running(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=f"http://{TEST_HOST}", timeout=30
        ) as http,
    ):
        for _ in range(3):
            r = await http.post("/v1/games", json={"kind": "cheat"})
            assert r.status_code == 503, r.text
            assert r.json()["code"] == "unavailable", r.text


@pytest.mark.parametrize("write_replicas", [0, 1])  # 1: the append is followed by a WAIT
async def test_a_primary_short_of_replicas_refuses_moves(
    group: RedisGroup, write_replicas: int
) -> None:
    primary = group.primary()
    app = create_app(settings(primary.url, write_replicas=write_replicas), games=ENGINES)
    async with (
        running(app),
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url=f"http://{TEST_HOST}", timeout=30
        ) as http,
    ):
        table = await Tables(http).ready("cheat", 2, seed=3)
        view = (await http.get(f"/v1/games/{table.id}", headers=auth(table, 0))).json()
        seat = view["turn"]
        hand = (await http.get(f"/v1/games/{table.id}", headers=auth(table, seat))).json()
        play = {"type": "play", "cards": hand["me"]["hand"][:1]}
        assert ask(primary.port, "config", "set", "min-replicas-to-write", "2") == b"OK"
        r = await http.post(f"/v1/games/{table.id}/commands", json=play, headers=auth(table, seat))
        assert r.status_code == 503, r.text
        assert r.json()["code"] == "unavailable", r.text
        assert ask(primary.port, "config", "set", "min-replicas-to-write", "0") == b"OK"
        r = await http.post(f"/v1/games/{table.id}/commands", json=play, headers=auth(table, seat))
        assert r.status_code == 200, r.text
        assert r.json()["version"] == view["version"] + 1  # the refused one changed nothing


def auth(table: object, seat: int) -> dict[str, str]:
    return {"Authorization": f"Bearer {table.players[seat]}"}  # type: ignore[attr-defined]


async def test_sentinels_with_a_password_are_asked_with_it(tmp_path: Path) -> None:
    if reason := can_start(tmp_path):
        pytest.skip(reason)
    with RedisGroup(tmp_path / "redis", replicas=1, sentinels=0) as group:
        port = free_port()
        (tmp_path / "sentinel.conf").write_text(
            f"port {port}\nbind 127.0.0.1\ndir {tmp_path}\nrequirepass sentinel-secret\n"
            f"sentinel monitor {MASTER} 127.0.0.1 {group.primary().port} 1\n"
        )
        process = subprocess.Popen(
            [redis_binary(), str(tmp_path / "sentinel.conf"), "--sentinel"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                if ask(port, "-a", "sentinel-secret", "--no-auth-warning", "ping") == b"PONG":
                    break
                time.sleep(0.05)
            for password, status in (("wrong", 503), ("sentinel-secret", 201)):
                app = create_app(
                    settings(
                        "",
                        redis_sentinels=(("127.0.0.1", port),),
                        redis_sentinel_password=password,
                    ),
                    games=ENGINES,
                )
                async with running(app), client_of(app) as http:
                    r = await http.post("/v1/games", json={"kind": "cheat"})
                    assert r.status_code == status, r.text
        finally:
            process.kill()
            process.wait()
