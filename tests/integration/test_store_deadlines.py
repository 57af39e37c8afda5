"""The deadlines' contract (`Deadlines`): each table's earliest deadline, leased and settled;
kept by the Redis sorted set and the memory one.
"""

from __future__ import annotations

from tests.integration.stores import (
    Backend,
    Store,
    new_id,
)

# -- deadlines -------------------------------------------------------------------------------
# Scores here are a few seconds after the epoch, far before any real deadline another test may
# have armed (epoch milliseconds of today), so `due` finds only this test's tables; and the
# suite's Redis store is on a database of its own (`apart`), where no service process looks.


async def _drain(store: Store, now_ms: int, games: set[str]) -> None:
    lease, taken = await store.deadlines.due(now_ms, 1, 1000)
    for game in taken:
        await store.deadlines.settle(game, lease, None)
    assert not games & set((await store.deadlines.due(now_ms + 10, 1, 1000))[1])


async def test_a_table_is_due_at_its_earliest_armed_deadline(store: Store) -> None:
    game = new_id()
    await store.deadlines.arm(game, 5_000)
    await store.deadlines.arm(game, 3_000)
    await store.deadlines.arm(game, 4_000)  # later than the one armed: the earlier stays
    assert game not in (await store.deadlines.due(2_999, 10_000, 100))[1]
    lease, taken = await store.deadlines.due(3_000, 10_000, 100)
    assert game in taken
    assert lease == 13_000
    await store.deadlines.settle(game, lease, None)


async def test_a_due_table_is_leased_to_one_taker_until_the_lease_ends(
    backend: Backend, store: Store
) -> None:
    game = new_id()
    other = await backend.another()
    await store.deadlines.arm(game, 1_000)
    lease, taken = await store.deadlines.due(2_000, 5_000, 100)
    assert game in taken
    assert game not in (await other.deadlines.due(6_999, 5_000, 100))[1]  # still leased
    _, taken2 = await other.deadlines.due(7_000, 5_000, 100)  # the first taker died: taken again
    assert game in taken2
    await store.deadlines.settle(game, lease, 9_000)  # the first taker's settle no longer counts…
    assert (
        game in (await other.deadlines.due(12_000, 5_000, 100))[1]
    )  # …but put it no later than 9 s
    await _drain(store, 20_000, {game})


async def test_settling_gives_the_next_deadline_or_forgets_the_table(store: Store) -> None:
    game, done = new_id(), new_id()
    await store.deadlines.arm(game, 1_000)
    await store.deadlines.arm(done, 1_000)
    lease, taken = await store.deadlines.due(1_500, 60_000, 100)
    assert {game, done} <= set(taken)
    await store.deadlines.settle(game, lease, 4_000)
    await store.deadlines.settle(done, lease, None)
    assert set((await store.deadlines.due(3_999, 60_000, 100))[1]).isdisjoint({game, done})
    lease, taken = await store.deadlines.due(4_000, 60_000, 100)
    assert game in taken and done not in taken
    await _drain(store, 100_000, {game, done})


async def test_a_deadline_armed_while_leased_is_not_lost_by_settling(store: Store) -> None:
    game = new_id()
    await store.deadlines.arm(game, 1_000)
    lease, _ = await store.deadlines.due(1_000, 60_000, 100)
    await store.deadlines.arm(
        game, 2_000
    )  # a move made while the taker acted: its deadline is earlier
    await store.deadlines.settle(
        game, lease, 30_000
    )  # the taker's view of the next deadline, later
    assert game in (await store.deadlines.due(2_000, 60_000, 100))[1]
    await _drain(store, 100_000, {game})


async def test_due_takes_at_most_the_limit_earliest_first(store: Store) -> None:
    games = [new_id() for _ in range(5)]
    for offset, game in enumerate(games):
        await store.deadlines.arm(game, 1_000 + offset)
    _, taken = await store.deadlines.due(2_000, 60_000, 3)
    assert [g for g in taken if g in games] == games[:3]
    assert [g for g in (await store.deadlines.due(2_000, 60_000, 3))[1] if g in games] == games[3:]
    await _drain(store, 100_000, set(games))
