"""The change feeds' waiter (the Redis notifier's and the in-memory one's)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable

_EARLY_S = 0.002
"""How early a wait may end: a timer of the loop may fire up to its clock's resolution early."""


class Waiter:
    """Registered before a read, so that a notification between the read and the wait counts.

    A wait is one future: every stream waits once a move. Its timeout is a deadline on the waiter,
    and one timer a waiter fires at the deadline, moved on when it fired before the latest
    deadline: a stream on a busy table waits many times within its keep-alive, and a timer armed
    and cancelled on each wait cost as much as the rest of the wait.
    """

    __slots__ = ("_deadline", "_future", "_timeout", "_timer", "changed", "push", "viewer")

    def __init__(self, viewer: int | None = None) -> None:
        self.changed = False
        self.viewer = viewer
        """Whose changes it waits for: a seat, or None for the host and spectators."""
        self.push: Callable[[], bool] | None = None
        """Serves a change as it comes, while a wait is on (`ports.Waiter.push`)."""
        self._future: asyncio.Future[bool] | None = None
        self._timeout = 0.0
        self._deadline = 0.0
        self._timer: asyncio.TimerHandle | None = None

    def set(self) -> None:
        """The table changed: served by `push` during a wait, when it can; else wake the wait,
        or let the next one return at once."""
        future = self._future
        if future is None or future.done():
            self.changed = True
            return
        push = self.push
        if push is not None and push():
            self._deadline = future.get_loop().time() + self._timeout  # the wait starts again
            return
        self.changed = True
        future.set_result(True)

    def clear(self) -> None:
        self.changed = False

    async def wait(self, timeout: float) -> bool:
        """Whether the game changed within `timeout` seconds (and since the last `clear`)."""
        if self.changed:
            return True
        loop = asyncio.get_running_loop()
        self._timeout = timeout
        self._deadline = deadline = loop.time() + timeout
        timer = self._timer
        if timer is None or timer.when() > deadline:
            if timer is not None:
                timer.cancel()
            self._timer = loop.call_at(deadline, self._expire, loop)
        future = self._future = loop.create_future()
        try:
            changed: bool = await future
            return changed
        finally:
            self._future = None

    def _expire(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        future = self._future
        if future is None or future.done():
            return  # no wait: the next one arms its own timer
        if loop.time() >= self._deadline - _EARLY_S:
            future.set_result(False)
        else:  # the wait began after this timer was armed: it lasts till its own deadline
            self._timer = loop.call_at(self._deadline, self._expire, loop)

    def close(self) -> None:
        """Done waiting: its timer goes."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Waiters:
    """A table's waiters in one process, and the latest version they were woken for."""

    __slots__ = ("told", "waiting")

    def __init__(self) -> None:
        self.waiting: set[Waiter] = set()
        self.told = 0
        """The version they were last woken for: the append that made it, heard again (told by
        the store's answer, then by the change feed), wakes nobody."""

    def viewers(self) -> set[int | None]:
        return {waiter.viewer for waiter in self.waiting}

    def wake(self, version: int | None = None, last: int | None = None) -> None:
        """Wake them for `version` (None: a change whose version is not known), unless that is
        the version they were last woken for; the waiters of seat `last` (the mover, who has
        its answer) after the others."""
        if version is not None:
            if version == self.told:
                return
            self.told = version
        if last is None:
            _set(self.waiting)
            return
        _set(w for w in self.waiting if w.viewer != last)
        _set(w for w in self.waiting if w.viewer == last)


class WaitersByGame(dict[str, Waiters]):
    """Each game's waiters in one process (the change feeds')."""

    def join(self, game_id: str, viewer: int | None) -> tuple[Waiters, Waiter]:
        """A new waiter for `viewer` among the game's."""
        waiters = self.get(game_id)
        if waiters is None:
            waiters = self[game_id] = Waiters()
        waiter = Waiter(viewer)
        waiters.waiting.add(waiter)
        return waiters, waiter

    def leave(self, game_id: str, waiters: Waiters, waiter: Waiter) -> bool:
        """The waiter is done; whether that was the game's last."""
        waiter.close()
        waiters.waiting.discard(waiter)
        if waiters.waiting or self.get(game_id) is not waiters:
            return False
        del self[game_id]
        return True

    def viewers(self, game_id: str) -> set[int | None]:
        """Whom the waiters of a game wait for: seats, and None (spectators)."""
        waiters = self.get(game_id)
        return set() if waiters is None else waiters.viewers()

    def wake(self, game_id: str, version: int | None = None, last: int | None = None) -> None:
        """Wake the waiters of a game (`Waiters.wake`)."""
        waiters = self.get(game_id)
        if waiters is not None:
            waiters.wake(version, last)


def _set(waiters: Iterable[Waiter]) -> None:
    for waiter in waiters:
        waiter.set()
