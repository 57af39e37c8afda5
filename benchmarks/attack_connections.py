"""Connections and request heads attacked from one address; figures before and after a change.

`python -m benchmarks.attack_connections [--repo CHECKOUT]` starts its own Redis and one service
(this checkout's code, or `--repo`'s) on loopback, with the connection settings at their
defaults, and measures:

- `head_cpu_s`: CPU the service spent while 127.0.0.4 sent a request head that never ends
  (`GET /v1/health HTTP/1.1`, then `X-Big: ` and `--head-mb` MB of `a`), from the first byte
  until the service closed the connection or took the last byte; `head_mb_sent`: how much of it
  the client got to send before the service closed the connection (the kernels' buffers hold a
  few MB of it); `head_other_p90_ms` / `_max_ms`: the
  latency of 127.0.0.3's health checks meanwhile.
- `idle_ok_share`: the share of 127.0.0.3's health checks (each on a new connection, as `curl`
  makes them) answered 200 while 127.0.0.2 holds `--sockets` idle connections;
  `idle_p50_ms` / `idle_p90_ms`: their latency; `idle_kept`: how many of the idle connections
  the service kept (the others it closed).
- the same with half a request head on each of 127.0.0.5's connections: `half_ok_share`,
  `half_p50_ms`, `half_p90_ms`, `half_kept`.

Prints the figures as JSON. Bounded: one service, `--sockets` connections at most from one
address, every wait with a timeout.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import resource
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path

from benchmarks.served import Served
from kronikas.adapters.embedded_redis import EmbeddedRedis

HEALTH = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
HALF = b"GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n"


def connect(source: str, port: int, send: bytes = b"") -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.settimeout(30)
    sock.bind((source, 0))
    sock.connect(("127.0.0.1", port))
    if send:
        with contextlib.suppress(OSError):
            sock.sendall(send)
    return sock


def health(source: str, port: int) -> float | None:
    """One health check on a new connection: its latency in ms when answered 200, else None."""
    started = time.perf_counter()
    try:
        with connect(source, port, HEALTH) as sock:
            data = b""
            while chunk := sock.recv(65536):
                data += chunk
    except OSError:
        return None
    if not data.startswith(b"HTTP/1.1 200 "):
        return None
    return (time.perf_counter() - started) * 1000


def alive(sock: socket.socket) -> bool:
    """Whether the service still holds `sock` open (nothing to read, no close)."""
    sock.setblocking(False)
    try:
        return sock.recv(1) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


def percentile(samples: list[float], share: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def hoarded(port: int, source: str, sockets: int, send: bytes, checks: int) -> dict[str, float]:
    """`sockets` connections from `source` (sending `send`), then `checks` health checks from
    127.0.0.3: the share answered, their latency, and how many of the hoard were kept."""
    hoard = [connect(source, port, send) for _ in range(sockets)]
    try:
        times = [health("127.0.0.3", port) for _ in range(checks)]
        answered = [t for t in times if t is not None]
        kept = sum(alive(sock) for sock in hoard)
    finally:
        for sock in hoard:
            sock.close()
    return {
        "ok_share": len(answered) / checks,
        "p50_ms": statistics.median(answered) if answered else float("nan"),
        "p90_ms": percentile(answered, 0.9),
        "kept": float(kept),
    }


def big_head(service: Served, megabytes: int) -> dict[str, float]:
    """A head that never ends, from 127.0.0.4, while 127.0.0.3 checks health."""
    latencies: list[float] = []
    sending = threading.Event()
    sending.set()

    def others() -> None:
        while sending.is_set():
            took = health("127.0.0.3", service.port)
            latencies.append(took if took is not None else float("inf"))
            time.sleep(0.05)

    checker = threading.Thread(target=others)
    total = megabytes * 1024 * 1024
    sent = 0
    cpu0 = service.cpu_seconds()
    checker.start()
    try:
        with connect("127.0.0.4", service.port, b"GET /v1/health HTTP/1.1\r\nX-Big: ") as sock:
            sock.settimeout(120)
            piece = b"a" * 65536
            with contextlib.suppress(OSError):
                while sent < total:
                    sock.sendall(piece)
                    sent += len(piece)
            # What was sent has reached the service when it has spent it: wait until its CPU
            # stops rising (or the connection is closed).
            last = service.cpu_seconds()
            while True:
                time.sleep(0.5)
                now = service.cpu_seconds()
                if now - last < 0.02:
                    break
                last = now
            cpu = service.cpu_seconds() - cpu0
    finally:
        sending.clear()
        checker.join(60)
    return {
        "head_cpu_s": cpu,
        "head_mb_sent": sent / 1024 / 1024,
        "head_other_p90_ms": percentile(latencies, 0.9),
        "head_other_max_ms": max(latencies, default=float("nan")),
    }


def raise_open_files(needed: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    ceiling = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if soft != resource.RLIM_INFINITY and soft < ceiling:
        resource.setrlimit(resource.RLIMIT_NOFILE, (ceiling, hard))


def measure(
    repo: Path | None = None, sockets: int = 4_100, head_mb: int = 120, checks: int = 100
) -> dict[str, float]:
    raise_open_files(sockets + 1_000)  # the service inherits it
    results: dict[str, float] = {}
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data) as redis,
        Served(redis.url, repo, {"LOG_LEVEL": "WARNING", "WORKERS": "1"}) as service,
    ):
        for name, value in hoarded(service.port, "127.0.0.2", sockets, b"", checks).items():
            results[f"idle_{name}"] = value
        for name, value in hoarded(service.port, "127.0.0.5", sockets, HALF, checks).items():
            results[f"half_{name}"] = value
        results |= big_head(service, head_mb)
    return results


async def run(repo: Path | None = None, **kw: int) -> dict[str, float]:
    """The figures, for `make bench` (keywords: `sockets`, `head_mb`, `checks`)."""
    return await asyncio.to_thread(measure, repo, **kw)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repo", type=Path, help="serve this checkout's code instead")
    parser.add_argument("--sockets", type=int, default=4_100, help="idle connections held")
    parser.add_argument("--head-mb", type=int, default=120, help="megabytes of the big head")
    parser.add_argument("--checks", type=int, default=100, help="health checks while held")
    args = parser.parse_args()
    figures = measure(args.repo, args.sockets, args.head_mb, args.checks)
    # No answer at all leaves a latency undefined: null, as JSON has no NaN.
    print(json.dumps({k: None if v != v else v for k, v in figures.items()}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
