"""`make run`: serve the API, with an embedded real Redis when `REDIS_URL` is unset."""

from __future__ import annotations

import logging
import os
import signal
import sys
from pathlib import Path

import uvicorn

from kronikas.api.logs import configure_logging
from kronikas.config import Settings

log = logging.getLogger("kronikas.serve")


def _exit_quietly(signum: int, frame: object) -> None:
    # uvicorn re-raises the signal that stopped it; end with status 0 and run the cleanup.
    raise SystemExit(0)


def main() -> int:
    signal.signal(signal.SIGTERM, _exit_quietly)
    signal.signal(signal.SIGINT, _exit_quietly)
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        print(f"configuration error: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level, settings.log_format)
    embedded = None
    if settings.redis_url is None:
        from kronikas.adapters.embedded_redis import EmbeddedRedis

        embedded = EmbeddedRedis(Path(settings.data_dir) / "redis").start()
        os.environ["REDIS_URL"] = embedded.url
        log.info(
            "REDIS_URL is unset: started an embedded redis-server",
            extra={"redis_url": embedded.url, "data_dir": str(embedded.data_dir)},
        )
    shown_host = "localhost" if settings.host in ("0.0.0.0", "127.0.0.1", "::") else settings.host
    print(
        f"Krónikás on http://{shown_host}:{settings.port}  docs: "
        f"http://{shown_host}:{settings.port}/schema  (Ctrl-C stops)",
        file=sys.stderr,
        flush=True,
    )
    try:
        uvicorn.run(
            # The benchmark serves an app with its ceiling route added; nothing else sets this.
            os.environ.get("KRONIKAS_APP", "kronikas.api.app:create_app"),
            factory=True,
            host=settings.host,
            port=settings.port,
            workers=settings.workers,
            access_log=False,
            log_level="warning",
            lifespan="on",
        )
    finally:
        if embedded is not None:
            embedded.stop()
            log.info("embedded redis-server stopped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
