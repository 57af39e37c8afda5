"""The asyncio Redis client: one server or a Redis Cluster, chosen by configuration."""

from __future__ import annotations

from typing import Any

import hiredis
from redis.asyncio import Connection, Redis
from redis.asyncio.cluster import RedisCluster

from kronikas.config import Settings

AnyRedis = Redis | RedisCluster


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
    """A client for `url` (default: the configured `REDIS_URL`); it connects on first use."""
    target = url or settings.redis_url
    if not target:
        raise ValueError("REDIS_URL is not set")
    options: dict[str, Any] = {
        "socket_timeout": settings.redis_timeout_s,
        "socket_connect_timeout": settings.redis_timeout_s,
        # A connection idle this long is checked before use: after Redis restarts, the pool's
        # dead connections are found by a PING instead of failing one request each.
        "health_check_interval": 2,
    }
    if settings.redis_cluster:
        return RedisCluster.from_url(target, **options)
    # A `rediss://` or `unix://` address keeps redis-py's own connection class for its scheme.
    return Redis.from_url(
        target, retry_on_timeout=False, connection_class=PackedConnection, **options
    )
