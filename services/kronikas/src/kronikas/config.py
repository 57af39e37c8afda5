"""Settings, read from the environment when asked for (never at import)."""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path


def _int(env: Mapping[str, str], name: str, default: int, low: int, high: int) -> int:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if not low <= value <= high:
        raise ValueError(f"{name} must be between {low} and {high}, not {value}")
    return value


def _bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be true or false, not {raw!r}")


Network = ipaddress.IPv4Network | ipaddress.IPv6Network

SOCKET_IMPLEMENTATIONS = ("websockets", "wsproto")
"""uvicorn's WebSocket implementations the seat sockets may be served by (api/ws_protocol.py)."""

PROXY_HEADERS = ("x-forwarded-for", "forwarded")
"""The headers a trusted proxy may name its client in (`TRUSTED_PROXY_HEADER`)."""


SENTINELS_AND_CLUSTER = (
    "REDIS_SENTINELS and REDIS_CLUSTER exclude each other: Sentinel names the primary of one "
    "replicated server, a Redis Cluster finds its nodes itself; set one of them"
)


def _networks(env: Mapping[str, str], name: str) -> tuple[Network, ...]:
    """Comma-separated addresses and CIDR blocks (`10.0.0.1, 10.1.0.0/16, fd00::/8`)."""
    found = []
    for item in env.get(name, "").split(","):
        if item := item.strip():
            try:
                found.append(ipaddress.ip_network(item, strict=False))
            except ValueError:
                raise ValueError(f"{name}: {item!r} is not an IP address or CIDR block") from None
    return tuple(found)


_NAME = re.compile(r"(?:\*\.)?[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")


def _addresses(env: Mapping[str, str], name: str) -> tuple[tuple[str, int], ...]:
    """A comma-separated list of `host:port` (an IPv6 host in brackets: `[::1]:26379`)."""
    found: list[tuple[str, int]] = []
    for item in env.get(name, "").split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{name} must list host:port addresses, not {item!r}")
        found.append((host, int(port)))
    return tuple(found)


