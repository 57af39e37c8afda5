"""The change feeds' waiter: a change before the wait counts, a wait ends at a change or at its
time-out, and a cancelled wait leaves nothing behind."""

from __future__ import annotations

import asyncio
import time

from kronikas.adapters.waiter import Waiter


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
