"""Settings, read from the environment when asked for (never at import)."""

from __future__ import annotations

import os
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
    redis_timeout_s: float = 2.0
    workers: int = 1
    sse_keepalive_s: float = 15.0
    web_dir: str | None = None
    """The web table's folder, served at `/`; None: no web table (only the API and its docs)."""
    extra: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Read the settings from `env` (the process environment by default)."""
        env = os.environ if env is None else env
        origins = tuple(o.strip() for o in env.get("CORS_ORIGINS", "").split(",") if o.strip())
        log_format = env.get("LOG_FORMAT", "json").lower()
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
            redis_timeout_s=_int(env, "REDIS_TIMEOUT_MS", 2000, 50, 60_000) / 1000,
            workers=_int(env, "WORKERS", 1, 1, 64),
            sse_keepalive_s=_int(env, "SSE_KEEPALIVE_S", 15, 1, 300),
            web_dir=env.get("WEB_DIR") or source_web_dir(),
        )
