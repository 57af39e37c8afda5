"""The change feeds' waiter (the Redis notifier's and the in-memory one's)."""

from __future__ import annotations

import asyncio


class Waiter:
    """Registered before a read, so that a notification between the read and the wait counts."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def clear(self) -> None:
        self.event.clear()

    async def wait(self, timeout: float) -> bool:
        """Whether the game changed within `timeout` seconds."""
        if self.event.is_set():
            return True
        try:  # a timeout scope, not wait_for: no task made for each wait
            async with asyncio.timeout(timeout):
                await self.event.wait()
        except TimeoutError:
            return False
        return True