def _host_names(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    """Comma-separated host names (`cards.example, *.cards.example, 192.0.2.7, [2001:db8::1]`),
    lower-case, without a trailing dot; `*` alone for any name. No scheme, port or path: any
    port is served, and a name is all a `Host` is matched by."""
    found = []
    for item in env.get(name, "").split(","):
        if not (item := item.strip().lower()):
            continue
        host = item.removesuffix(".")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        if ":" in host:
            try:
                host = str(ipaddress.IPv6Address(host))
            except ValueError:
                raise ValueError(
                    f"{name}: {item!r} is not a host name (no scheme, port or path)"
                ) from None
        elif host != "*" and not _NAME.fullmatch(host):
            raise ValueError(f"{name}: {item!r} is not a host name (no scheme, port or path)")
        found.append(host)
    return tuple(dict.fromkeys(found))


def source_web_dir() -> str | None:
    """The repository's `web/` folder when the service runs from the source tree, else None."""
    # services/kronikas/src/kronikas/config.py: the repository is four folders up.
    web = Path(__file__).resolve().parents[4] / "web"
    return str(web) if web.is_dir() else None


@dataclass(frozen=True)
class Settings:
    """Everything the service reads from its environment; the README has the table."""

    host: str = "127.0.0.1"
    port: int = 8000
    redis_url: str | None = None
    redis_cluster: bool = False
    data_dir: str = ".data"
    log_level: str = "INFO"
    log_format: str = "json"
    max_body_bytes: int = 64 * 1024
    cors_origins: tuple[str, ...] = ()
    open_ttl_s: int = 24 * 3600
    finished_ttl_s: int = 7 * 24 * 3600
    rate_per_s: int = 20
    rate_burst: int = 40
    open_per_min: int = 60
    """Tables created and seats taken per minute by one client address."""
    read_per_s: int = 30
    """Reads without a token of the table (views, events, long-polls, streams, the lobby; and
    any request with a token the table does not know) one client address makes a second..."""
    read_burst: int = 60
    """...and how many it may make at once."""
    streams_per_token: int = 10
    """Streams and long-polls one token holds open at once (in one process)."""
    streams_per_address: int = 100
    """Streams and long-polls one client address holds open at once (in one process)."""
    max_connections: int = 4096
    """Connections one worker holds open at once (kronikas/connections.py): at the cap, a new
    connection takes the place of an idle one of the address holding the most, else it is
    closed."""
    trusted_proxies: tuple[Network, ...] = ()
    """Peers whose `proxy_header` names the client (api/client.py); none by default."""
    proxy_header: str = "x-forwarded-for"
    """The header a trusted proxy sets: `x-forwarded-for` or `forwarded` (RFC 7239)."""
    redis_timeout_s: float = 2.0
    workers: int = 1
    sse_keepalive_s: float = 15.0
    socket_hello_s: float = 5.0
    """How long a new seat socket may take to send its `hello` (api/socket.py)."""
    socket_idle_s: float = 60.0
    """How long a seat socket may stay silent (a `ping` counts) before it is closed."""
    socket_heartbeat_s: float = 15.0
    """How often a seat socket is sent a `heartbeat` while nothing else was sent."""
    socket_backlog: int = 64
    """Messages a seat socket may have waiting for a slow reader before it is closed."""
    socket_implementation: str = "websockets"
    """uvicorn's WebSocket implementation for the seat sockets: `websockets` (its sans-I/O
    protocol) or `wsproto` (api/ws_protocol.py)."""
    socket_deflate: bool = False
    """Whether seat sockets may compress their messages (permessage-deflate) when the client
    offers it: less traffic, more CPU a message."""
    web_dir: str | None = None
    """The web table's folder, served at `/`; None: no web table (only the API and its docs)."""
    mcp_enabled: bool = True
    """Whether the service serves its MCP endpoint at `/mcp` (api/mcp/)."""
    allowed_hosts: tuple[str, ...] = ()
    """The names the service answers to in `Host` (api/hosts.py): exact names, `*.example.com`
    for the names under one, `*` for any; the loopback names always. Empty: only the loopback
    names while it listens on loopback (and no proxy is trusted), else any name."""
    connections_per_address: int = 128
    """Connections one client address (an IPv6 /64) holds open in one worker, idle keep-alive
    ones, streams and seat sockets included; beyond, a new one is closed at once. Peers in
    `trusted_proxies` are exempt (kronikas/connections.py)."""
    head_timeout_s: float = 10.0
    """How long a request head may take to arrive whole, from the connection or from the first
    byte of a later request on a kept-alive one; then the connection is closed."""
    max_head_bytes: int = 32 * 1024
    """A request head's size (request line and headers); beyond, 431 and the connection closed."""
    extra: Mapping[str, str] = field(default_factory=dict)
    address_per_s: int = 100
    """What every request from one client address costs, together, a second, whatever token
    each carries (the address's ceiling, docs/api.md, Rate limits): five tokens' worth...
    Kept in each worker process, without Redis (application/ceilings.py): with `WORKERS=n`, an
    address may spend n times as much."""
    address_burst: int = 200
    """...and how much it may spend at once (per worker)."""
    outbox_bytes: int = 256 * 1024
    """Bytes a seat socket or an event stream may have waiting for a slow reader (beyond its
    small kernel send buffer) before it is closed (4508) or ended."""
    write_replicas: int = 0
    """Replicas that must have an append (Redis `WAIT`) before its command is answered and any
    follower hears of it; 0: answered once the primary has it (one Redis, the embedded one)."""
    write_wait_ms: int = 1000
    """How long an append waits for `write_replicas` to confirm it; fewer in time: 503
    `outcome_unknown`, and a retry with the same key learns the one true outcome."""
    redis_sentinels: tuple[tuple[str, int], ...] = ()
    """Sentinels (host, port) that name the primary; empty: `redis_url` is the server."""
    redis_sentinel_master: str = "kronikas"
    """The name under which the sentinels monitor the primary."""
    redis_sentinel_password: str | None = None
    """The sentinels' own password (`requirepass` in sentinel.conf); the servers' is in
    `redis_url`."""
    metrics_enabled: bool = False
    """Whether `GET /metrics` serves Prometheus' text format."""
    metrics_token: str | None = None
    """When set, `/metrics` answers only a request bearing it (`Authorization: Bearer ...`)."""
    gc_pace_ms: int = 50
    """Milliseconds between the collector's passes on the clock (kronikas/collector.py); 0:
    only on CPython's count of objects."""
    arena_register_per_hour: int = 5
    """Arena entrants one client address may register an hour (`ARENA_REGISTER_PER_HOUR`)."""
    arena_queue_per_min: int = 120
    """Queue requests (join, leave, ticket long-polls) one entrant may make a minute."""
    arena_fill_s: int = 15
    """How long an entrant waits for a full set before standing entrants fill the empty seats."""
    arena_turn_s: int = 60
    """Every arena seat's clock (`turn_seconds`): then the house plays the seat's moves."""
    arena_idle_s: int = 60
    """A waiting entrant that has not asked for its ticket for this long is dropped."""
    arena_tick_s: float = 2.0
    """How often each process ticks the arena (forms sets, notes finished tables, rates)."""
    arena_open_s: int = 60
    """A set whose tables were not opened this long after it formed is abandoned."""
    arena_compact_every: int = 1000
    """The arena's log is trimmed to a snapshot of its fold once it holds this many events."""

    def lists_origin(self, origin: str) -> bool:
        """Whether `CORS_ORIGINS` lets a page on `origin` in: listed as it is, or `*` there (the
        seat socket and `/mcp` ask; the REST API's CORS middleware reads the same list)."""
        return "*" in self.cors_origins or origin in self.cors_origins

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from `env` (the process environment by default)."""
        env = os.environ if env is None else env
        # An origin has no path: `https://a.example/` is written for `https://a.example`, the
        # form a browser's `Origin` takes (CORS, the MCP guard and the socket compare to it).
        origins = tuple(
            o.strip().rstrip("/") for o in env.get("CORS_ORIGINS", "").split(",") if o.strip()
        )
        if patterns := [o for o in origins if "*" in o and o != "*"]:
            # The REST API's CORS would read one as a pattern, the socket and /mcp as an origin.
            raise ValueError(
                f"CORS_ORIGINS lists origins, or `*` alone; not a pattern: {patterns[0]!r}"
            )
        log_format = env.get("LOG_FORMAT", "json").lower()
        proxy_header = env.get("TRUSTED_PROXY_HEADER", "x-forwarded-for").strip().lower()
        if proxy_header not in PROXY_HEADERS:
            raise ValueError(
                f"TRUSTED_PROXY_HEADER must be x-forwarded-for or forwarded, not {proxy_header!r}"
            )
        socket_implementation = env.get("SOCKET_IMPLEMENTATION", "websockets").strip().lower()
        if socket_implementation not in SOCKET_IMPLEMENTATIONS:
            raise ValueError(
                "SOCKET_IMPLEMENTATION must be websockets or wsproto, "
                f"not {socket_implementation!r}"
            )
        if _bool(env, "REDIS_CLUSTER", False) and _addresses(env, "REDIS_SENTINELS"):
            raise ValueError(SENTINELS_AND_CLUSTER)
        if log_format not in ("json", "text"):
            raise ValueError(f"LOG_FORMAT must be json or text, not {log_format!r}")
        return cls(
            host=env.get("HOST", "127.0.0.1"),
            port=_int(env, "PORT", 8000, 0, 65535),
            redis_url=env.get("REDIS_URL") or None,
            redis_cluster=_bool(env, "REDIS_CLUSTER", False),
            data_dir=env.get("DATA_DIR", ".data"),
            log_level=env.get("LOG_LEVEL", "INFO").upper(),
            log_format=log_format,
            max_body_bytes=_int(env, "MAX_BODY_BYTES", 64 * 1024, 1024, 16 * 1024 * 1024),
            cors_origins=origins,
            open_ttl_s=_int(env, "OPEN_TABLE_TTL_S", 24 * 3600, 60, 365 * 24 * 3600),
            finished_ttl_s=_int(env, "FINISHED_GAME_TTL_S", 7 * 24 * 3600, 60, 365 * 24 * 3600),
            rate_per_s=_int(env, "RATE_LIMIT_PER_S", 20, 1, 100_000),
            rate_burst=_int(env, "RATE_LIMIT_BURST", 40, 1, 1_000_000),
            open_per_min=_int(env, "OPEN_LIMIT_PER_MIN", 60, 1, 1_000_000),
            read_per_s=_int(env, "READ_LIMIT_PER_S", 30, 1, 1_000_000),
            read_burst=_int(env, "READ_LIMIT_BURST", 60, 1, 1_000_000),
            streams_per_token=_int(env, "STREAMS_PER_TOKEN", 10, 1, 1_000_000),
            streams_per_address=_int(env, "STREAMS_PER_ADDRESS", 100, 1, 1_000_000),
            max_connections=_int(env, "MAX_CONNECTIONS", 4096, 16, 1_000_000),
            trusted_proxies=_networks(env, "TRUSTED_PROXIES"),
            proxy_header=proxy_header,
            redis_timeout_s=_int(env, "REDIS_TIMEOUT_MS", 2000, 50, 60_000) / 1000,
            workers=_int(env, "WORKERS", 1, 1, 64),
            sse_keepalive_s=_int(env, "SSE_KEEPALIVE_S", 15, 1, 300),
            socket_hello_s=_int(env, "SOCKET_HELLO_S", 5, 1, 300),
            socket_idle_s=_int(env, "SOCKET_IDLE_S", 60, 1, 3600),
            socket_heartbeat_s=_int(env, "SOCKET_HEARTBEAT_S", 15, 1, 300),
            socket_backlog=_int(env, "SOCKET_BACKLOG", 64, 1, 100_000),
            socket_implementation=socket_implementation,
            socket_deflate=_bool(env, "SOCKET_DEFLATE", False),
            web_dir=env.get("WEB_DIR") or source_web_dir(),
            mcp_enabled=_bool(env, "MCP_ENABLED", True),
            allowed_hosts=_host_names(env, "ALLOWED_HOSTS"),
            connections_per_address=_int(env, "CONNECTIONS_PER_ADDRESS", 128, 1, 1_000_000),
            head_timeout_s=_int(env, "HEAD_TIMEOUT_S", 10, 1, 300),
            max_head_bytes=_int(env, "MAX_HEAD_BYTES", 32 * 1024, 16 * 1024, 64 * 1024),
            address_per_s=_int(env, "ADDRESS_LIMIT_PER_S", 100, 1, 1_000_000),
            address_burst=_int(env, "ADDRESS_LIMIT_BURST", 200, 1, 1_000_000),
            outbox_bytes=_int(env, "OUTBOX_BYTES", 256 * 1024, 16 * 1024, 64 * 1024 * 1024),
            write_replicas=_int(env, "WRITE_REPLICAS", 0, 0, 16),
            write_wait_ms=_int(env, "WRITE_WAIT_MS", 1000, 10, 60_000),
            redis_sentinels=_addresses(env, "REDIS_SENTINELS"),
            redis_sentinel_master=env.get("REDIS_SENTINEL_MASTER", "").strip() or "kronikas",
            redis_sentinel_password=env.get("REDIS_SENTINEL_PASSWORD") or None,
            metrics_enabled=_bool(env, "METRICS", False),
            metrics_token=env.get("METRICS_TOKEN") or None,
            gc_pace_ms=_int(env, "GC_PACE_MS", 50, 0, 60_000),
            arena_register_per_hour=_int(env, "ARENA_REGISTER_PER_HOUR", 5, 1, 1_000_000),
            arena_queue_per_min=_int(env, "ARENA_QUEUE_PER_MIN", 120, 1, 1_000_000),
            arena_fill_s=_int(env, "ARENA_FILL_SECONDS", 15, 0, 3600),
            arena_turn_s=_int(env, "ARENA_TURN_SECONDS", 60, 5, 86_400),
            arena_idle_s=_int(env, "ARENA_IDLE_SECONDS", 60, 1, 86_400),
            arena_tick_s=_int(env, "ARENA_TICK_MS", 2000, 10, 600_000) / 1000,
            arena_open_s=_int(env, "ARENA_OPEN_SECONDS", 60, 1, 86_400),
            arena_compact_every=_int(env, "ARENA_COMPACT_EVERY", 1000, 1, 100_000_000),
        )
