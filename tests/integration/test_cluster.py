"""The service on a real three-master Redis Cluster: the event store, the notifier, whole games."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import threading
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio.cluster import RedisCluster
from redis.crc import key_slot

from kronikas.adapters.event_store import DEADLINES, RedisStores
from kronikas.adapters.lobby import LOBBY_KEY
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.scripts import game_keys
from kronikas.api.app import create_app
from kronikas.application.ports import AppendRequest, Summary
from kronikas.config import Settings
from tests.apps import ENGINES, TEST_HOST
from tests.integration.cluster import LocalCluster

Client = AsyncTestClient[Litestar]
MAX_MOVES = 400


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    with LocalCluster(tmp_path_factory.mktemp("cluster")) as running:
        nodes = list(running.nodes)
        yield running
    assert not any(node.ping() for node in nodes), "a cluster node still answers"


def test_a_cluster_that_fails_to_form_leaves_no_server_behind(tmp_path: Path) -> None:
    too_small = LocalCluster(tmp_path, masters=1)  # redis-cli refuses fewer than 3 masters
    nodes = too_small.nodes
    with pytest.raises(RuntimeError, match="cluster create failed"):
        too_small.start()
    assert len(nodes) == 1
    assert not nodes[0].ping()
    assert too_small.nodes == []


@pytest.fixture
async def redis(cluster: LocalCluster) -> AsyncIterator[RedisCluster]:
    """A client of the cluster (in this module `redis` is the cluster, not the session's Redis)."""
    client = RedisCluster.from_url(cluster.url)
    await client.initialize()
    try:
        yield client
    finally:
        with contextlib.suppress(Exception):
            await client.aclose()


@pytest.fixture
def store(redis: RedisCluster) -> RedisStores:
    return RedisStores(redis)


@pytest.fixture
def games_by_node(redis: RedisCluster) -> dict[int, str]:
    """Fresh game ids, one for each node: node port → an id whose keys that node holds."""
    found: dict[int, str] = {}
    while len(found) < 3:
        game = secrets.token_hex(8)
        node = redis.get_node_from_key(game_keys(game)["log"])
        assert node is not None
        found.setdefault(int(node.port), game)
    return found


def summary(
    game_id: str, kind: str = "cheat", status: str = "open", created_ms: int = 0
) -> Summary:
    return Summary(game_id, kind, status, 0, created_ms or int(time.time() * 1000), 0)


def where(cluster: LocalCluster, game_id: str) -> dict[int, list[bytes]]:
    """The keys of a game on each node that holds any, read from each node directly."""
    held: dict[int, list[bytes]] = {}
    for port in cluster.ports:
        with cluster.node_client(port) as node:
            if keys := node.keys(f"*{game_id}*"):
                held[port] = sorted(keys)
    return held


# -- the event store through a cluster client ----------------------------------------------------


async def test_append_conflict_and_read_work_on_every_node(
    store: RedisStores, games_by_node: dict[int, str]
) -> None:
    for game in games_by_node.values():
        ok = await store.log.append(
            AppendRequest(game, 0, [b"a", b"b"], ttl_s=60, summary=summary(game))
        )
        assert (ok.outcome, ok.version) == ("ok", 2)
        ok = await store.log.append(AppendRequest(game, 2, [b"c"], ttl_s=60, summary=summary(game)))
        assert (ok.outcome, ok.version) == ("ok", 3)
        stale = await store.log.append(
            AppendRequest(game, 1, [b"x"], ttl_s=60, summary=summary(game))
        )
        assert (stale.outcome, stale.version, stale.records) == ("conflict", 3, [b"b", b"c"])
        ahead = await store.log.append(
            AppendRequest(game, 7, [b"x"], ttl_s=60, summary=summary(game))
        )
        assert (ahead.outcome, ahead.version, ahead.records) == ("conflict", 3, [])
        read = await store.log.read(game, 1, "", 1)
        assert (read.version, read.records) == (3, [b"b"])
        assert (await store.log.read(game, 0, "", 10)).records == [b"a", b"b", b"c"]


async def test_auth_and_rate_limits_work_on_a_cluster(
    redis: RedisCluster, games_by_node: dict[int, str]
) -> None:
    store = RedisStores(redis, rate_per_s=2, burst=2)
    for game in games_by_node.values():
        first = await store.log.append(
            AppendRequest(
                game,
                0,
                [b"a"],
                ttl_s=60,
                summary=summary(game),
                auth=[("h", "0"), ("t", "1")],  # a token the table knows: only those have a bucket
            )
        )
        assert first.outcome == "ok"
        assert (await store.log.read(game, 0, "h", 10, rate=False)).role == "0"
        assert (await store.log.read(game, 0, "t", 10)).retry_after_ms == 0
        assert (await store.log.read(game, 0, "t", 10)).retry_after_ms == 0
        limited = await store.log.append(
            AppendRequest(game, 1, [b"b"], ttl_s=60, summary=summary(game), token_hash="t")
        )
        assert limited.outcome == "limited" and limited.retry_after_ms > 0
        assert (await store.log.read(game, 0, "", 10)).version == 1


async def test_a_games_keys_share_one_slot_and_games_spread_over_the_nodes(
    cluster: LocalCluster, redis: RedisCluster, games_by_node: dict[int, str]
) -> None:
    store = RedisStores(redis, rate_per_s=100, burst=100)
    for game in games_by_node.values():
        await store.log.append(
            AppendRequest(
                game,
                0,
                [b"a"],
                ttl_s=60,
                summary=summary(game),
                token_hash="t",
                auth=[("h", "host")],
            )
        )
    for port, game in games_by_node.items():
        held = where(cluster, game)
        assert list(held) == [port], f"{game}'s keys are on {list(held)}, not only on {port}"
        assert len(held[port]) == 4, held  # log, meta, auth, rate bucket
        assert {key_slot(key) for key in held[port]} == {key_slot(game.encode())}
    assert len(set(games_by_node)) == 3


async def test_the_lobby_reads_summaries_from_every_node(
    store: RedisStores, redis: RedisCluster, games_by_node: dict[int, str]
) -> None:
    kind = f"test-{secrets.token_hex(4)}"
    base = int(time.time() * 1000)
    ids = list(games_by_node.values())
    try:
        for i, game in enumerate(ids):
            status = "playing" if i == 1 else "open"
            await store.log.append(
                AppendRequest(
                    game,
                    0,
                    [b"a"] * (i + 1),
                    ttl_s=60,
                    summary=summary(game, kind, status, base + i),
                )
            )
            await store.lobby.register(game, base + i)
        page, more = await store.lobby.page(kind, None, 0, 2)
        assert [s.game_id for s in page] == [ids[2], ids[1]] and more
        assert [s.version for s in page] == [3, 2]
        page, more = await store.lobby.page(kind, None, 2, 2)
        assert [s.game_id for s in page] == [ids[0]] and not more
        assert [s.game_id for s in (await store.lobby.page(kind, "playing", 0, 9))[0]] == [ids[1]]
        await redis.delete(game_keys(ids[2])["meta"])
        page, _ = await store.lobby.page(kind, None, 0, 9)
        assert [s.game_id for s in page] == [ids[1], ids[0]]
        assert await redis.zscore(LOBBY_KEY, ids[2]) is None
    finally:
        await redis.zrem(LOBBY_KEY, *ids)


async def test_the_notifier_hears_appends_on_every_node(
    store: RedisStores, redis: RedisCluster, games_by_node: dict[int, str]
) -> None:
    notifier = Notifier(redis)
    notifier.start()
    try:
        for game in games_by_node.values():
            async with notifier.waiting(game) as waiter, notifier.waiting("other") as bystander:
                await store.log.append(
                    AppendRequest(game, 0, [b"a"], ttl_s=60, summary=summary(game))
                )
                assert await waiter.wait(1.0), f"no notification for a game on {game}"
                assert not bystander.changed
    finally:
        await notifier.stop()


# -- the HTTP service on the cluster -------------------------------------------------------------


def cluster_settings(cluster: LocalCluster) -> Settings:
    return Settings(
        redis_url=cluster.url,
        redis_cluster=True,
        log_level="CRITICAL",
        rate_per_s=100_000,
        rate_burst=100_000,
        read_per_s=100_000,
        read_burst=100_000,
        address_per_s=100_000,  # every request here comes from one address
        address_burst=100_000,
        open_per_min=1_000_000,
        allowed_hosts=(TEST_HOST,),
    )


async def test_the_app_starts_on_a_cluster_from_its_settings(cluster: LocalCluster) -> None:
    async with AsyncTestClient(create_app(cluster_settings(cluster), games=ENGINES)) as client:
        assert (await client.get("/v1/ready")).status_code == 200


@pytest.fixture
async def client(cluster: LocalCluster) -> AsyncIterator[Client]:
    """The app on the cluster, as `REDIS_CLUSTER=true` configures it."""
    async with AsyncTestClient(create_app(cluster_settings(cluster), games=ENGINES)) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def cheat_move(view: dict[str, Any], _: set[tuple[int, int]]) -> dict[str, Any] | None:
    legal = view["legal"]
    if "play" in legal:
        return {"type": "play", "cards": view["me"]["hand"][:1]}
    if "accept" in legal:
        return {"type": "accept"}
    return None


def thirty_one_move(view: dict[str, Any], swapped: set[tuple[int, int]]) -> dict[str, Any] | None:
    """Keep; each seat swaps once a round; then show, and pass in the last circuit."""
    legal, seat = view["legal"], view["me"]["seat"]
    if "keep" in legal:
        return {"type": "keep"}
    first_turn = (view["round"], seat) not in swapped
    if "swap" in legal and view["thirty_one"]["phase"] == "turns" and first_turn:
        swapped.add((view["round"], seat))
        give, take = view["me"]["hand"][0], view["thirty_one"]["table"][0]
        return {"type": "swap", "give": give, "take": take}
    for kind in ("show", "pass"):
        if kind in legal:
            return {"type": kind}
    return None


MOVES = {"cheat": cheat_move, "thirty_one": thirty_one_move}


async def play_a_game(client: Client, kind: str, options: dict[str, Any]) -> tuple[str, int]:
    """Create, join two players, start, and move until the game is finished: (id, version)."""
    r = await client.post("/v1/games", json={"kind": kind, "options": options})
    assert r.status_code == 201, r.text
    game, host = r.json()["game"]["id"], r.json()["host_token"]
    tokens = []
    for name in ("Ilona", "Bence"):
        r = await client.post(f"/v1/games/{game}/players", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    r = await client.post(f"/v1/games/{game}/start", headers=bearer(host))
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "playing"
    swapped: set[tuple[int, int]] = set()
    for _ in range(MAX_MOVES):
        views = [(await client.get(f"/v1/games/{game}", headers=bearer(t))).json() for t in tokens]
        if views[0]["status"] == "finished":
            assert views[0]["winners"], views[0]
            return game, views[0]["version"]
        for token, view in zip(tokens, views, strict=True):
            command = MOVES[kind](view, swapped)
            if command is None:
                continue
            headers = bearer(token) | {"If-Match": f'"{view["version"]}"'}
            r = await client.post(f"/v1/games/{game}/commands", json=command, headers=headers)
            assert r.status_code == 200, (command, r.text)
            assert r.json()["version"] > view["version"]
            break
        else:
            raise AssertionError(f"nobody may move: {views}")
    raise AssertionError(f"{kind} did not finish in {MAX_MOVES} moves")


@pytest.mark.parametrize(
    ("kind", "options"), [("cheat", {}), ("thirty_one", {"lives": 0})], ids=["cheat", "thirty_one"]
)
async def test_a_whole_game_is_played_over_http_on_the_cluster(
    client: Client, cluster: LocalCluster, kind: str, options: dict[str, Any]
) -> None:
    assert (await client.get("/v1/ready")).status_code == 200
    game, version = await play_a_game(client, kind, options)

    r = await client.get(f"/v1/games/{game}/events", params={"after": 0})
    assert r.status_code == 200
    page = r.json()
    assert page["version"] == version
    assert [e["version"] for e in page["events"]] == list(range(1, version + 1))

    r = await client.get("/v1/games", params={"kind": kind, "status": "finished", "limit": 100})
    assert game in [g["id"] for g in r.json()["games"]]

    held = where(cluster, game)
    assert len(held) == 1, f"the keys of {game} are on several nodes: {held}"
    [keys] = held.values()
    assert len({key_slot(key) for key in keys}) == 1


async def test_a_long_poll_is_woken_by_a_move_on_the_cluster(client: Client) -> None:
    r = await client.post("/v1/games", json={"kind": "cheat"})
    game, version = r.json()["game"]["id"], r.json()["game"]["version"]
    games = client.app.state.games
    # The test client blocks the loop that calls it until the answer is complete, so the join
    # comes from another thread, through the portal into the app's loop.
    join = threading.Timer(0.3, client.blocking_portal.call, (games.join, game, "Ilona"))
    join.start()
    try:
        started = time.monotonic()
        r = await client.get(f"/v1/games/{game}/events", params={"after": version, "wait": 30})
        waited = time.monotonic() - started
    finally:
        join.join()
    assert r.status_code == 200
    assert [e["version"] for e in r.json()["events"]] == [version + 1]
    assert waited < 15, f"the long poll waited {waited:.1f} s: no notification woke it"


@pytest.mark.parametrize("game", ["%7D", "%7Dabc"], ids=["brace", "brace-abc"])
async def test_a_table_id_with_a_closing_brace_is_404_on_the_cluster(
    client: Client, game: str
) -> None:
    assert (await client.get(f"/v1/games/{game}")).status_code == 404
    assert (await client.get(f"/v1/games/{game}/events")).status_code == 404
    assert (await client.post(f"/v1/games/{game}/players", json={"name": "x"})).status_code == 404


async def test_a_timed_out_turn_is_played_by_the_house_on_the_cluster(
    client: Client, redis: RedisCluster
) -> None:
    """A table on each master, each with a 5 s clock: the deadlines share one slot of their own
    (`{clock}`), the tables' logs are on all three nodes, and every clock is acted on once."""
    deadlines_at = redis.get_node_from_key(DEADLINES)
    assert deadlines_at is not None
    tables: dict[int, tuple[str, str]] = {}  # node port → (table id, host token)
    for _ in range(60):  # ids are random: a table lands on a given node one time in three
        r = await client.post(
            "/v1/games", json={"kind": "thirty_one", "options": {"turn_seconds": 5}}
        )
        assert r.status_code == 201, r.text
        game = r.json()["game"]["id"]
        node = redis.get_node_from_key(game_keys(game)["log"])
        assert node is not None
        tables.setdefault(int(node.port), (game, r.json()["host_token"]))
        if len(tables) == 3:
            break
    assert len(tables) == 3
    started: dict[str, tuple[dict[str, Any], list[str]]] = {}
    for game, host in tables.values():
        tokens = []
        for name in ("Ilona", "Bence"):
            r = await client.post(f"/v1/games/{game}/players", json={"name": name})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        r = await client.post(f"/v1/games/{game}/start", headers=bearer(host))
        assert r.status_code == 200, r.text
        started[game] = (r.json(), tokens)
        assert key_slot(game.encode()) != key_slot(DEADLINES.encode())
    moved: dict[str, list[dict[str, Any]]] = {}
    for game, (view, _) in started.items():
        events: list[dict[str, Any]] = []
        for _ in range(4):  # the clock runs out 5 s after the start, and these wait up to 5 s
            after = events[-1]["version"] if events else view["version"]
            r = await client.get(f"/v1/games/{game}/events", params={"after": after, "wait": 5})
            assert r.status_code == 200, r.text
            events += r.json()["events"]
            if len(events) >= 2:
                break
        moved[game] = events
    await asyncio.sleep(0.3)  # a second house move, were there one, would be in by now
    for game, (view, tokens) in started.items():
        seat, events = view["turn"], moved[game]
        assert [(e["type"], e["data"]["seat"]) for e in events[:1]] == [
            ("thirty_one.seat_away", seat)
        ], events
        assert events[1]["data"]["seat"] == seat and events[0]["at"] == events[1]["at"]
        assert events[1]["type"] != "thirty_one.seat_away"
        r = await client.get(f"/v1/games/{game}/events", params={"after": view["version"]})
        assert [e["version"] for e in r.json()["events"]] == [view["version"] + i for i in (1, 2)]
        # The next clock, the other person's, waits in the deadlines' slot.
        now = (await client.get(f"/v1/games/{game}")).json()
        assert now["turn"] == 1 - seat and now["players"][seat]["away"]
        assert await redis.zscore(DEADLINES, game) is not None
        # The other person leaves: the house plays the table out.
        r = await client.post(
            f"/v1/games/{game}/commands", json={"type": "leave"}, headers=bearer(tokens[1 - seat])
        )
        assert r.status_code == 200, r.text
        # Nobody is left to wait for the house: its clock loop plays the table out, paced by
        # the table's bucket (docs/rules.md, the house alone).
        version = r.json()["version"]
        for _ in range(60):
            view = (await client.get(f"/v1/games/{game}")).json()
            if view["status"] == "finished":
                break
            await client.get(
                f"/v1/games/{game}/events", params={"after": view["version"], "wait": 5}
            )
        assert view["status"] == "finished" and view["version"] > version, view["status"]
    assert {int(port) for port in tables} - {int(deadlines_at.port)}, "no table off that node"
