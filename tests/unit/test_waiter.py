"""The change feeds' waiter: a change before the wait counts, a wait ends at a change or at its
time-out, and a cancelled wait leaves nothing behind. A table's waiters wake the mover's last,
and once for an append however often it is heard."""

from __future__ import annotations

import asyncio
import time

from kronikas.adapters.waiter import Waiter, Waiters


async def test_a_change_before_the_wait_counts_until_cleared() -> None:
    waiter = Waiter()
    waiter.set()
    assert await waiter.wait(5.0)
    assert await waiter.wait(5.0)  # still unseen: nothing cleared it
    waiter.clear()
    started = time.monotonic()
    assert not await waiter.wait(0.05)
    assert time.monotonic() - started >= 0.04


async def test_a_change_during_the_wait_ends_it() -> None:
    waiter = Waiter()
    waiting = asyncio.create_task(waiter.wait(5.0))
    await asyncio.sleep(0.01)
    waiter.set()
    assert await asyncio.wait_for(waiting, 1.0)


async def test_a_cancelled_wait_leaves_the_waiter_usable() -> None:
    waiter = Waiter()
    waiting = asyncio.create_task(waiter.wait(5.0))
    await asyncio.sleep(0.01)
    waiting.cancel()
    await asyncio.gather(waiting, return_exceptions=True)
    assert waiting.cancelled()
    waiter.set()  # no wait to wake: remembered for the next one
    assert await waiter.wait(0.01)


async def test_each_wait_lasts_till_its_own_deadline_after_waits_that_a_change_ended() -> None:
    """One timer serves a waiter's waits: a wait shorter than the one before it, or longer, still
    ends at its own time-out, not at the earlier wait's."""
    waiter = Waiter()
    for long_s, short_s in ((0.4, 0.05), (0.05, 0.3)):
        waiting = asyncio.create_task(waiter.wait(long_s))
        await asyncio.sleep(0.01)
        waiter.set()
        assert await asyncio.wait_for(waiting, 1.0)
        waiter.clear()
        started = time.monotonic()
        assert not await waiter.wait(short_s)
        took = time.monotonic() - started
        assert short_s - 0.01 <= took < short_s + 0.2, (long_s, short_s, took)


async def test_the_movers_waiters_wake_after_everyone_elses() -> None:
    waiters = Waiters()
    # Five waiters of each viewer, in the set's arbitrary order: left to it, the mover's five
    # would all come last about once in 15,500 times.
    viewers = [1, 0, None, 2] * 5
    each = [Waiter(viewer) for viewer in viewers]
    waiters.waiting.update(each)
    woken: list[int | None] = []

    async def wait(waiter: Waiter) -> None:
        await waiter.wait(5.0)
        woken.append(waiter.viewer)

    tasks = [asyncio.create_task(wait(w)) for w in each]
    await asyncio.sleep(0)
    waiters.wake(7, last=1)
    await asyncio.wait_for(asyncio.gather(*tasks), 1.0)
    assert woken[-5:] == [1] * 5
    assert sorted(woken[:-5], key=str) == sorted([0, None, 2] * 5, key=str)


async def test_an_append_heard_twice_wakes_once_and_another_wakes_again() -> None:
    waiters = Waiters()
    waiter = Waiter(0)
    waiters.waiting.add(waiter)
    waiters.wake(5)  # told by the store's answer
    assert await waiter.wait(0.01)
    waiter.clear()
    waiters.wake(5)  # the same append, heard on the change feed
    assert not await waiter.wait(0.01)
    waiters.wake(9)  # a gap, as far as the version tells
    assert await waiter.wait(0.01)
    waiter.clear()
    waiters.wake(6)  # not the version last told: wakes, and the waiter reads
    assert await waiter.wait(0.01)
    waiter.clear()
    waiters.wake(None)  # a change whose version is not known (a reconnection)
    assert await waiter.wait(0.01)
