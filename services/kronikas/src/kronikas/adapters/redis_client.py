"""The asyncio Redis client: one server or a Redis Cluster, chosen by configuration."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis
from redis.asyncio.cluster import RedisCluster

from kronikas.config import Settings

AnyRedis = Redis | RedisCluster


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
    return Redis.from_url(target, retry_on_timeout=False, **options)
