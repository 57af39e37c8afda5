"""The asyncio Redis client: one server, the primary Sentinel names, or a Redis Cluster, chosen
by configuration."""

from __future__ import annotations

from typing import Any

import hiredis
from redis.asyncio import BlockingConnectionPool, Connection, Redis
from redis.asyncio.cluster import RedisCluster

from kronikas.adapters.sentinel import sentinel_client
from kronikas.config import SENTINELS_AND_CLUSTER, Settings

AnyRedis = Redis | RedisCluster  # a `SentinelRedis` is a `Redis`
POOL_SIZE = 100
"""Connections a process keeps to one Redis server at most."""


class PackedConnection(Connection):
    """A connection that packs commands with hiredis's C packer.

    redis-py's asyncio connection packs in Python: a fifth of a command's client-side cost
    (README, Performance). Replies are already parsed by hiredis.
    """

    def pack_command(self, *args: Any) -> list[bytes]:
        if isinstance(args[0], str) and " " in args[0]:  # "SCRIPT LOAD" is two words
            args = (*args[0].split(), *args[1:])
        return [hiredis.pack_command(args)]


def connect(settings: Settings, url: str | None = None) -> AnyRedis:
    """A client for `url` (default: the configured `REDIS_URL`, or the primary the configured
    Sentinels name); it connects on first use."""
    target = url or settings.redis_url
    if settings.redis_sentinels and settings.redis_cluster:
        raise ValueError(SENTINELS_AND_CLUSTER)
    if not target and not settings.redis_sentinels:
        raise ValueError("REDIS_URL is not set")
    options: dict[str, Any] = {
        "socket_timeout": settings.redis_timeout_s,
        "socket_connect_timeout": settings.redis_timeout_s,
        # A connection idle this long is checked before use: after Redis restarts, the pool's
        # dead connections are found by a PING instead of failing one request each.
        "health_check_interval": 2,
    }
    if settings.redis_sentinels and url is None:
        return sentinel_client(settings, options, POOL_SIZE)
    assert target is not None
    if settings.redis_cluster:
        return RedisCluster.from_url(target, **options)
    # A `rediss://` or `unix://` address keeps redis-py's own connection class for its scheme.
    # A request that finds every pooled connection busy waits for one (up to the time-out)
    # instead of failing at once: a crowd of streams reading together must not make 503s.
    pool = BlockingConnectionPool.from_url(
        target,
        connection_class=PackedConnection,
        max_connections=POOL_SIZE,
        timeout=settings.redis_timeout_s,
        retry_on_timeout=False,
        **options,
    )
    return Redis(connection_pool=pool)
