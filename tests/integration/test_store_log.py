"""The event log's contract (`EventLog`): appends at an expected version, reads, the roles
tokens are given and each token's bucket at a table; kept by the Redis log and the memory one.
After it, what is Redis's own (the keys, their TTLs and hash tag) and what stands in for it in
memory (the clock that ends a game).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from redis.asyncio import Redis
from redis.crc import key_slot

from kronikas.adapters.memory import MemoryStores
from kronikas.adapters.scripts import game_keys
from kronikas.application.ports import AppendResult, ReadResult, Summary
from tests.integration.stores import (
    Backend,
    FakeClock,
    Progress,
    RedisBackend,
    Store,
    append,
    events,
    new_id,
    page_of,
)

# -- appending at an expected version ------------------------------------------------------------


async def test_append_at_the_expected_version_numbers_events_from_one(store: Store) -> None:
    game = new_id()
    first = await append(store, game, 0, events("a"))
    assert (first.outcome, first.version) == ("ok", 1)
    second = await append(store, game, 1, events("b"))
    assert (second.outcome, second.version) == ("ok", 2)
    third = await append(store, game, 2, events("c", "d"))
    assert (third.outcome, third.version) == ("ok", 4)
    read = await store.log.read(game, 0, "", 100)
    assert read.version == 4
    assert read.records == events("a", "b", "c", "d")


async def test_several_events_are_appended_all_or_none(backend: Backend, store: Store) -> None:
    game = new_id()
    done = await append(store, game, 0, events("a", "b", "c", "d", "e"))
    assert (done.outcome, done.version) == ("ok", 5)
    refused = await append(store, game, 3, events("x", "y", "z"))
    assert refused.outcome == "conflict"
    assert await backend.log_of(game) == events("a", "b", "c", "d", "e")


async def test_records_are_kept_byte_for_byte(store: Store) -> None:
    game = new_id()
    odd = [b"\x00\xff\n\r", "Krónikás ♥".encode(), b"", b"x" * 10_000]
    assert (await append(store, game, 0, odd)).version == 4
    assert (await store.log.read(game, 0, "", 10)).records == odd


async def test_stale_version_is_a_conflict_with_the_events_after_it(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b", "c"))
    conflict = await append(store, game, 1, events("x"), auth=[("t", "0")])
    assert conflict.outcome == "conflict"
    assert conflict.version == 3
    assert conflict.records == events("b", "c")
    assert await backend.log_of(game) == events("a", "b", "c")
    assert "auth" not in await backend.holds(game)
    assert (await store.log.read(game, 0, "t", 1)).role == ""
    assert (await append(store, game, 0, events("y"))).records == events("a", "b", "c")


async def test_expected_beyond_the_log_is_a_conflict_without_events(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    await append(store, game, 0, events("a", "b"))
    conflict = await append(store, game, 5, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 2, [])
    assert await backend.log_of(game) == events("a", "b")

    empty = new_id()
    conflict = await append(store, empty, 1, events("x"))
    assert (conflict.outcome, conflict.version, conflict.records) == ("conflict", 0, [])
    assert await backend.holds(empty) == set()


# -- reading -------------------------------------------------------------------------------------


async def test_read_returns_the_events_after_a_version_up_to_a_limit(store: Store) -> None:
    game = new_id()
    await append(store, game, 0, events("1", "2", "3", "4", "5"))
    after_two = await store.log.read(game, 2, "", 100)
    assert (after_two.version, after_two.records) == (5, events("3", "4", "5"))
    assert (after_two.role, after_two.retry_after_ms) == ("", 0)
    assert (await store.log.read(game, 1, "", 2)).records == events("2", "3")
    assert (await store.log.read(game, 4, "", 2)).records == events("5")
    at_end = await store.log.read(game, 5, "", 100)
    assert (at_end.version, at_end.records) == (5, [])
    beyond = await store.log.read(game, 9, "", 100)
    assert (beyond.version, beyond.records) == (5, [])
    assert (await store.log.read(game, 0, "", 0)).records == []


async def test_reading_an_unknown_game_finds_version_zero(store: Store) -> None:
    read = await store.log.read(new_id(), 0, "some-token-hash", 100)
    assert (read.version, read.role, read.retry_after_ms, read.records) == (0, "", 0, [])


async def test_auth_entries_are_written_with_the_append_and_read_back_as_roles(
    store: Store,
) -> None:
    game = new_id()
    await append(store, game, 0, events("created"), auth=[("host-hash", "host")])
    await append(store, game, 1, events("joined"), auth=[("seat0-hash", "0")])
    await append(store, game, 2, events("joined", "joined"), auth=[("s1", "1"), ("s2", "2")])
    assert (await store.log.read(game, 0, "host-hash", 1)).role == "host"
    assert (await store.log.read(game, 0, "seat0-hash", 1)).role == "0"
    assert (await store.log.read(game, 0, "s2", 1)).role == "2"
    assert (await store.log.read(game, 0, "unknown-hash", 1)).role == ""
    assert (await store.log.read(game, 0, "", 1)).role == ""


async def test_a_tables_first_append_lists_it_in_the_lobby(backend: Backend, store: Store) -> None:
    kind = f"test-{new_id()}"
    game = new_id()
    made = Summary(game, kind, "open", 0, int(time.time() * 1000), 0)
    assert (await append(store, game, 0, events("created"), summary=made)).outcome == "ok"
    backend.listed.append(game)
    assert await page_of(store, kind, None) == ([game], False)
    await store.lobby.register(game, made.created_ms)  # an older caller registers: listed once
    assert await page_of(store, kind, "open") == ([game], False)


# -- rate limiting -------------------------------------------------------------------------------


async def test_appends_beyond_the_burst_are_limited_until_tokens_refill(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    assert (await append(limited, game, 0, events("a"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "ok"
    refused = await append(limited, game, 2, events("c"), token_hash="t")
    assert refused.outcome == "limited"
    assert 0 < refused.retry_after_ms <= 500
    assert await backend.log_of(game) == events("a", "b")
    other = await append(limited, game, 2, events("c"), token_hash="another")
    assert other.outcome == "ok", "the bucket is per token"
    await backend.elapse(refused.retry_after_ms / 1000 + 0.05)
    assert (await append(limited, game, 3, events("d"), token_hash="t")).outcome == "ok"


async def test_reads_beyond_the_burst_are_limited_until_tokens_refill(
    backend: Backend, limited: Store
) -> None:
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    refused = await limited.log.read(game, 0, "t", 10)
    assert 0 < refused.retry_after_ms <= 500
    assert refused.records == []
    unlimited = await limited.log.read(game, 0, "t", 10, rate=False)
    assert (unlimited.retry_after_ms, unlimited.records) == (0, events("a"))
    await backend.elapse(refused.retry_after_ms / 1000 + 0.05)
    again = await limited.log.read(game, 0, "t", 10)
    assert (again.retry_after_ms, again.records) == (0, events("a"))


async def test_reads_and_appends_share_a_tokens_bucket(limited: Store) -> None:
    game = new_id()
    first = await append(limited, game, 0, events("a"), token_hash="t", auth=[("t", "0")])
    assert first.outcome == "ok"
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "limited"
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms > 0


async def test_a_tokens_bucket_is_its_own_at_each_table(limited: Store) -> None:
    game, other = new_id(), new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    await append(limited, other, 0, events("a"), auth=[("t", "1")])
    for _ in range(2):
        assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms == 0
    assert (await limited.log.read(game, 0, "t", 10)).retry_after_ms > 0
    assert (await limited.log.read(other, 0, "t", 10)).retry_after_ms == 0


async def test_a_token_the_table_does_not_know_takes_from_no_bucket(limited: Store) -> None:
    # A made-up token has no bucket of its own (its caller charges the client's address), and
    # makes none: its reads are not limited here.
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    for _ in range(5):
        read = await limited.log.read(game, 0, "made-up", 10)
        assert (read.role, read.retry_after_ms, read.records) == ("", 0, events("a"))
    assert (await limited.log.read(game, 0, "t", 10)).role == "0"


async def test_a_conflict_takes_no_token_and_is_answered_before_any_rate_check(
    limited: Store,
) -> None:
    # A retry of an append made under an idempotency key meets a conflict whose events record
    # the key (application/tables.py): it must never be refused as limited.
    game = new_id()
    await append(limited, game, 0, events("a"))
    for _ in range(5):
        stale = await append(limited, game, 0, events("x"), token_hash="t")
        assert (stale.outcome, stale.records) == ("conflict", events("a"))
    assert (await append(limited, game, 1, events("b"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 2, events("c"), token_hash="t")).outcome == "ok"
    assert (await append(limited, game, 3, events("d"), token_hash="t")).outcome == "limited"
    for _ in range(5):  # the bucket is empty: stale appends are answered all the same
        stale = await append(limited, game, 1, events("x"), token_hash="t")
        assert (stale.outcome, stale.records) == ("conflict", events("b", "c"))


async def test_without_a_token_there_is_no_limit(limited: Store) -> None:
    game = new_id()
    for version in range(6):
        assert (await append(limited, game, version, events("e"))).outcome == "ok"
        assert (await limited.log.read(game, 0, "", 1)).retry_after_ms == 0


async def test_a_read_takes_its_cost_from_a_known_tokens_bucket_alone(limited: Store) -> None:
    game = new_id()
    await append(limited, game, 0, events("a"), auth=[("t", "0")])
    assert (await limited.log.read(game, 0, "t", 10, cost=2)).retry_after_ms == 0
    refused = await limited.log.read(game, 0, "t", 10, cost=1)
    assert refused.retry_after_ms > 0 and refused.records == [], "t's 2 at once were spent"
    made_up = await limited.log.read(game, 0, "made-up", 10, cost=2)
    assert (made_up.retry_after_ms, made_up.role) == (0, ""), "an unknown token has no bucket"
    unpaid = await limited.log.read(game, 0, "t", 10, rate=False, cost=2)
    assert (unpaid.retry_after_ms, unpaid.records) == (0, events("a"))


async def test_an_append_made_calls_stored_once_before_it_returns_and_meanwhile_before(
    limited: Store,
) -> None:
    game = new_id()
    calls: list[str] = []

    async def tracked(expected: int, names: Sequence[str], **kwargs: Any) -> AppendResult:
        calls.clear()
        return await append(
            limited,
            game,
            expected,
            events(*names),
            progress=Progress(lambda: calls.append("stored"), lambda: calls.append("meanwhile")),
            **kwargs,
        )

    assert (await tracked(0, ["a", "b"])).version == 2
    assert calls == ["meanwhile", "stored"]
    assert (await tracked(2, ["c"], token_hash="t")).outcome == "ok"
    assert calls == ["meanwhile", "stored"]
    # Refused appends store nothing: `stored` is not called (what is made meanwhile is dropped).
    assert (await tracked(1, ["x"])).outcome == "conflict"
    assert "stored" not in calls
    assert (await tracked(3, ["d"], token_hash="t")).outcome == "ok"
    assert (await tracked(4, ["x"], token_hash="t")).outcome == "limited"
    assert "stored" not in calls


async def test_an_append_told_by_its_process_wakes_its_waiters_once_the_movers_last(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    async with (
        backend.feed() as feed,
        feed.waiting(game, 1) as mover,
        feed.waiting(game, 0) as other,
        feed.waiting(game, None) as spectator,
    ):
        assert feed.viewers(game) == {0, 1, None}
        woken: list[int | None] = []

        def told() -> None:  # as the application does once the store has its append
            feed.wake(game, 1, last=1)
            woken.extend(w.viewer for w in (mover, other, spectator) if w.changed)

        await append(store, game, 0, events("a"), progress=Progress(told))
        assert sorted(woken, key=str) == [0, 1, None]
        for waiter in (mover, other, spectator):
            assert await waiter.wait(0)
            waiter.clear()
        # The feed then hears the same append: nobody is woken for it again.
        assert not await other.wait(backend.quiet)
        # An append it did not tell of (another process's) wakes them.
        await append(store, game, 1, events("b"))
        assert await other.wait(1.0) and await mover.wait(1.0)
    assert feed.viewers(game) == set()


# == Redis itself ==================================================================================

# -- keys: expiry and the hash tag -----------------------------------------------------------------


async def test_an_append_sets_the_ttl_of_every_key_of_the_game(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game = new_id()
    keys = game_keys(game)
    await append(store, game, 0, events("a"), ttl_s=300, auth=[("h", "host")])
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 295 <= await redis.ttl(key) <= 300, key
    await append(store, game, 1, events("b"), ttl_s=3000)
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 2995 <= await redis.ttl(key) <= 3000, key


async def test_an_append_moves_the_keys_expiry_only_by_more_than_a_minute_or_with_auth(
    on_redis: RedisBackend, redis: Redis
) -> None:
    store = on_redis.store
    game = new_id()
    keys = game_keys(game)
    await append(store, game, 0, events("a"), ttl_s=600, auth=[("h", "host")])
    await append(store, game, 1, events("b"), ttl_s=650)  # 50 s later than set: left
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 595 <= await redis.ttl(key) <= 600, key
    await append(store, game, 2, events("c"), ttl_s=700)  # 100 s later: moved
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 695 <= await redis.ttl(key) <= 700, key
    await append(store, game, 3, events("d"), ttl_s=680, auth=[("s", "0")])  # auth: moved
    for key in (keys["log"], keys["meta"], keys["auth"]):
        assert 675 <= await redis.ttl(key) <= 680, key


async def test_every_key_of_a_game_carries_its_hash_tag(
    on_redis: RedisBackend, redis: Redis
) -> None:
    limited = on_redis.limited()
    game = new_id()
    await append(
        limited,
        game,
        0,
        events("a"),
        token_hash="t",
        auth=[("h", "host")],
    )
    await limited.answers.keep_answer(game, "k", b"answer", 60)
    await limited.log.read(game, 0, "reader", 10)
    found = [key.decode() async for key in redis.scan_iter(match=f"*{game}*", count=1000)]
    tag = f"kr:{{{game}}}"
    # log, meta, auth, the rate buckets, a replayed answer (a key's record is in the log)
    expected = {f"{tag}:{name}" for name in ("log", "meta", "auth", "rate:t", "replay:k")}
    assert expected <= set(found), found
    assert all(f"{{{game}}}" in key for key in found)
    assert {key_slot(key.encode()) for key in found} == {key_slot(game.encode())}


# == the memory store's clock ======================================================================


async def test_the_memory_store_ends_a_game_its_ttl_after_the_last_append(
    clock: FakeClock,
) -> None:
    store = MemoryStores(clock=clock)
    game = new_id()
    await append(store, game, 0, events("a"), ttl_s=300, auth=[("h", "host")])
    await store.lobby.register(game, 1)
    clock.advance(300)
    assert await store.log.read(game, 0, "h", 10) == ReadResult(1, "host", 0, events("a"))
    assert await page_of(store, None, None) == ([game], False)
    clock.advance(0.001)
    assert await store.log.read(game, 0, "h", 10) == ReadResult(0, "", 0, [])
    assert await page_of(store, None, None) == ([], False)
    assert store.holds(game) == set()
    assert (await append(store, game, 0, events("again"))).version == 1


async def test_the_memory_store_moves_a_games_end_only_by_more_than_a_minute_or_with_auth(
    clock: FakeClock,
) -> None:
    store = MemoryStores(clock=clock)
    kept, moved, authed = new_id(), new_id(), new_id()
    for game in (kept, moved, authed):
        await append(store, game, 0, events("a"), ttl_s=600)
    clock.advance(30)
    await append(store, kept, 1, events("b"), ttl_s=600)  # 30 s later than set: left
    await append(store, authed, 1, events("b"), ttl_s=600, auth=[("s", "0")])
    clock.advance(31)
    await append(store, moved, 1, events("b"), ttl_s=600)  # 61 s later: moved
    clock.advance(600 - 61)
    assert store.holds(kept) == store.holds(moved) == {"log", "meta"}
    assert store.holds(authed) == {"log", "meta", "auth"}
    clock.advance(0.001)
    assert store.holds(kept) == set()
    clock.advance(30)
    assert store.holds(authed) == set()
    assert (await store.log.read(moved, 0, "", 10)).version == 2
    clock.advance(31)
    assert store.holds(moved) == set()
