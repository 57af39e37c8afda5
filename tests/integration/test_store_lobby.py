"""The lobby's contract (`LobbyIndex`): tables newest first, filtered, a page at a time, as their
latest append shows them; kept by the Redis lobby and the memory one. After it, the Redis
lobby's indexes: how they are kept and repaired.
"""

from __future__ import annotations

import asyncio
import dataclasses
import time
from collections.abc import Sequence

import pytest
from redis.asyncio import Redis

from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.lobby import LOBBY_KEY, OLD_LOBBY_KEY, lobby_index
from kronikas.adapters.scripts import game_keys
from kronikas.application.ports import Summary
from tests.integration.stores import (
    Backend,
    RedisBackend,
    Store,
    append,
    events,
    new_id,
    page_of,
)

# -- the lobby -----------------------------------------------------------------------------------


async def make_listed(
    backend: Backend, kind: str, statuses: Sequence[str], by: Store | None = None
) -> list[str]:
    """Tables of `kind` with these statuses, created in order one millisecond apart."""
    store = by or backend.store
    base = int(time.time() * 1000)
    ids = []
    for i, status in enumerate(statuses):
        game = new_id()
        summary_ = Summary(game, kind, status, i, base + i, 0)
        await append(store, game, 0, events(*["e"] * (i + 1)), summary=summary_)
        await store.lobby.register(game, base + i)
        backend.listed.append(game)
        backend.latest[game] = summary_
        ids.append(game)
    return ids


async def advance(backend: Backend, game: str, status: str, by: Store | None = None) -> None:
    """Append one event to a table that changes its status (or not) to `status`."""
    store = by or backend.store
    version = (await store.log.read(game, 0, "", 0, rate=False)).version
    later = dataclasses.replace(backend.latest[game], status=status)
    result = await append(store, game, version, events("e"), summary=later)
    assert result.outcome == "ok"
    backend.latest[game] = later


