"""Wakes long-polls and streams when a game's log grows, and hands them what was appended.

Each append publishes the new version and the appended events on the game's own channel
(`kr:notify:<game id>`); the notifier passes them to the listener the application registers,
then wakes the waiters, so that a process can follow a table without reading it again. A process
subscribes to a game's channel only while someone in it waits on that game, and for a while after
(`linger_s`, so that a stream or a client polling again does not subscribe anew each time). A
process nobody waits on hears nothing: the cost of notifications grows with the waiters, not with
the number of commands times the number of processes.

One pub/sub connection per process carries every subscription. A waiter is handed out once Redis
has confirmed the subscription, so a read made after that sees every change or is woken by it.
Each confirmed subscription has a generation number: a fold read while a generation was current
and still current now has missed no append (`generation`); a reconnect or a lapse ends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import AsyncIterator, Coroutine
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from kronikas.adapters.event_store import NOTIFY_PREFIX, notify_channel
from kronikas.adapters.script_line import ScriptLine
from kronikas.adapters.waiter import Waiter, WaitersByGame
from kronikas.application.ports import Appended

log = logging.getLogger("kronikas.notify")

_IDLE_CHANNEL = notify_channel("-")
"""Always subscribed, never published on: redis-py reads only from a subscribed connection."""
HEALTH_S = 5.0
"""How often the notifier's own line PINGs Redis; unanswered by the next PING, it reconnects."""


class _LinePubSub:
    """The calls the notifier makes on redis-py's `PubSub`, on a `ScriptLine` of its own."""

    def __init__(self, line: ScriptLine) -> None:
        self.line = line

    async def subscribe(self, *channels: str) -> None:
        await self.line.push("SUBSCRIBE", *channels)

    async def unsubscribe(self, *channels: str) -> None:
        await self.line.push("UNSUBSCRIBE", *channels)

    async def aclose(self) -> None:
        await self.line.aclose()


