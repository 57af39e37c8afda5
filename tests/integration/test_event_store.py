"""The event store's contract, against the session's real Redis: one test per promise it keeps."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import AsyncIterator, Sequence
from typing import Any

import msgspec
import pytest
from redis.asyncio import Redis
from redis.crc import key_slot

from kronikas.adapters.event_store import (
    LOBBY_INDEXES,
    LOBBY_KEY,
    OLD_LOBBY_KEY,
    RedisEventStore,
    SummaryRecord,
    game_keys,
    lobby_index,
    notify_channel,
)
from kronikas.adapters.notifier import Notifier
from kronikas.application.ports import AppendResult, Idempotency, Summary

TTL = 600


def new_id() -> str:
    return secrets.token_hex(8)


def summary(game_id: str, status: str = "open", kind: str = "cheat", players: int = 0) -> Summary:
    return Summary(game_id, kind, status, players, int(time.time() * 1000), 0)


def events(*names: str) -> list[bytes]:
    return [f'{{"e":"{name}"}}'.encode() for name in names]


async def append(
    store: RedisEventStore,
    game_id: str,
    expected: int,
    records: Sequence[bytes],
    **kwargs: Any,
) -> AppendResult:
    kwargs.setdefault("ttl_s", TTL)
    kwargs.setdefault("summary", summary(game_id))
    return await store.append(game_id, expected, records, **kwargs)


async def log_of(redis: Redis, game_id: str) -> list[bytes]:
    records = await redis.lrange(game_keys(game_id)["log"], 0, -1)
    return [r.encode() if isinstance(r, str) else r for r in records]


@pytest.fixture
def store(redis: Redis) -> RedisEventStore:
    return RedisEventStore(redis)


@pytest.fixture
def limited(redis: Redis) -> RedisEventStore:
    return RedisEventStore(redis, rate_per_s=2, burst=2)


@pytest.fixture
async def listed(redis: Redis) -> AsyncIterator[list[str]]:
    """Ids a test lists in the shared lobby; they leave it afterwards, unseen by other tests."""
    ids: list[str] = []
    yield ids
    if ids:
        pipe = redis.pipeline(transaction=False)
        for index in {LOBBY_KEY, *(i.decode() for i in await redis.smembers(LOBBY_INDEXES))}:
            pipe.zrem(index, *ids)
        pipe.zrem(OLD_LOBBY_KEY, *ids)
        await pipe.execute()


class Notifications:
    """The versions published about one game, from a pub/sub subscription to its channel."""

    def __init__(self, redis: Redis, game_id: str) -> None:
        self.pubsub: Any = redis.pubsub(ignore_subscribe_messages=True)
        self.channel = notify_channel(game_id)

    async def __aenter__(self) -> Notifications:
        await self.pubsub.subscribe(self.channel)
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.pubsub.aclose()

    async def heard(self, quiet: float = 0.3) -> list[str]:
        """The messages published until none has come for `quiet` seconds."""
        seen: list[str] = []
        loop = asyncio.get_running_loop()
        until = loop.time() + quiet
        while (left := until - loop.time()) > 0:
            # None also stands for an ignored subscribe confirmation: keep listening.
            message = await self.pubsub.get_message(timeout=left)
            if message is None:
                continue
            assert message["channel"].decode() == self.channel
            seen.append(message["data"].decode())
            until = loop.time() + quiet
        return seen


# -- appending at an expected version ------------------------------------------------------------


async def test_append_at_the_expected_version_numbers_events_from_one(
    store: RedisEventStore,
) -> None:
    game = new_id()
    first = await append(store, game, 0, events("a"))
    assert (first.outcome, first.version) == ("ok", 1)
    second = await append(store, game, 1, events("b"))
    assert (second.outcome, second.version) == ("ok", 2)
    third = await append(store, game, 2, events("c", "d"))
    assert (third.outcome, third.version) == ("ok", 4)
    read = await store.read(game, 0, "", 100)
    assert read.version == 4
    assert read.records == events("a", "b", "c", "d")


async def test_several_events_are_appended_all_or_none(
    store: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    done = await append(store, game, 0, events("a", "b", "c", "d", "e"))
    assert (done.outcome, done.version) == ("ok", 5)
    refused = await append(store, game, 3, events("x", "y", "z"))
    assert refused.outcome == "conflict"
    assert await log_of(redis, game) == events("a", "b", "c", "d", "e")


async def test_records_are_kept_byte_for_byte(store: RedisEventStore) -> None:
    game = new_id()
    odd = [b"\x00\xff\n\r", "Krónikás ♥".encode(), b"", b"x" * 10_000]
    assert (await append(store, game, 0, odd)).version == 4
    assert (await store.read(game, 0, "", 10)).records == odd


async def test_stale_version_is_a_conflict_with_the_events_after_it(
    store: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b", "c"))
    conflict = await append(store, game, 1, events("x"), auth=[("t", "0")])
    assert conflict.outcome == "conflict"
    assert conflict.version == 3
    assert conflict.records == events("b", "c")
    assert await log_of(redis, game) == events("a", "b", "c")
    assert not await redis.exists(game_keys(game)["auth"])
    assert (await append(store, game, 0, events("y"))).records == events("a", "b", "c")


async def test_expected_beyond_the_log_is_a_conflict_without_events(
    store: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b"))
    conflict = await append(store, game, 5, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 2, [])
    assert await log_of(redis, game) == events("a", "b")

    empty = new_id()
    conflict = await append(store, empty, 1, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 0, [])
    assert not await redis.exists(*game_keys(empty).values())


# -- reading -------------------------------------------------------------------------------------


async def test_read_returns_the_events_after_a_version_up_to_a_limit(
    store: RedisEventStore,
) -> None:
    game = new_id()
    await append(store, game, 0, events("1", "2", "3", "4", "5"))
    after_two = await store.read(game, 2, "", 100)
    assert (after_two.version, after_two.records) == (5, events("3", "4", "5"))
    assert (after_two.role, after_two.retry_after_ms) == ("", 0)
    assert (await store.read(game, 1, "", 2)).records == events("2", "3")
    assert (await store.read(game, 4, "", 2)).records == events("5")
    at_end = await store.read(game, 5, "", 100)
    assert (at_end.version, at_end.records) == (5, [])
    beyond = await store.read(game, 9, "", 100)
    assert (beyond.version, beyond.records) == (5, [])
    assert (await store.read(game, 0, "", 0)).records == []


async def test_reading_an_unknown_game_finds_version_zero(store: RedisEventStore) -> None:
    read = await store.read(new_id(), 0, "some-token-hash", 100)
    assert (read.version, read.role, read.retry_after_ms, read.records) == (0, "", 0, [])


async def test_auth_entries_are_written_with_the_append_and_read_back_as_roles(
    store: RedisEventStore,
) -> None:
    game = new_id()
    await append(store, game, 0, events("created"), auth=[("host-hash", "host")])
    await append(store, game, 1, events("joined"), auth=[("seat0-hash", "0")])
    await append(store, game, 2, events("joined", "joined"), auth=[("s1", "1"), ("s2", "2")])
    assert (await store.read(game, 0, "host-hash", 1)).role == "host"
    assert (await store.read(game, 0, "seat0-hash", 1)).role == "0"
    assert (await store.read(game, 0, "s2", 1)).role == "2"
    assert (await store.read(game, 0, "unknown-hash", 1)).role == ""
    assert (await store.read(game, 0, "", 1)).role == ""


# -- idempotency ---------------------------------------------------------------------------------


async def test_a_repeated_idempotency_key_replays_and_appends_nothing(
    store: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    await append(store, game, 0, events("created"))
    once = Idempotency("key-1", "fingerprint-1", b'{"version": 2}')
    first = await append(store, game, 1, events("moved"), idempotency=once)
    assert (first.outcome, first.version) == ("ok", 2)
    again = await append(store, game, 1, events("moved"), idempotency=once)
    assert (again.outcome, again.replay) == ("replay", b'fingerprint-1\n{"version": 2}')
    other_body = Idempotency("key-1", "fingerprint-2", b"other")
    assert (await append(store, game, 2, events("x"), idempotency=other_body)).replay == (
        b'fingerprint-1\n{"version": 2}'
    )
    assert await log_of(redis, game) == events("created", "moved")
    assert await store.idempotent(game, "key-1") == b'fingerprint-1\n{"version": 2}'
    assert await store.idempotent(game, "key-2") is None
    assert await store.idempotent(new_id(), "key-1") is None


async def test_a_refused_append_records_no_idempotency_key(store: RedisEventStore) -> None:
    game = new_id()
    await append(store, game, 0, events("created"))
    key = Idempotency("key-1", "fp", b"answer")
    assert (await append(store, game, 0, events("x"), idempotency=key)).outcome == "conflict"
    assert await store.idempotent(game, "key-1") is None
    assert (await append(store, game, 1, events("x"), idempotency=key)).outcome == "ok"


async def test_idempotency_keys_are_per_game(store: RedisEventStore) -> None:
    one, two = new_id(), new_id()
    key = Idempotency("same-key", "fp", b"answer")
    assert (await append(store, one, 0, events("a"), idempotency=key)).outcome == "ok"
    assert (await append(store, two, 0, events("a"), idempotency=key)).outcome == "ok"


# -- rate limiting -------------------------------------------------------------------------------


async def test_appends_beyond_the_burst_are_limited_until_tokens_refill(
    limited: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    assert (await append(limited, game, 0, events("a"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "ok"
    refused = await append(limited, game, 2, events("c"), token_hash="t")
    assert refused.outcome == "limited"
    assert 0 < refused.retry_after_ms <= 500
    assert await log_of(redis, game) == events("a", "b")
    other = await append(limited, game, 2, events("c"), token_hash="another")
    assert other.outcome == "ok", "the bucket is per token"
    await asyncio.sleep(refused.retry_after_ms / 1000 + 0.05)
    assert (await append(limited, game, 3, events("d"), token_hash="t")).outcome == "ok"


async def test_reads_beyond_the_burst_are_limited_until_tokens_refill(
    limited: RedisEventStore,
) -> None:
    game = new_id()
    await append(limited, game, 0, events("a"))
    assert (await limited.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await limited.read(game, 0, "t", 10)).retry_after_ms == 0
    refused = await limited.read(game, 0, "t", 10)
    assert 0 < refused.retry_after_ms <= 500
    assert refused.records == []
    unlimited = await limited.read(game, 0, "t", 10, rate=False)
    assert (unlimited.retry_after_ms, unlimited.records) == (0, events("a"))
    await asyncio.sleep(refused.retry_after_ms / 1000 + 0.05)
    again = await limited.read(game, 0, "t", 10)
    assert (again.retry_after_ms, again.records) == (0, events("a"))


async def test_reads_and_appends_share_a_tokens_bucket(limited: RedisEventStore) -> None:
    game = new_id()
    assert (await append(limited, game, 0, events("a"), token_hash="t")).outcome == "ok"
    assert (await limited.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "limited"
    assert (await limited.read(game, 0, "t", 10)).retry_after_ms > 0


async def test_without_a_token_there_is_no_limit(limited: RedisEventStore) -> None:
    game = new_id()
    for version in range(6):
        assert (await append(limited, game, version, events("e"))).outcome == "ok"
        assert (await limited.read(game, 0, "", 1)).retry_after_ms == 0


# -- keys: expiry and the hash tag -----------------------------------------------------------------


async def test_an_append_sets_the_ttl_of_every_key_of_the_game(
    store: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    keys = game_keys(game)
    once = Idempotency("k", "fp", b"answer")
    await append(store, game, 0, events("a"), ttl_s=300, auth=[("h", "host")], idempotency=once)
    idem = f"kr:{{{game}}}:idem:k"
    for key in (keys["log"], keys["meta"], keys["auth"], idem):
        assert 295 <= await redis.ttl(key) <= 300, key
    await append(store, game, 1, events("b"), ttl_s=3000)
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 2995 <= await redis.ttl(key) <= 3000, key


async def test_every_key_of_a_game_carries_its_hash_tag(
    limited: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    await append(
        limited,
        game,
        0,
        events("a"),
        token_hash="t",
        auth=[("h", "host")],
        idempotency=Idempotency("k", "fp", b"answer"),
    )
    await limited.read(game, 0, "reader", 10)
    found = [key.decode() async for key in redis.scan_iter(match=f"*{game}*", count=1000)]
    assert len(found) == 6, found  # log, meta, auth, idempotency, and two rate buckets
    assert all(f"{{{game}}}" in key for key in found)
    assert {key_slot(key.encode()) for key in found} == {key_slot(game.encode())}


# -- notifications -------------------------------------------------------------------------------


async def test_each_successful_append_publishes_its_version_and_its_events(
    limited: RedisEventStore, redis: Redis
) -> None:
    game = new_id()
    async with Notifications(redis, game) as notifications:
        await append(limited, game, 0, events("a"))
        await append(limited, game, 1, events("b", "c"), idempotency=Idempotency("k", "fp", b""))
        assert await notifications.heard() == [
            '1\n{"e":"a"}',
            '3\n{"e":"b"}\n{"e":"c"}',
        ]

        assert (await append(limited, game, 1, events("x"))).outcome == "conflict"
        assert (await append(limited, game, 9, events("x"))).outcome == "conflict"
        replay = await append(
            limited, game, 3, events("x"), idempotency=Idempotency("k", "fp", b"")
        )
        assert replay.outcome == "replay"
        for _ in range(2):  # the bucket empties on refused appends too
            assert (await append(limited, game, 0, events("x"), token_hash="t")).version == 3
        assert (await append(limited, game, 3, events("x"), token_hash="t")).outcome == "limited"
        assert await notifications.heard() == []


@contextlib.asynccontextmanager
async def listening(redis: Redis, linger_s: float = 30.0) -> AsyncIterator[Notifier]:
    """A started notifier, stopped afterwards."""
    notifier = Notifier(redis, linger_s=linger_s)
    notifier.start()
    try:
        yield notifier
    finally:
        await notifier.stop()


async def subscribers(redis: Redis, game_id: str) -> int:
    channel = notify_channel(game_id)
    return int(dict(await redis.pubsub_numsub(channel))[channel.encode()])


async def test_the_notifier_wakes_the_waiters_of_the_game_that_changed(
    store: RedisEventStore, redis: Redis
) -> None:
    game, other = new_id(), new_id()
    async with listening(redis) as notifier:
        async with notifier.waiting(game) as waiter, notifier.waiting(other) as bystander:
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
            assert not bystander.event.is_set()
        async with notifier.waiting(game) as waiter:
            await append(store, other, 0, events("a"))
            assert not await waiter.wait(0.3)
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


async def test_a_waiter_is_handed_out_once_the_channel_is_subscribed(
    store: RedisEventStore, redis: Redis
) -> None:
    """No sleep between entering and appending: the subscription is confirmed on entry."""
    async with listening(redis) as notifier:
        for _ in range(20):
            game = new_id()
            async with notifier.waiting(game) as waiter:
                assert await subscribers(redis, game) == 1
                await append(store, game, 0, events("a"))
                assert await waiter.wait(1.0)


async def test_the_notifier_listens_only_to_games_waited_on_and_lets_go_after_a_while(
    store: RedisEventStore, redis: Redis
) -> None:
    game, unwatched = new_id(), new_id()
    async with listening(redis, linger_s=0.3) as notifier:
        async with notifier.waiting(game):
            assert notifier.listening_to() == {game}
            assert await subscribers(redis, unwatched) == 0
        assert await subscribers(redis, game) == 1  # it lingers, for the next poll
        async with notifier.waiting(game) as waiter:  # ... which needs no new subscription
            await append(store, game, 0, events("a"))
            assert await waiter.wait(1.0)
        for _ in range(100):
            if await subscribers(redis, game) == 0:
                break
            await asyncio.sleep(0.02)
        assert await subscribers(redis, game) == 0
        assert notifier.listening_to() == set()
        async with notifier.waiting(game) as waiter:  # and subscribes again when needed
            await append(store, game, 1, events("b"))
            assert await waiter.wait(1.0)


# -- the lobby -----------------------------------------------------------------------------------


async def make_listed(
    store: RedisEventStore, listed: list[str], kind: str, statuses: Sequence[str]
) -> list[str]:
    """Tables of `kind` with these statuses, created in order one millisecond apart."""
    base = int(time.time() * 1000)
    ids = []
    for i, status in enumerate(statuses):
        game = new_id()
        summary_ = Summary(game, kind, status, i, base + i, 0)
        await append(store, game, 0, events(*["e"] * (i + 1)), summary=summary_)
        await store.register(game, base + i)
        listed.append(game)
        ids.append(game)
    return ids


async def test_the_lobby_lists_newest_first_a_page_at_a_time(
    store: RedisEventStore, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 5)
    newest = ids[::-1]
    page, more = await store.lobby(kind, None, 0, 2)
    assert [s.game_id for s in page] == newest[:2] and more
    page, more = await store.lobby(kind, None, 2, 2)
    assert [s.game_id for s in page] == newest[2:4] and more
    page, more = await store.lobby(kind, None, 4, 2)
    assert [s.game_id for s in page] == newest[4:] and not more
    page, more = await store.lobby(kind, None, 0, 5)
    assert [s.game_id for s in page] == newest and not more
    assert await store.lobby(kind, None, 5, 2) == ([], False)
    first = page[-1]
    assert (first.kind, first.status, first.players, first.version) == (kind, "open", 0, 1)
    assert page[0].version == 5 and page[0].players == 4
    assert page[0].created_ms - first.created_ms == 4


async def test_the_lobby_filters_by_kind_and_status(
    store: RedisEventStore, listed: list[str]
) -> None:
    kind, other_kind = f"test-{new_id()}", f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open", "playing", "finished", "playing"])
    others = await make_listed(store, listed, other_kind, ["playing"])
    playing, more = await store.lobby(kind, "playing", 0, 10)
    assert [s.game_id for s in playing] == [ids[3], ids[1]] and not more
    assert all(s.status == "playing" for s in playing)
    page, more = await store.lobby(kind, "playing", 0, 1)
    assert [s.game_id for s in page] == [ids[3]] and more
    assert [s.game_id for s in (await store.lobby(kind, "finished", 0, 10))[0]] == [ids[2]]
    assert [s.game_id for s in (await store.lobby(other_kind, None, 0, 10))[0]] == others
    every, _ = await store.lobby(None, None, 0, 100_000)
    assert set(ids + others) <= {s.game_id for s in every}


async def test_the_lobby_shows_the_summary_of_the_latest_append(
    store: RedisEventStore, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    [game] = await make_listed(store, listed, kind, ["open"])
    later = Summary(game, kind, "playing", 3, 0, 0)
    await append(store, game, 1, events("joined", "started"), summary=later)
    [entry], _ = await store.lobby(kind, None, 0, 10)
    assert (entry.status, entry.players, entry.version) == ("playing", 3, 3)


async def test_the_lobby_drops_tables_whose_meta_expired(
    store: RedisEventStore, redis: Redis, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 3)
    await redis.delete(game_keys(ids[1])["meta"])
    page, more = await store.lobby(kind, None, 0, 10)
    assert [s.game_id for s in page] == [ids[2], ids[0]] and not more
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ids[1]) is None, index
        assert await redis.zscore(index, ids[0]) is not None, index


def indexes_of(kind: str, status: str) -> list[str]:
    """Every index that lists a table of `kind` in `status`."""
    return [LOBBY_KEY, lobby_index(kind), lobby_index(None, status), lobby_index(kind, status)]


async def advance(store: RedisEventStore, redis: Redis, game: str, status: str) -> None:
    """Append one event to a table that changes its status (or not) to `status`."""
    meta = await redis.hmget(game_keys(game)["meta"], ["version", "summary"])
    rec = msgspec.json.decode(meta[1], type=SummaryRecord)
    later = Summary(game, rec.kind, status, rec.players, rec.created_ms, 0)
    result = await append(store, game, int(meta[0]), events("e"), summary=later)
    assert result.outcome == "ok"


async def page_of(
    store: RedisEventStore, kind: str | None, status: str | None, offset: int = 0, limit: int = 100
) -> tuple[list[str], bool]:
    page, more = await store.lobby(kind, status, offset, limit)
    return [s.game_id for s in page], more


async def test_tables_listed_in_one_millisecond_keep_the_order_they_were_listed_in(
    store: RedisEventStore, redis: Redis, redis_url: str, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    created_ms = int(time.time() * 1000)
    other = Redis.from_url(redis_url)  # a second process, with a store of its own
    try:
        stores = [store, RedisEventStore(other)]
        ids = []
        for i in range(50):
            game = new_id()
            by = stores[i % 2]
            summary_ = Summary(game, kind, "open", 0, created_ms, 0)
            await append(by, game, 0, events("created"), summary=summary_)
            await by.register(game, created_ms)
            listed.append(game)
            ids.append(game)
        earlier = new_id()  # made a millisecond before them, listed after them
        summary_ = Summary(earlier, kind, "open", 0, created_ms - 1, 0)
        await append(stores[1], earlier, 0, events("created"), summary=summary_)
        await stores[1].register(earlier, created_ms - 1)
        listed.append(earlier)
        together = [new_id() for _ in range(20)]  # listed at once, by both processes
        for i, game in enumerate(together):
            summary_ = Summary(game, kind, "playing", 0, created_ms + 1, 0)
            await append(stores[i % 2], game, 0, events("created"), summary=summary_)
        listed.extend(together)
        await asyncio.gather(
            *(stores[i % 2].register(game, created_ms + 1) for i, game in enumerate(together))
        )
    finally:
        await other.aclose()
    newest = ids[::-1]
    assert await page_of(store, kind, "open") == ([*newest, earlier], False)
    assert await page_of(store, kind, None, 20, 10) == (newest[:10], True)
    assert await page_of(store, kind, "open", 10, 10) == (newest[10:20], True)
    assert await page_of(store, kind, "open", 45, 10) == ([*newest[45:], earlier], False)
    scores = [await redis.zscore(LOBBY_KEY, game) for game in together]
    assert len(set(scores)) == len(together), "two tables listed at once share a score"
    at_once, more = await page_of(store, kind, "playing")
    assert sorted(at_once) == sorted(together) and not more
    assert at_once == [g for _, g in sorted(zip(scores, together, strict=True), reverse=True)]


async def test_a_table_moves_between_the_pages_of_its_status_as_it_changes(
    store: RedisEventStore, redis: Redis, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 6)
    await advance(store, redis, ids[1], "playing")
    await advance(store, redis, ids[4], "playing")
    await advance(store, redis, ids[4], "playing")  # no change: stays where it is
    await advance(store, redis, ids[4], "finished")
    await advance(store, redis, ids[2], "finished")
    # the appends moved them: the indexes are right before any read checks them
    assert await redis.zrevrange(lobby_index(kind, "open"), 0, -1) == [
        ids[i].encode() for i in (5, 3, 0)
    ]
    assert await redis.zrevrange(lobby_index(kind, "finished"), 0, -1) == [
        ids[i].encode() for i in (4, 2)
    ]
    for game in (ids[1], ids[2], ids[4]):
        assert await redis.zscore(lobby_index(None, "open"), game) is None
    assert await page_of(store, kind, "open", 0, 2) == ([ids[5], ids[3]], True)
    assert await page_of(store, kind, "open", 2, 2) == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([ids[1]], False)
    assert await page_of(store, kind, "finished", 0, 1) == ([ids[4]], True)
    assert await page_of(store, kind, "finished", 1, 1) == ([ids[2]], False)
    everyone, _ = await store.lobby(kind, None, 0, 10)
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


async def test_a_move_lost_after_the_append_is_made_by_a_read_of_the_old_status(
    store: RedisEventStore, redis: Redis, listed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 4)

    async def died(*_: object) -> None:
        """The process died between the append and the move."""

    monkeypatch.setattr(store, "_relist", died)
    await advance(store, redis, ids[1], "playing")
    await advance(store, redis, ids[2], "playing")
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
    store: RedisEventStore, redis: Redis, listed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = f"test-{new_id()}"
    [game] = await make_listed(store, listed, kind, ["open"])

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store, "_relist", died)
    await advance(store, redis, game, "playing")
    monkeypatch.undo()
    assert await redis.zscore(lobby_index(kind, "playing"), game) is None
    await advance(store, redis, game, "playing")  # the meta still says the indexes hold "open"
    assert await redis.zscore(lobby_index(kind, "playing"), game) is not None
    assert await redis.zscore(lobby_index(kind, "open"), game) is None
    assert await page_of(store, kind, "playing") == ([game], False)


async def test_a_lost_last_move_is_made_by_a_read_of_every_status(
    store: RedisEventStore, redis: Redis, listed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 2)
    await advance(store, redis, ids[0], "playing")

    async def died(*_: object) -> None:
        pass

    monkeypatch.setattr(store, "_relist", died)
    await advance(store, redis, ids[0], "finished")  # no append follows the last one
    monkeypatch.undo()
    assert await page_of(store, kind, "finished") == ([], False)  # not found yet, never wrong
    everyone, _ = await store.lobby(kind, None, 0, 10)
    assert [(s.game_id, s.status) for s in everyone] == [(ids[1], "open"), (ids[0], "finished")]
    assert await page_of(store, kind, "finished") == ([ids[0]], False)
    assert await page_of(store, kind, "playing") == ([], False)
    assert await redis.zscore(lobby_index(None, "playing"), ids[0]) is None


async def test_a_move_that_entered_the_new_indexes_but_did_not_leave_the_old_is_finished_on_read(
    store: RedisEventStore, redis: Redis, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    ids = await make_listed(store, listed, kind, ["open"] * 3)
    await advance(store, redis, ids[1], "playing")
    score = await redis.zscore(LOBBY_KEY, ids[1])
    for index in (lobby_index(kind, "open"), lobby_index(None, "open")):
        await redis.zadd(index, {ids[1]: score})  # as if the move had not left them yet
    assert await page_of(store, kind, "open", 0, 1) == ([ids[2]], True)
    assert await page_of(store, kind, "open", 1, 1) == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[1]) is None
    assert await page_of(store, kind, "playing") == ([ids[1]], False)


async def test_registering_drops_expired_tables_that_no_read_reaches(
    redis: Redis, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    store = RedisEventStore(redis)
    ancient = new_id()  # the oldest entry of all: a new store checks it first
    await append(store, ancient, 0, events("e"), summary=Summary(ancient, kind, "open", 0, 1, 0))
    await store.register(ancient, 1)
    listed.append(ancient)
    await redis.delete(game_keys(ancient)["meta"])
    assert await redis.zrank(LOBBY_KEY, ancient) == 0
    await make_listed(RedisEventStore(redis), listed, kind, ["open"])
    for index in indexes_of(kind, "open"):
        assert await redis.zscore(index, ancient) is None, index


async def test_the_lobby_adopts_the_tables_an_older_version_listed(
    store: RedisEventStore, redis: Redis, listed: list[str]
) -> None:
    kind = f"test-{new_id()}"
    base = int(time.time() * 1000)
    ids = []
    for i in range(3):  # an older version appended them and listed them in one sorted set
        game = new_id()
        await append(store, game, 0, events("e"), summary=Summary(game, kind, "open", 0, base, 0))
        await redis.zadd(OLD_LOBBY_KEY, {game: base + i})
        ids.append(game)
    expired = new_id()
    await redis.zadd(OLD_LOBBY_KEY, {expired: base + 3})
    listed.extend([*ids, expired])
    upgraded = RedisEventStore(redis)
    assert await page_of(upgraded, kind, None) == (ids[::-1], False)
    assert await page_of(upgraded, kind, "open", 1, 1) == ([ids[1]], True)
    for game in [*ids, expired]:
        assert await redis.zscore(OLD_LOBBY_KEY, game) is None
    assert await redis.zscore(LOBBY_KEY, expired) is None
    await advance(upgraded, redis, ids[0], "playing")  # moves, though it never was told "open"
    assert await page_of(upgraded, kind, "playing") == ([ids[0]], False)
    assert await redis.zscore(lobby_index(kind, "open"), ids[0]) is None
