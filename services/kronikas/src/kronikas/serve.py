"""`make run`: serve the API, with an embedded real Redis when `REDIS_URL` is unset."""

from __future__ import annotations

import copy
import logging
import multiprocessing
import multiprocessing.connection
import os
import signal
import socket
import sys
import time
from pathlib import Path
from typing import Any, cast

import uvicorn
import uvicorn.config
from litestar import Litestar

from kronikas import metrics
from kronikas.api.app import WithoutQueryStrings, create_app, log_without_query_strings
from kronikas.api.logs import configure_logging, formatter
from kronikas.application.engines import service_games
from kronikas.config import Settings
from kronikas.connections import Guard

log = logging.getLogger("kronikas.serve")


_STARTUP_S = 10.0
"""A worker that dies sooner after it started fails the same way again: the supervisor stops."""
GRACE_S = 10
KEEP_ALIVE_S = 75
"""How long an idle keep-alive connection stays open: longer than clients keep idle connections
in their pools (httpx and many others drop them after 5 s), so a client never sends a request on
a connection the server is closing at that very moment (a reset, seen as a read error). What
stops one address from holding every slot is the per-address cap (kronikas/connections.py), not
a short keep-alive."""
"""On a stop, open requests and event streams get this long before they are cut."""


_OPEN_FILES_SPARE = 256
"""Open files a worker needs besides its connections: Redis connections, the listening socket,
the web table's files."""


def _uvicorn_formatter(fmt: str) -> logging.Formatter:
    return WithoutQueryStrings(formatter(fmt))


def uvicorn_log_config(fmt: str = "json") -> dict[str, Any]:
    """uvicorn's own logging in the service's `LOG_FORMAT`, each line without query strings
    (its access log is off as well)."""
    config: dict[str, Any] = copy.deepcopy(uvicorn.config.LOGGING_CONFIG)
    for kind in config["formatters"]:
        config["formatters"][kind] = {"()": _uvicorn_formatter, "fmt": fmt}
    return config


def _raise_open_files(connections: int) -> None:
    """Let a worker hold `connections` sockets: the soft limit on open files is often 1024,
    below `MAX_CONNECTIONS`, and a process out of files stops accepting anyone's connections.
    Workers inherit it."""
    try:
        import resource
    except ImportError:  # not on this platform
        return
    needed = connections + _OPEN_FILES_SPARE
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))
    if ceiling < needed:
        log.warning(
            "the hard limit on open files is below MAX_CONNECTIONS: raise it (ulimit -n)",
            extra={"hard_limit": hard, "max_connections": connections},
        )


def server_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the connections (kronikas/connections.py): the guard's protocol,
    which counts them per address, bounds and times their heads and caps them per worker, in
    place of uvicorn's `limit_concurrency` (a plain 503 for everyone)."""
    return {
        # uvicorn calls `http` as it calls a protocol class: (config, server_state, app_state).
        "http": cast("type[Any]", Guard(settings)),
        "timeout_keep_alive": KEEP_ALIVE_S,
        "log_config": uvicorn_log_config(settings.log_format),
    }


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket of its own for one worker; SO_REUSEPORT lets the kernel spread connections."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    return sock


def _port_taken(host: str, port: int) -> OSError | None:
    """Whether something listens on the port already (SO_REUSEPORT would let us share it)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc
    return None


def socket_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the seat sockets (api/socket.py): the implementation that closes
    them with 1001 on shutdown, compression only when asked for, frames no larger than a body
    (uvicorn closes a larger one with 1009 before buffering it), and none of uvicorn's own
    WebSocket pings: the socket's protocol has its heartbeat and idle time-out (a client pings
    every 15 s, or is closed after `SOCKET_IDLE_S`), and uvicorn's ping every 20 s cost each
    idle socket a timer (800 bytes) and a frame each way for nothing (issue 43)."""
    from kronikas.api.ws_protocol import protocol

    return {
        "ws": protocol(settings.socket_implementation),
        "ws_per_message_deflate": settings.socket_deflate,
        "ws_max_size": settings.max_body_bytes,
        "ws_ping_interval": None,
    }


def _worker(app: str, host: str, port: int, supervisor: int) -> None:
    """One worker process: uvicorn on its own socket (it handles SIGTERM and SIGINT itself)."""
    from kronikas.adapters.embedded_redis import die_with_parent

    die_with_parent()
    if os.getppid() != supervisor:
        return  # the supervisor died before this worker could ask to follow it
    settings = Settings.from_env()
    config = uvicorn.Config(
        app,
        factory=True,
        access_log=False,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=GRACE_S,
        proxy_headers=False,  # the client is the TCP peer, or TRUSTED_PROXIES (api/client.py)
        **server_options(settings),
        **socket_options(settings),
    )
    uvicorn.Server(config).run(sockets=[_listening_socket(host, port)])