class Notifier:
    """Subscribes to the channels of the games waited on, and wakes their waiters."""

    def __init__(
        self,
        redis: Redis | RedisCluster,
        linger_s: float = 30.0,
        confirm_s: float = 1.0,
        health_s: float = HEALTH_S,
    ) -> None:
        # On a cluster, PUBLISH reaches every node, so the cluster client's pub/sub (one node,
        # chosen again at each reconnect) hears every table.
        self._redis = redis
        self._linger_s = linger_s
        self._confirm_s = confirm_s
        self._waiters = WaitersByGame()
        self._subscribed: dict[str, asyncio.Future[None]] = {}
        """Game → its subscription, done once Redis confirmed it."""
        self._unconfirmed: dict[str, int] = {}
        """Game → SUBSCRIBE commands sent whose confirmation has not been read yet."""
        self._blind: set[str] = set()
        """Games whose waiters may have missed a change (handed out before their subscription was
        confirmed, or waiting across a reconnect): woken when it is confirmed, they read again."""
        self._connected = asyncio.Event()
        self._connections = 0
        self._lingering: dict[str, asyncio.TimerHandle] = {}
        self._lock = asyncio.Lock()
        self._pubsub: Any = None
        self._task: asyncio.Task[None] | None = None
        self._chores: set[asyncio.Task[None]] = set()
        self._stopping = False
        self._generations: dict[str, int] = {}
        """Game → the generation of its confirmed subscription (absent while not confirmed)."""
        self._counter = itertools.count(1)
        self._appended: Appended | None = None
        self._line = ScriptLine.of(redis, pushed=self._pushed, lost=self._line_lost)
        """On plain TCP, the subscriptions' own line (adapters/script_line.py); else redis-py."""
        self._line_gone = asyncio.Event()
        self._health_s = health_s

    def listen(self, appended: Appended) -> None:
        """Hand every append heard to `appended` (before its waiters are woken)."""
        self._appended = appended

    def generation(self, game_id: str) -> int | None:
        """The generation of the game's confirmed subscription, or None while there is none."""
        return self._generations.get(game_id)

    # -- waiting ---------------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def waiting(self, game_id: str, viewer: int | None = None) -> AsyncIterator[Waiter]:
        """A waiter for the next change of `game_id`, for the duration of the block.

        It is handed out once the game's channel is subscribed (or after `confirm_s` when Redis
        does not answer: the waiter then wakes when the notifier has reconnected).
        """
        waiters, waiter = self._waiters.join(game_id, viewer)
        if (handle := self._lingering.pop(game_id, None)) is not None:
            handle.cancel()
        try:
            await self._subscribe(game_id)
            yield waiter
        finally:
            if self._waiters.leave(game_id, waiters, waiter) and not self._stopping:
                self._lingering[game_id] = asyncio.get_running_loop().call_later(
                    self._linger_s, self._lingered, game_id
                )

    def listening_to(self) -> set[str]:
        """The games whose channels this process is subscribed to (or subscribing to)."""
        return set(self._subscribed)

    def viewers(self, game_id: str) -> set[int | None]:
        """Whom the waiters of a game wait for: seats, and None (spectators)."""
        return self._waiters.viewers(game_id)

    def wake(self, game_id: str, version: int | None = None, last: int | None = None) -> None:
        """Wake the waiters of a game, now at `version` (None: not known), the waiters of seat
        `last` last; those woken for that version already are not woken again."""
        self._waiters.wake(game_id, version, last)

    async def _subscribe(self, game_id: str) -> None:
        if self._pubsub is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._connected.wait(), self._confirm_s)
        try:  # the listener holds the lock while it connects, which may take a while
            # (asyncio.timeout, not wait_for: on 3.11 wait_for can lose an acquired lock)
            async with asyncio.timeout(self._confirm_s):
                await self._lock.acquire()
        except TimeoutError:
            self._blind.add(game_id)
            return
        try:
            subscribed = self._subscribed.get(game_id)
            if subscribed is None:
                if self._pubsub is None:
                    self._blind.add(game_id)  # subscribed, and woken, once the listener connects
                    return
                subscribed = asyncio.get_running_loop().create_future()
                self._subscribed[game_id] = subscribed
                self._unconfirmed[game_id] = self._unconfirmed.get(game_id, 0) + 1
                try:
                    await self._pubsub.subscribe(notify_channel(game_id))
                except Exception as exc:  # the listener notices too, and reconnects
                    log.warning("could not subscribe: %s", type(exc).__name__)
                    self._subscribed.pop(game_id, None)
                    self._unconfirmed.pop(game_id, None)
                    self._blind.add(game_id)
                    return
        finally:
            self._lock.release()
        if not subscribed.done():
            try:
                await asyncio.wait_for(asyncio.shield(subscribed), self._confirm_s)
            except TimeoutError:
                self._blind.add(game_id)

    def _lingered(self, game_id: str) -> None:
        self._lingering.pop(game_id, None)
        self._chore(self._unsubscribe(game_id))

    async def _unsubscribe(self, game_id: str) -> None:
        async with self._lock:
            if game_id in self._waiters or game_id in self._lingering:
                return  # waited on again meanwhile
            self._blind.discard(game_id)
            self._generations.pop(game_id, None)
            if self._subscribed.pop(game_id, None) is None:
                return
            if self._pubsub is not None:
                with contextlib.suppress(Exception):
                    await self._pubsub.unsubscribe(notify_channel(game_id))

    def _chore(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._chores.add(task)
        task.add_done_callback(self._chores.discard)

    # -- the listener ----------------------------------------------------------------------------

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
        for handle in self._lingering.values():
            handle.cancel()
        self._lingering.clear()
        for chore in list(self._chores):
            chore.cancel()
        await self._disconnect()

    async def _disconnect(self) -> None:
        pubsub, self._pubsub = self._pubsub, None
        self._connected.clear()
        for subscribed in self._subscribed.values():
            if not subscribed.done():
                subscribed.set_result(None)  # let the waiters read; they are woken on rejoining
        self._subscribed.clear()
        self._unconfirmed.clear()
        self._generations.clear()
        if pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), 1.0)

    async def _connect(self) -> None:
        if isinstance(self._redis, RedisCluster):
            await self._redis.initialize()
        self._line_gone.clear()
        pubsub = self._redis.pubsub() if self._line is None else _LinePubSub(self._line)
        async with self._lock:
            wanted = set(self._waiters) | set(self._lingering)
            loop = asyncio.get_running_loop()
            for game_id in wanted:
                self._subscribed[game_id] = loop.create_future()
                self._unconfirmed[game_id] = 1
            self._connections += 1
            self._blind &= wanted
            if self._connections > 1:
                self._blind |= wanted  # changes made while we were away went unheard
            self._pubsub = pubsub
            await pubsub.subscribe(_IDLE_CHANNEL, *(notify_channel(g) for g in wanted))
            self._connected.set()

    def _pushed(self, reply: list[Any]) -> None:
        """What Redis pushed on the line: `[kind, channel, data]` (a PING's `[pong, ""]`)."""
        if len(reply) == 3:
            self._heard(reply[0], reply[1], reply[2])

    def _line_lost(self) -> None:
        self._line_gone.set()

    def _heard(self, kind: bytes, channel: Any, data: Any) -> None:
        """A message (`kind` b"message") or a confirmed subscription (b"subscribe")."""
        if not isinstance(channel, bytes):
            return
        game_id = channel.decode().removeprefix(NOTIFY_PREFIX)
        if kind == b"message":
            self.wake(game_id, self._hand_over(game_id, data))
        elif kind == b"subscribe" and game_id in self._unconfirmed:
            self._unconfirmed[game_id] -= 1
            if self._unconfirmed[game_id] > 0:
                return
            del self._unconfirmed[game_id]
            self._generations[game_id] = next(self._counter)
            subscribed = self._subscribed.get(game_id)
            if subscribed is not None and not subscribed.done():
                subscribed.set_result(None)
            if game_id in self._blind:
                self._blind.discard(game_id)
                self.wake(game_id)

    async def _keep_line(self, line: ScriptLine) -> None:
        """While the line holds: PING it every `health_s`; raise once it is lost or stalls."""
        while not self._stopping:
            heard_at = await line.push("PING")
            if time.monotonic() - heard_at > self._health_s + line.timeout_s:
                line.drop(TimeoutError("Redis did not answer a PING"))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self._health_s):
                    await self._line_gone.wait()
            if self._line_gone.is_set():
                raise ConnectionError("the notification line was lost")

    def _hand_over(self, game_id: str, data: Any) -> int | None:
        """`<version>` then `\n<event>` for each appended event (adapters/lua/append.lua), to
        the listener; the version, when it could be read. This process's own append, told to
        its waiters already (application/appends.py), was folded in then: it is not handed over
        again."""
        try:
            head, newline, rest = bytes(data).partition(b"\n")
            version = int(head)
            waiters = self._waiters.get(game_id)
            if waiters is not None and waiters.told == version:
                return version
            records = rest.split(b"\n") if newline else []
            if self._appended is not None:
                self._appended(game_id, version, records)
            return version
        except Exception:  # a bad message must not stop the listener; the waiters read instead
            log.exception("could not take an append of %s", game_id)
            self._generations.pop(game_id, None)
            return None

    async def _listen(self) -> None:
        delay = 0.1
        while not self._stopping:
            try:
                await self._connect()
                delay = 0.1
                if self._line is not None:
                    await self._keep_line(self._line)
                    continue
                while not self._stopping:
                    message = await self._pubsub.get_message(timeout=1.0)
                    if message is not None:
                        kind = message["type"].encode()  # the line's kinds are bytes
                        self._heard(kind, message.get("channel"), message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("notification channel lost, reconnecting: %s", type(exc).__name__)
                await self._disconnect()
                # The line says when the primary moved (adapters/sentinel.py): no more waiting.
                self._line_gone.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._line_gone.wait(), delay)
                delay = min(delay * 2, 2.0)
