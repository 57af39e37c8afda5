"""The primary as Redis Sentinel names it (`REDIS_SENTINELS`), for redis-py and the own lines.

Every new connection asks the Sentinels where the primary is (`Primary.locate`): after a lost
connection, a `READONLY` or a `NOREPLICAS`, the next one goes wherever they name now. A task
also listens on a Sentinel for `+switch-master`, so that a failover moves the connections at
once rather than at their next error: redis-py's idle connections are closed, its busy ones
closed when they come back, and each own line (adapters/script_line.py) retires its connection
— the calls written to it still get their replies from the old server, new calls go to the new
one, and the notifier's line, told its connection is gone, subscribes again there and has its
followers read again from their versions.

redis-py's asyncio Sentinel client (`redis.asyncio.sentinel`) finds the primary; its pool is
made blocking here, as the plain pool is (adapters/redis_client.py), and its connections pack
commands with hiredis. Its connections are not retried (redis-py's default): a connection that
fails is answered as a failure (`unavailable`), and the next one asks the Sentinels again — so
the retries of redis-py issue #3874, which went on dialling the old primary, never happen.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import urllib.parse
import weakref
from typing import Any, Protocol

import hiredis
from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.sentinel import (
    MasterNotFoundError,
    Sentinel,
    SentinelConnectionPool,
    SentinelManagedConnection,
)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from kronikas import metrics
from kronikas.config import Settings

log = logging.getLogger("kronikas.sentinel")

Address = tuple[str, int]
SWITCH = "+switch-master"
"""What a Sentinel publishes, on the channel of that name, once a failover has ended:
`<master name> <old ip> <old port> <new ip> <new port>`."""
GRACE_S = 0.2
"""How long the other Sentinels may still answer once one has named the primary."""
RECHECK_S = 1.0
"""How often at most the Sentinels are asked again while the primary refuses writes."""
RELISTEN_S = 1.0
"""How long the switch listener waits before trying the next Sentinel."""

_NOT_PRIMARY = re.compile(r"(?:^|-)(?:READONLY|NOREPLICAS|MASTERDOWN|LOADING)\b")
"""The error replies of a server that is not, or not yet, a primary able to write — on a
command, or inside a script's error (`ERR Error running script ... -READONLY ...`). Each is
given before anything is written: a script's first write is refused, and a script that has
written nothing has changed nothing."""


_REPLICA = re.compile(r"(?:^|-)(?:READONLY|MASTERDOWN)\b")
"""The error replies of a replica: the primary is elsewhere."""


def not_primary(error: BaseException | str) -> bool:
    """Whether an error reply says the server cannot take writes now (a replica, a primary cut
    off from its replicas, one loading its data): nothing was run; ask where the primary is."""
    return bool(_NOT_PRIMARY.search(str(error)))


def a_replica(error: BaseException | str) -> bool:
    """Whether an error reply is a replica's (`not_primary`, and the primary is elsewhere; a
    primary short of replicas, or loading, may still be the one)."""
    return bool(_REPLICA.search(str(error)))


class Follower(Protocol):
    """What moves its connection when the primary moves."""

    def moved(self, address: Address) -> None: ...


class Primary:
    """Where the primary is: asked of the Sentinels for each new connection, and told by them
    when a failover ends.

    During a failover the Sentinels disagree for a moment (the one that led it knows first,
    the others learn it from its hellos): each answer carries its configuration epoch, which
    every failover raises, and an answer older than what is known is not followed back."""

    def __init__(self, sentinel: Sentinel, master: str, timeout_s: float) -> None:
        self.sentinel = sentinel
        self.master = master
        self.timeout_s = timeout_s
        self.address: Address | None = None
        self.epoch = -1
        """The configuration epoch of `address` (at least): a failover makes a greater one."""
        self._followers: weakref.WeakSet[Any] = weakref.WeakSet()
        self._task: asyncio.Task[None] | None = None
        self._stopping = False
        self._checked_at = -RECHECK_S
        self._rechecking: asyncio.Task[None] | None = None

    def follow(self, follower: Follower) -> None:
        """Tell `follower` when the primary moves (it is held weakly)."""
        self._followers.add(follower)

    async def locate(self) -> Address:
        """The primary's address, asked of the Sentinels now: of those that answer, the newest
        answer naming a primary they do not think down; `MasterNotFoundError` (a
        `ConnectionError`: nothing was sent) when none does."""
        self.listen()
        address, epoch, unanimous = await self._ask()
        if epoch < self.epoch and self.address is not None and not unanimous:
            return self.address  # a Sentinel that has not heard of the last failover yet
        self.epoch = epoch
        self.moved(address)
        return address

    async def _ask(self) -> tuple[Address, int, bool]:
        """The Sentinels' newest answer, its epoch, and whether every Sentinel gave it (then it
        is followed whatever its epoch: Sentinels reset by hand start again from 0). Each is
        asked at once; once one has answered, the others have a moment more."""
        asks = [
            asyncio.ensure_future(client.sentinel_master(self.master))
            for client in self.sentinel.sentinels
        ]
        for asked in asks:  # one answered too late to count (or cancelled) is not reported
            asked.add_done_callback(_retrieved)
        found: list[tuple[int, Address]] = []
        errors: list[str] = []
        try:
            pending: set[asyncio.Future[Any]] = set(asks)
            deadline = asyncio.get_running_loop().time() + self.timeout_s
            while pending:
                left = deadline - asyncio.get_running_loop().time()
                if left <= 0:
                    break
                done, pending = await asyncio.wait(
                    pending, timeout=left, return_when=asyncio.FIRST_COMPLETED
                )
                for ask in done:
                    try:
                        state = ask.result()
                    except (RedisConnectionError, RedisTimeoutError, ResponseError) as exc:
                        errors.append(str(exc))
                        continue
                    if state.get("is_master") and not (
                        state.get("is_sdown") or state.get("is_odown")
                    ):
                        address = (str(state["ip"]), int(state["port"]))
                        found.append((int(state.get("config-epoch", 0)), address))
                if found:
                    deadline = min(deadline, asyncio.get_running_loop().time() + GRACE_S)
        finally:
            for ask in asks:
                if not ask.done():
                    ask.cancel()

        if not found:
            said = "; ".join(errors) if errors else "none names a primary that is up"
            raise MasterNotFoundError(f"No primary found for {self.master!r}: {said}")
        epoch, address = max(found)
        unanimous = len(found) == len(asks) and all(a == address for _, a in found)
        return address, epoch, unanimous

    def recheck(self) -> None:
        """Ask the Sentinels again in the background, once a `RECHECK_S` at most (a server
        refused a write and may no longer be the primary): a move is followed as a
        `+switch-master` is."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._checked_at < RECHECK_S:
            return
        self._checked_at = loop.time()
        self._rechecking = loop.create_task(self._recheck())

    async def _recheck(self) -> None:
        with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
            await self.locate()

    def moved(self, address: Address) -> None:
        """The primary is at `address`: when that is news, count a switch and tell the
        followers."""
        old, self.address = self.address, address
        if old is None or old == address:
            return
        log.warning(
            "the primary moved",
            extra={"old": f"{old[0]}:{old[1]}", "new": f"{address[0]}:{address[1]}"},
        )
        metrics.primary_switch()
        for follower in list(self._followers):
            try:
                follower.moved(address)
            except Exception:
                log.exception("a connection could not follow the primary")

    # -- the switch listener ----------------------------------------------------------------------

    def listen(self) -> None:
        """Start listening for `+switch-master` (once, on the running loop)."""
        if self._task is None and not self._stopping:
            self._task = asyncio.get_running_loop().create_task(
                self._listen(), name="kronikas-sentinel"
            )

    async def _listen(self) -> None:
        turn = 0
        while not self._stopping:
            sentinels = self.sentinel.sentinels
            client = sentinels[turn % len(sentinels)]
            turn += 1
            try:
                await self._listen_on(client)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.info("a Sentinel's switch notices were lost: %s", type(exc).__name__)
            await asyncio.sleep(RELISTEN_S)

    async def _listen_on(self, client: Redis) -> None:
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(SWITCH)
            # A switch made while nobody listened is learnt by asking.
            with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                await self.locate()
            while not self._stopping:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message is None or message.get("type") != "message":
                    continue
                said = message["data"]
                fields = (said.decode() if isinstance(said, bytes) else str(said)).split()
                if len(fields) == 5 and fields[0] == self.master and fields[4].isdigit():
                    address = (fields[3], int(fields[4]))
                    if address != self.address:
                        # The failover raised the epoch: older answers are not followed back.
                        self.epoch += 1
                        self.moved(address)
                    with contextlib.suppress(RedisConnectionError, RedisTimeoutError):
                        await self.locate()  # learn the new epoch itself
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(pubsub.aclose(), 1.0)  # type: ignore[no-untyped-call]

    async def aclose(self) -> None:
        self._stopping = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait([task], timeout=2.0)
        await self.sentinel.aclose()


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()