def _supervise(app: str, host: str, port: int, workers: int) -> int:
    """Run `workers` processes on one port, restart one that dies, stop them all on a signal.

    Not uvicorn's own workers: they share one listening socket, and with keep-alive clients one
    worker could end up with every connection (seen in `make bench`: 32 of 32). With a socket
    each and SO_REUSEPORT, the kernel spreads connections across the workers. (SO_REUSEPORT
    would also let a second service share the port: `main` checks it is free first.)
    """
    spawn = multiprocessing.get_context("spawn")
    stopping: list[int] = []  # a signal handler only appends: no lock it could wait on
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda signum, _: stopping.append(signum))

    def started() -> tuple[multiprocessing.process.BaseProcess, float]:
        process = spawn.Process(
            target=_worker,
            args=(app, host, port, os.getpid()),
            name="kronikas-worker",
        )
        process.start()
        return process, time.monotonic()

    running: list[tuple[multiprocessing.process.BaseProcess, float]] = []
    status = 0
    try:
        running = [started() for _ in range(workers)]
        while not stopping:
            multiprocessing.connection.wait([p.sentinel for p, _ in running], timeout=0.5)
            for i, (process, since) in enumerate(running):
                if process.is_alive() or stopping:
                    continue
                code = process.exitcode
                if process.pid is not None:
                    metrics.worker_died(process.pid)
                if time.monotonic() - since < _STARTUP_S:
                    log.error("a worker failed at start-up; stopping", extra={"code": code})
                    stopping.append(0)
                    status = 1
                    break
                log.warning("a worker died; starting another", extra={"code": code})
                running[i] = started()
    finally:
        for process, _ in running:
            if process.is_alive():
                process.terminate()
        deadline = time.monotonic() + GRACE_S + 5
        for process, _ in running:
            process.join(max(0.0, deadline - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join()
    return status


def app() -> Litestar:
    """The service's app, as each worker's uvicorn makes it (its factory): the composition root,
    where the registry of games is built and handed to the app factory."""
    return create_app(Settings.from_env(), games=service_games())


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
    log_without_query_strings()
    _raise_open_files(settings.max_connections)
    if taken := _port_taken(settings.host, settings.port):  # before anything is started
        log.error(
            "cannot listen: is the service running already? (set PORT for another)",
            extra={"host": settings.host, "port": settings.port, "error": str(taken)},
        )
        return 1
    embedded = None
    if settings.redis_sentinels:  # the Sentinels name the primary; REDIS_URL its password
        from kronikas.adapters.sentinel import credentials

        try:
            credentials(settings.redis_url)
        except ValueError as exc:
            print(f"configuration error: {exc}", file=sys.stderr)
            return 2
    elif settings.redis_url is None:
        from kronikas.adapters.embedded_redis import EmbeddedRedis

        try:
            embedded = EmbeddedRedis(Path(settings.data_dir) / "redis").start()
        except RuntimeError as exc:
            log.error("cannot start the embedded redis-server", extra={"error": str(exc)})
            return 1
        os.environ["REDIS_URL"] = embedded.url
        log.info(
            "REDIS_URL is unset: started an embedded redis-server",
            extra={"redis_url": embedded.url, "data_dir": str(embedded.data_dir)},
        )
    shown_host = "localhost" if settings.host in ("0.0.0.0", "127.0.0.1", "::") else settings.host
    url = f"http://{shown_host}:{settings.port}"
    if settings.log_format == "text":
        print(f"Krónikás on {url}  docs: {url}/schema  (Ctrl-C stops)", file=sys.stderr, flush=True)
    else:  # every line of the output is a JSON log line
        log.info("Krónikás is serving", extra={"url": url, "docs": f"{url}/schema"})
    # Every worker counts in one directory a scrape adds up (kronikas/metrics.py): made now,
    # empty, before any worker starts; a dead worker's open connections are then taken out.
    counts = metrics.multiprocess_dir() if settings.metrics_enabled else None
    # The benchmark serves an app with its ceiling route added; nothing else sets this.
    app = os.environ.get("KRONIKAS_APP", "kronikas.serve:app")
    status = 0
    try:
        if settings.workers > 1 and hasattr(socket, "SO_REUSEPORT") and sys.platform == "linux":
            status = _supervise(app, settings.host, settings.port, settings.workers)
        else:
            uvicorn.run(
                app,
                factory=True,
                host=settings.host,
                port=settings.port,
                workers=settings.workers,
                access_log=False,
                log_level="warning",
                lifespan="on",
                timeout_graceful_shutdown=GRACE_S,
                proxy_headers=False,  # the client is the TCP peer, or TRUSTED_PROXIES
                **server_options(settings),
                **socket_options(settings),
            )
    finally:
        if counts is not None and counts[1]:
            metrics.remove_dir(counts[0])
        if embedded is not None:
            embedded.stop()
            log.info("embedded redis-server stopped")
    return status


if __name__ == "__main__":
    raise SystemExit(main())
