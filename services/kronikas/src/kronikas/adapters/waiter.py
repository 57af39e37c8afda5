"""The change feeds' waiter (the Redis notifier's and the in-memory one's)."""

from __future__ import annotations

import asyncio


def _expire(future: asyncio.Future[bool]) -> None:
    if not future.done():
        future.set_result(False)


class Waiter:
    """Registered before a read, so that a notification between the read and the wait counts.

    A wait is one future and one timer handle: every stream waits once a move, and an
    `asyncio.timeout` scope around an `asyncio.Event` cost several times as much.
    """

    __slots__ = ("_future", "changed")

    def __init__(self) -> None:
        self.changed = False
        self._future: asyncio.Future[bool] | None = None

    def set(self) -> None:
        """The table changed: wake the wait, or let the next one return at once."""
        self.changed = True
        future = self._future
        if future is not None and not future.done():
            future.set_result(True)

    def clear(self) -> None:
        self.changed = False

    async def wait(self, timeout: float) -> bool:
        """Whether the game changed within `timeout` seconds (and since the last `clear`)."""
        if self.changed:
            return True
        loop = asyncio.get_running_loop()
        future = self._future = loop.create_future()
        expiry = loop.call_later(timeout, _expire, future)
        try:
            changed: bool = await future
            return changed
        finally:
            expiry.cancel()
            self._future = None