class PackedSentinelConnection(SentinelManagedConnection):
    """A Sentinel-managed connection that packs with hiredis (as `PackedConnection`), and takes
    any not-a-primary reply for a lost connection: it disconnects, so that the next connection
    asks the Sentinels again, and the call fails as one never run (`unavailable`)."""

    def pack_command(self, *args: Any) -> list[bytes]:
        if isinstance(args[0], str) and " " in args[0]:  # "SCRIPT LOAD" is two words
            args = (*args[0].split(), *args[1:])
        return [hiredis.pack_command(args)]

    async def read_response(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return await super().read_response(*args, **kwargs)
        except ResponseError as exc:
            if not not_primary(exc):
                raise
            await self.disconnect()
            raise RedisConnectionError(f"Redis is not a writable primary: {exc}") from exc


class SentinelPool(SentinelConnectionPool, BlockingConnectionPool):
    """redis-py's Sentinel pool, blocking as the plain one is (a request that finds every
    connection busy waits for one); it asks `Primary` where the primary is, closes its idle
    connections when the primary moves, and closes a busy one to an old primary when it comes
    back from use."""

    primary: Primary

    async def get_master_address(self) -> Address:
        address = await self.primary.locate()
        self.master_address = address
        return address

    def moved(self, address: Address) -> None:
        self.master_address = address
        closing = asyncio.get_running_loop().create_task(self.disconnect(inuse_connections=False))
        self._closing = closing  # held until done: the loop keeps only a weak reference

    async def release(self, connection: Any) -> None:
        if self.master_address is not None and (connection.host, connection.port) != tuple(
            self.master_address
        ):
            await connection.disconnect()
        await super().release(connection)


class SentinelRedis(Redis):
    """redis-py's client on a `SentinelPool`; closing it stops the switch listener."""

    primary: Primary

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await self.primary.aclose()
        await super().aclose(close_connection_pool)


def credentials(url: str | None) -> dict[str, Any]:
    """What `REDIS_URL` may say beside Sentinel: the servers' user, password and database, and
    TLS (`rediss://`). It names no server: `redis://:password@/0` (Sentinel names the primary)."""
    if not url:
        return {}
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("redis", "rediss"):
        raise ValueError(
            "with REDIS_SENTINELS, REDIS_URL may give only the servers' password and database "
            f"(redis://:password@/0), not a {parts.scheme}:// address"
        )
    if parts.hostname or parts.port:
        raise ValueError(
            "with REDIS_SENTINELS, the Sentinels name the primary: REDIS_URL may give only the "
            "servers' password and database, without host and port (redis://:password@/0)"
        )
    found: dict[str, Any] = {}
    if parts.username:
        found["username"] = urllib.parse.unquote(parts.username)
    if parts.password:
        found["password"] = urllib.parse.unquote(parts.password)
    db = parts.path.lstrip("/")
    if db:
        if not db.isdigit():
            raise ValueError(f"REDIS_URL's database must be a number, not {db!r}")
        found["db"] = int(db)
    if parts.scheme == "rediss":
        found["ssl"] = True
    return found


def sentinel_client(settings: Settings, options: dict[str, Any], pool_size: int) -> SentinelRedis:
    """redis-py's client for the primary the Sentinels name (`REDIS_SENTINELS`), with
    `options` (time-outs, health checks) for its connections and the Sentinels' alike."""
    server = credentials(settings.redis_url)
    sentinel_kwargs = {k: v for k, v in options.items() if k.startswith("socket_")}
    if settings.redis_sentinel_password:
        sentinel_kwargs["password"] = settings.redis_sentinel_password
    sentinel = Sentinel(  # type: ignore[no-untyped-call]
        list(settings.redis_sentinels), sentinel_kwargs=sentinel_kwargs
    )
    primary = Primary(sentinel, settings.redis_sentinel_master, settings.redis_timeout_s)
    tls = server.pop("ssl", False)
    # TLS keeps redis-py's own connection class (no hiredis packer, no own lines).
    connection = {} if tls else {"connection_class": PackedSentinelConnection}
    redis: SentinelRedis = sentinel.master_for(
        settings.redis_sentinel_master,
        redis_class=SentinelRedis,
        connection_pool_class=SentinelPool,
        max_connections=pool_size,
        timeout=settings.redis_timeout_s,
        ssl=tls,
        **connection,
        **server,
        **options,
    )
    pool = redis.connection_pool
    assert isinstance(pool, SentinelPool)
    pool.primary = primary
    primary.follow(pool)
    redis.primary = primary
    return redis