async def test_the_lobby_lists_newest_first_a_page_at_a_time(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open"] * 5)
    newest = ids[::-1]
    page, more = await store.lobby.page(kind, None, 0, 2)
    assert [s.game_id for s in page] == newest[:2] and more
    page, more = await store.lobby.page(kind, None, 2, 2)
    assert [s.game_id for s in page] == newest[2:4] and more
    page, more = await store.lobby.page(kind, None, 4, 2)
    assert [s.game_id for s in page] == newest[4:] and not more
    page, more = await store.lobby.page(kind, None, 0, 5)
    assert [s.game_id for s in page] == newest and not more
    assert await store.lobby.page(kind, None, 5, 2) == ([], False)
    first = page[-1]
    assert (first.kind, first.status, first.players, first.version) == (kind, "open", 0, 1)
    assert page[0].version == 5 and page[0].players == 4
    assert page[0].created_ms - first.created_ms == 4


async def test_the_lobby_filters_by_kind_and_status(backend: Backend, store: Store) -> None:
    kind, other_kind = f"test-{new_id()}", f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open", "playing", "finished", "playing"])
    others = await make_listed(backend, other_kind, ["playing"])
    playing, more = await store.lobby.page(kind, "playing", 0, 10)
    assert [s.game_id for s in playing] == [ids[3], ids[1]] and not more
    assert all(s.status == "playing" for s in playing)
    page, more = await store.lobby.page(kind, "playing", 0, 1)
    assert [s.game_id for s in page] == [ids[3]] and more
    assert [s.game_id for s in (await store.lobby.page(kind, "finished", 0, 10))[0]] == [ids[2]]
    assert [s.game_id for s in (await store.lobby.page(other_kind, None, 0, 10))[0]] == others
    every, _ = await store.lobby.page(None, None, 0, 100_000)
    assert set(ids + others) <= {s.game_id for s in every}


async def test_the_lobby_shows_the_summary_of_the_latest_append(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    [game] = await make_listed(backend, kind, ["open"])
    later = Summary(game, kind, "playing", 3, 0, 0)
    await append(store, game, 1, events("joined", "started"), summary=later)
    [entry], _ = await store.lobby.page(kind, None, 0, 10)
    assert (entry.status, entry.players, entry.version) == ("playing", 3, 3)


async def test_the_lobby_keeps_whether_a_table_is_seeded(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    seeded, plain = new_id(), new_id()
    for game, flag in ((seeded, True), (plain, False)):
        made = Summary(game, kind, "open", 0, int(time.time() * 1000), 0, seeded=flag)
        assert (await append(store, game, 0, events("created"), summary=made)).outcome == "ok"
        await store.lobby.register(game, made.created_ms)
    later = Summary(seeded, kind, "playing", 2, 0, 0, seeded=True)
    await append(store, seeded, 1, events("started"), summary=later)
    found, _ = await store.lobby.page(kind, None, 0, 10)
    assert {s.game_id: s.seeded for s in found} == {seeded: True, plain: False}


async def test_the_lobby_leaves_out_tables_that_expired(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(backend, kind, ["open"] * 3)
    await backend.lapse(ids[1])
    page, more = await store.lobby.page(kind, None, 0, 10)
    assert [s.game_id for s in page] == [ids[2], ids[0]] and not more
    assert await page_of(store, kind, "open", 1, 1) == ([ids[0]], False)


async def test_a_table_that_expired_before_it_was_registered_is_not_listed(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    game = new_id()
    await append(store, game, 0, events("e"), summary=Summary(game, kind, "open", 0, 1, 0))
    backend.listed.append(game)
    await backend.lapse(game)
    await store.lobby.register(game, 1)
    assert await page_of(store, kind, None) == ([], False)


async def list_in_one_millisecond(backend: Backend, kind: str) -> tuple[list[str], str, list[str]]:
    """Fifty tables of one millisecond listed in turn by two processes; one of the millisecond
    before, listed after them; and twenty of the next millisecond, listed at once by both."""
    created_ms = int(time.time() * 1000)
    stores = [backend.store, await backend.another()]
    # Ids that sort against the order of listing: an order by id cannot pass for it.
    fresh = iter(sorted((new_id() for _ in range(71)), reverse=True))
    ids = []
    for i in range(50):
        game = next(fresh)
        by = stores[i % 2]
        summary_ = Summary(game, kind, "open", 0, created_ms, 0)
        await append(by, game, 0, events("created"), summary=summary_)
        await by.lobby.register(game, created_ms)
        backend.listed.append(game)
        ids.append(game)
    earlier = next(fresh)  # made a millisecond before them, listed after them
    summary_ = Summary(earlier, kind, "open", 0, created_ms - 1, 0)
    await append(stores[1], earlier, 0, events("created"), summary=summary_)
    await stores[1].lobby.register(earlier, created_ms - 1)
    backend.listed.append(earlier)
    together = [next(fresh) for _ in range(20)]  # listed at once, by both processes
    for i, game in enumerate(together):
        summary_ = Summary(game, kind, "playing", 0, created_ms + 1, 0)
        await append(stores[i % 2], game, 0, events("created"), summary=summary_)
    backend.listed.extend(together)
    await asyncio.gather(
        *(stores[i % 2].lobby.register(game, created_ms + 1) for i, game in enumerate(together))
    )
    return ids, earlier, together


async def test_tables_listed_in_one_millisecond_keep_the_order_they_were_listed_in(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids, earlier, together = await list_in_one_millisecond(backend, kind)
    newest = ids[::-1]
    assert await page_of(store, kind, "open") == ([*newest, earlier], False)
    assert await page_of(store, kind, None, 20, 10) == (newest[:10], True)
    assert await page_of(store, kind, "open", 10, 10) == (newest[10:20], True)
    assert await page_of(store, kind, "open", 45, 10) == ([*newest[45:], earlier], False)
    at_once, more = await page_of(store, kind, "playing")
    assert sorted(at_once) == sorted(together) and not more
    assert await page_of(store, kind, "playing") == (at_once, False), "one order, every time"


async def move_tables(backend: Backend, kind: str) -> list[str]:
    """Six open tables, three of which then change status (one twice, one not at first)."""
    ids = await make_listed(backend, kind, ["open"] * 6)
    await advance(backend, ids[1], "playing")
    await advance(backend, ids[4], "playing")
    await advance(backend, ids[4], "playing")  # no change: stays where it is
    await advance(backend, ids[4], "finished")
    await advance(backend, ids[2], "finished")
    return ids


async def test_a_table_moves_between_the_pages_of_its_status_as_it_changes(
    backend: Backend, store: Store
) -> None:
    kind = f"test-{new_id()}"
    ids = await move_tables(backend, kind)
    assert await page_of(store, kind, "open", 0, 2) == ([ids[5], ids[3]], True)
    assert await page_of(store, kind, "open", 2, 2) == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([ids[1]], False)
    assert await page_of(store, kind, "finished", 0, 1) == ([ids[4]], True)
    assert await page_of(store, kind, "finished", 1, 1) == ([ids[2]], False)
    everyone, _ = await store.lobby.page(kind, None, 0, 10)
    assert [(s.game_id, s.status) for s in everyone] == [
        (ids[5], "open"),
        (ids[4], "finished"),
        (ids[3], "open"),
        (ids[2], "finished"),
        (ids[1], "playing"),
        (ids[0], "open"),
    ]
    finished, _ = await page_of(store, None, "finished", 0, 100_000)
    assert [g for g in finished if g in ids] == [ids[4], ids[2]]


# -- the lobby's indexes -------------------------------------------------------------------------


def indexes_of(kind: str, status: str) -> list[str]:
    """Every index that lists a table of `kind` in `status`."""
    return [LOBBY_KEY, lobby_index(kind), lobby_index(None, status), lobby_index(kind, status)]


async def test_a_read_drops_the_tables_whose_meta_expired_from_every_index(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 3)
    await redis.delete(game_keys(ids[1])["meta"])
    page, more = await store.lobby.page(kind, None, 0, 10)
    assert [s.game_id for s in page] == [ids[2], ids[0]] and not more
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ids[1]) is None, index
        assert await redis.zscore(index, ids[0]) is not None, index


async def test_tables_listed_at_once_get_scores_of_their_own_that_order_them(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    _, _, together = await list_in_one_millisecond(on_redis, kind)
    scores = [await redis.zscore(LOBBY_KEY, game) for game in together]
    assert len(set(scores)) == len(together), "two tables listed at once share a score"
    at_once, more = await page_of(on_redis.store, kind, "playing")
    assert sorted(at_once) == sorted(together) and not more
    assert at_once == [g for _, g in sorted(zip(scores, together, strict=True), reverse=True)]


async def test_the_appends_move_a_table_between_the_indexes_before_any_read(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    ids = await move_tables(on_redis, kind)
    assert await redis.zrevrange(lobby_index(kind, "open"), 0, -1) == [
        ids[i].encode() for i in (5, 3, 0)
    ]
    assert await redis.zrevrange(lobby_index(kind, "finished"), 0, -1) == [
        ids[i].encode() for i in (4, 2)
    ]
    for game in (ids[1], ids[2], ids[4]):
        assert await redis.zscore(lobby_index(None, "open"), game) is None


async def test_a_move_lost_after_the_append_is_made_by_a_read_of_the_old_status(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 4)

    async def died(*_: object) -> None:
        """The process died between the append and the move."""

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, ids[1], "playing")
    await advance(on_redis, ids[2], "playing")
    monkeypatch.undo()
    assert await redis.zscore(lobby_index(kind, "open"), ids[1]) is not None
    assert await redis.zscore(lobby_index(kind, "playing"), ids[1]) is None
    assert await page_of(store, kind, "open", 0, 2) == ([ids[3], ids[0]], False)
    for game in (ids[1], ids[2]):
        for index in (lobby_index(kind, "open"), lobby_index(None, "open")):
            assert await redis.zscore(index, game) is None
    assert await page_of(store, kind, "playing") == ([ids[2], ids[1]], False)
    assert await page_of(store, kind, "open") == ([ids[3], ids[0]], False)


async def test_a_move_lost_after_the_append_is_made_by_the_next_append(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    [game] = await make_listed(on_redis, kind, ["open"])

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, game, "playing")
    monkeypatch.undo()
    assert await redis.zscore(lobby_index(kind, "playing"), game) is None
    await advance(on_redis, game, "playing")  # the meta still says the indexes hold "open"
    assert await redis.zscore(lobby_index(kind, "playing"), game) is not None
    assert await redis.zscore(lobby_index(kind, "open"), game) is None
    assert await page_of(store, kind, "playing") == ([game], False)


async def test_a_lost_last_move_is_made_by_a_read_of_every_status(
    on_redis: RedisBackend, redis: Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 2)
    await advance(on_redis, ids[0], "playing")

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store.lobby, "relist", died)
    await advance(on_redis, ids[0], "finished")  # no append follows the last one
    monkeypatch.undo()
    assert await page_of(store, kind, "finished") == ([], False)  # not found yet, never wrong
    everyone, _ = await store.lobby.page(kind, None, 0, 10)
    assert [(s.game_id, s.status) for s in everyone] == [(ids[1], "open"), (ids[0], "finished")]
    assert await page_of(store, kind, "finished") == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([], False)
    assert await redis.zscore(lobby_index(None, "playing"), ids[0]) is None


async def test_a_move_that_entered_the_new_indexes_but_did_not_leave_the_old_is_finished_on_read(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    ids = await make_listed(on_redis, kind, ["open"] * 3)
    await advance(on_redis, ids[1], "playing")
    score = await redis.zscore(LOBBY_KEY, ids[1])
    for index in (lobby_index(kind, "open"), lobby_index(None, "open")):
        await redis.zadd(index, {ids[1]: score})  # as if the move had not left them yet
    assert await page_of(store, kind, "open", 0, 1) == ([ids[2]], True)
    assert await page_of(store, kind, "open", 1, 1) == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[1]) is None
    assert await page_of(store, kind, "playing") == ([ids[1]], False)


async def test_registering_drops_expired_tables_that_no_read_reaches(
    on_redis: RedisBackend, redis: Redis
) -> None:
    kind = f"test-{new_id()}"
    store = RedisStores(redis)
    ancient = new_id()  # the oldest entry of all: a new store checks it first
    await append(store, ancient, 0, events("e"), summary=Summary(ancient, kind, "open", 0, 1, 0))
    await store.lobby.register(ancient, 1)
    on_redis.listed.append(ancient)
    await redis.delete(game_keys(ancient)["meta"])
    assert await redis.zrank(LOBBY_KEY, ancient) == 0
    await make_listed(on_redis, kind, ["open"], by=RedisStores(redis))
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ancient) is None, index


async def test_the_lobby_adopts_the_tables_an_older_version_listed(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    kind = f"test-{new_id()}"
    base = int(time.time() * 1000)
    ids = []
    for i in range(3):  # an older version appended them and listed them in one sorted set
        game = new_id()
        summary_ = Summary(game, kind, "open", 0, base, 0)
        await append(store, game, 0, events("e"), summary=summary_)
        await redis.zadd(OLD_LOBBY_KEY, {game: base + i})
        on_redis.latest[game] = summary_
        ids.append(game)
    expired = new_id()
    await redis.zadd(OLD_LOBBY_KEY, {expired: base + 3})
    on_redis.listed.extend([*ids, expired])
    upgraded = RedisStores(redis)
    assert await page_of(upgraded, kind, None) == (ids[::-1], False)
    assert await page_of(upgraded, kind, "open", 1, 1) == ([ids[1]], True)
    for game in [*ids, expired]:
        assert await redis.zscore(OLD_LOBBY_KEY, game) is None
    assert await redis.zscore(LOBBY_KEY, expired) is None
    await advance(on_redis, ids[0], "playing", by=upgraded)  # moves, though never told "open"
    assert await page_of(upgraded, kind, "playing") == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[0]) is None
