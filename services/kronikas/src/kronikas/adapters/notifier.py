"""Wakes long-polls and streams when a game's log grows: one Redis subscription a process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from kronikas.adapters.event_store import NOTIFY_CHANNEL

log = logging.getLogger("kronikas.notify")


class Waiter:
    """Registered before a read, so that a notification between the read and the wait counts."""

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def clear(self) -> None:
        self.event.clear()

    async def wait(self, timeout: float) -> bool:
        """Whether the game changed within `timeout` seconds."""
        try:
            await asyncio.wait_for(self.event.wait(), timeout)
        except TimeoutError:
            return False
        return True


class Notifier:
    """Listens on the `kr:notify` channel and wakes the waiters of the game named in a message."""

    def __init__(self, redis: Redis | RedisCluster) -> None:
        # On a cluster, PUBLISH reaches every node, so the cluster client's pub/sub (one node,
        # chosen again at each reconnect) hears every table.
        self._redis = redis
        self._waiters: dict[str, set[Waiter]] = {}
        self._task: asyncio.Task[None] | None = None
        self._pubsub: Any = None
        self._stopping = False

    @contextlib.contextmanager
    def waiting(self, game_id: str) -> Iterator[Waiter]:
        """A waiter for the next change of `game_id`, for the duration of the block."""
        waiter = Waiter()
        self._waiters.setdefault(game_id, set()).add(waiter)
        try:
            yield waiter
        finally:
            waiters = self._waiters.get(game_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[game_id]

    def wake(self, game_id: str) -> None:
        """Wake every waiter of a game."""
        for waiter in self._waiters.get(game_id, ()):
            waiter.event.set()

    def wake_all(self) -> None:
        for waiters in self._waiters.values():
            for waiter in waiters:
                waiter.event.set()

    def start(self) -> None:
        self._stopping = False
        if self._task is None:
            self._task = asyncio.create_task(self._listen(), name="kronikas-notifier")

    async def stop(self) -> None:
        # The flag ends the loop within a second even if the client swallows the cancellation.
        self._stopping = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait([task], timeout=2.0)
        pubsub, self._pubsub = self._pubsub, None
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), 1.0)

    async def _listen(self) -> None:
        delay = 0.1
        while not self._stopping:
            pubsub: Any = None
            try:
                if isinstance(self._redis, RedisCluster):
                    await self._redis.initialize()
                pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
                self._pubsub = pubsub
                await pubsub.subscribe(NOTIFY_CHANNEL)
                delay = 0.1
                # Anything published while we were away is read again by the woken waiters.
                self.wake_all()
                while not self._stopping:
                    message = await pubsub.get_message(timeout=1.0)
                    if message is None:
                        continue
                    data = message["data"]
                    text = data.decode() if isinstance(data, bytes) else str(data)
                    self.wake(text.rsplit(":", 1)[0])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notification channel lost, reconnecting: %s", type(exc).__name__)
                if pubsub is not None:
                    with contextlib.suppress(Exception):
                        await asyncio.wait_for(pubsub.aclose(), 1.0)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 2.0)
