"""What the service counts for `GET /metrics` (docs/operations.md): the calls the rest of the
service makes when something worth counting happens. Each is cheap and safe to call whether or
not metrics are served: until `enable()` (the app factory, with `METRICS=1`) each returns at its
first line, and `prometheus_client` is not even imported.

Served by several worker processes (`WORKERS`), the counts live in `prometheus_client`'s
multiprocess files: `serve.py` makes `PROMETHEUS_MULTIPROC_DIR` fresh before the workers start
(`multiprocess_dir`), marks a dead worker's open-connection gauges gone (`worker_died`), and any
worker's scrape adds up every worker's files. Without that directory (one process: tests, an
app served otherwise) they live in this process.

Every label is taken from a small fixed set: route templates, game kinds, refusal codes, HTTP
methods and statuses, transports. A table id, a token or a player's name is never a label.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from bisect import bisect_left
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"
FLUSH_S = 1.0
"""At most how long a count waits in the process that made it before a scrape can see it.
Counting is a dictionary update on the hot path; the values `prometheus_client` keeps (a lock
and a write into the worker's file each) are updated in one go, a series at a time."""
INF = float("inf")
TEXT_FORMAT = "text/plain; version=0.0.4; charset=utf-8"
"""The media type of what a scrape answers: Prometheus' text format, which every version of
Prometheus reads (`prometheus_client.generate_latest` writes it)."""

CONNECTION_KINDS = ("stream", "long_poll", "socket", "mcp_session")
"""What `kronikas_connections_open` counts, by its `kind` label."""
TRANSPORTS = ("http", "socket", "mcp")
"""The ways a refusal is answered (`answered`)."""

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
"""The methods a request is counted under by name; any other is `other` (a client chooses the
method: it must not choose how many series there are)."""

_DURATIONS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0)
"""Buckets of a request's duration (s): a move takes about a millisecond."""
_REDIS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.1, 0.5, 2.0)
"""Buckets of a Redis call's latency (s): a script on loopback answers in about 0.1 ms."""


class _Families:
    """The metric families, made once a process by `enable()`; and what was counted since they
    were last brought up to date (`flush`), with their labelled children kept by label
    (`prometheus_client`'s own `labels()` checks and locks on every call)."""

    def __init__(self, multiprocess: bool) -> None:
        import prometheus_client
        from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

        # No `_created` series: multiprocess mode has none, and one mode should read as the other.
        prometheus_client.disable_created_metrics()  # type: ignore[no-untyped-call]
        self.multiprocess = multiprocess
        # In multiprocess mode the values live in files, and a scrape reads them all through a
        # registry of its own (`exposition`): the families belong to no registry.
        self.registry = None if multiprocess else CollectorRegistry()
        registry = self.registry
        self.requests = Counter(
            "kronikas_http_requests",
            "HTTP requests answered, by route template, method and status.",
            ["route", "method", "status"],
            registry=registry,
        )
        self.durations = Histogram(
            "kronikas_http_request_duration_seconds",
            "Time from a request's arrival to its answer's end, by route template (a stream's "
            "or a long-poll's is how long it stayed open).",
            ["route"],
            buckets=_DURATIONS,
            registry=registry,
        )
        self.moves = Counter(
            "kronikas_moves",
            "Commands of a seat applied (HTTP, seat socket, MCP), by game.",
            ["game"],
            registry=registry,
        )
        self.refusals = Counter(
            "kronikas_move_refusals",
            "Commands of a seat refused, by game (`none`: no table known) and problem code.",
            ["game", "code"],
            registry=registry,
        )
        self.open = Gauge(
            "kronikas_connections_open",
            "Followers and sessions open now: event streams, long-polls waiting, seat sockets, "
            "MCP requests in progress.",
            ["kind"],
            multiprocess_mode="livesum",
            registry=registry,
        )
        self.redis = Histogram(
            "kronikas_redis_call_seconds",
            "Calls on the service's own Redis line, from written to answered.",
            buckets=_REDIS,
            registry=registry,
        )
        self.shortfalls = Counter(
            "kronikas_replica_shortfalls",
            "Appends fewer than WRITE_REPLICAS replicas confirmed within WRITE_WAIT_MS.",
            registry=registry,
        )
        self.outcome_unknown = Counter(
            "kronikas_outcome_unknown",
            "Answers `outcome_unknown` (503): a change sent whose outcome is not known.",
            ["transport"],
            registry=registry,
        )
        self.switches = Counter(
            "kronikas_primary_switches",
            "Moves of the service's connections to a new Redis primary.",
            registry=registry,
        )
        self.rate_limited = Counter(
            "kronikas_rate_limited",
            "Refusals by a rate limit (`rate_limited`, 429), by transport.",
            ["transport"],
            registry=registry,
        )
        # Every series an alert or a panel reads exists from the start, at 0: a rate over a
        # series that appears only with its first event misses that event.
        for kind in CONNECTION_KINDS:
            self.open.labels(kind)
        for transport in TRANSPORTS:
            self.rate_limited.labels(transport)
            self.outcome_unknown.labels(transport)
        self._children: dict[tuple[Any, ...], Any] = {}
        self.counts: dict[tuple[Any, ...], float] = {}
        """Counts made since the last `flush`, by (counter, *labels)."""
        self.observed: dict[tuple[Any, ...], list[float]] = {}
        """Observations made since the last `flush`, by (histogram, *labels): their sum, then
        how many fell in each bucket."""
        self.bounds = {self.durations: (*_DURATIONS, INF), self.redis: (*_REDIS, INF)}
        self.flushing: Any = None
        """The timer of the next `flush`, while counts wait for it."""

    def count(self, key: tuple[Any, ...]) -> None:
        counts = self.counts
        counts[key] = counts.get(key, 0.0) + 1.0
        if self.flushing is None:
            self.soon()

    def observe(self, key: tuple[Any, ...], value: float) -> None:
        bounds = self.bounds[key[0]]
        found = self.observed.get(key)
        if found is None:
            found = self.observed[key] = [0.0] * (len(bounds) + 1)
        found[0] += value
        found[1 + bisect_left(bounds, value)] += 1
        if self.flushing is None:
            self.soon()

    def soon(self) -> None:
        """A `flush` within `FLUSH_S`: on the event loop that counts, else (no loop) now."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self.flushing = loop.call_later(FLUSH_S, self.flush)

    def flush(self) -> None:
        """Add what was counted since the last flush to the families' values (in multiprocess
        mode, this worker's file): one write a series, however many events it had."""
        if self.flushing is not None:
            self.flushing.cancel()
            self.flushing = None
        counts, self.counts = self.counts, {}
        observed, self.observed = self.observed, {}
        for (family, *labels), n in counts.items():
            self.child(family, *map(str, labels)).inc(n)
        for (family, *labels), (total, *buckets) in observed.items():
            child = self.child(family, *labels)
            child._sum.inc(total)  # what `Histogram.observe` adds, for many observations at once
            for bucket, n in zip(child._buckets, buckets, strict=True):
                if n:
                    bucket.inc(n)

    def child(self, family: Any, *labels: str) -> Any:
        """`family.labels(*labels)` (the family itself when it has none), looked up once."""
        key = (family, *labels)
        found = self._children.get(key)
        if found is None:
            found = self._children[key] = family.labels(*labels) if labels else family
        return found

    def exposition(self) -> bytes:
        from prometheus_client import CollectorRegistry, generate_latest

        if self.registry is not None:
            return generate_latest(self.registry)
        from prometheus_client.multiprocess import MultiProcessCollector

        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)


_on: _Families | None = None
"""The families once `enable()` made them; None while nothing is counted (the process's one
switch: metrics are the process's, however many apps it serves)."""


def enable() -> None:
    """Count from now on (idempotent): in the directory `serve.py` made when there is one."""
    global _on
    if _on is None:
        _on = _Families(multiprocess=bool(os.environ.get(MULTIPROC_ENV)))


def counting() -> bool:
    """Whether anything is counted: a caller that must work out a label checks first."""
    return _on is not None


def flush() -> None:
    """Add this process's counts to what a scrape reads now, not within `FLUSH_S` (before a
    scrape, at shut-down). On the event loop that counts."""
    if _on is not None:
        _on.flush()


def exposition() -> bytes:
    """The text a scrape answers (`TEXT_FORMAT`): every worker's counts as last flushed, this
    process's included when it flushed first. Reads files in multiprocess mode: call it off
    the event loop."""
    if _on is None:
        raise RuntimeError("metrics are not enabled")
    return _on.exposition()


# -- what is counted ---------------------------------------------------------------------------


def http_request(route: str, method: str, status: int, seconds: float) -> None:
    """One HTTP request answered: its route template (`none` when no route matched)."""
    on = _on
    if on is None:
        return
    if method not in _METHODS:
        method = "other"
    on.count((on.requests, route, method, status))  # the status made a label at the flush
    on.observe((on.durations, route), seconds)


def moved(game: str) -> None:
    """A seat's command applied at a table of `game`."""
    if (on := _on) is not None:
        on.count((on.moves, game))


def move_refused(game: str, code: str) -> None:
    """A seat's command refused with `code`, at a table of `game` (`none`: no table known)."""
    if (on := _on) is not None:
        on.count((on.refusals, game, code))


def answered(code: str, transport: str) -> None:
    """A refusal answered over `transport` (`http`, `socket`, `mcp`): counted when it is a rate
    limit's or an `outcome_unknown`."""
    if (on := _on) is None:
        return
    if code == "rate_limited":
        on.count((on.rate_limited, transport))
    elif code == "outcome_unknown":
        on.count((on.outcome_unknown, transport))


@contextmanager
def open_connection(kind: str) -> Iterator[None]:
    """While a follower or session of `kind` (`CONNECTION_KINDS`) is open."""
    on = _on
    if on is None:
        yield
        return
    gauge = on.child(on.open, kind)
    gauge.inc()
    try:
        yield
    finally:
        gauge.dec()


def replica_shortfall() -> None:
    """An append that fewer than `WRITE_REPLICAS` replicas confirmed within `WRITE_WAIT_MS`."""
    if (on := _on) is not None:
        on.count((on.shortfalls,))


def primary_switch() -> None:
    """The service moved its connections to a new primary (Sentinel named another)."""
    if (on := _on) is not None:
        on.count((on.switches,))


def redis_call(seconds: float) -> None:
    """One call on the service's own Redis line, `seconds` from written to answered."""
    if (on := _on) is not None:
        on.observe((on.redis,), seconds)


# -- the supervisor's part (serve.py) ----------------------------------------------------------


def multiprocess_dir() -> tuple[Path, bool]:
    """Make the directory the workers keep their counts in, empty, and name it in the
    environment the workers inherit (before any of them imports `prometheus_client`).

    The operator's `PROMETHEUS_MULTIPROC_DIR` when set (its `*.db` files removed: counts of a
    run before are not this run's); else a new private directory under the system's temporary
    one (never the data directory: two services on one machine would add up each other's
    counts). Answers the directory and whether it is ours to remove at the end."""
    given = os.environ.get(MULTIPROC_ENV)
    if given:
        path = Path(given)
        path.mkdir(parents=True, exist_ok=True)
        for stale in path.glob("*.db"):
            stale.unlink(missing_ok=True)
        return path, False
    path = Path(tempfile.mkdtemp(prefix="kronikas-metrics-"))
    os.environ[MULTIPROC_ENV] = str(path)
    return path, True


def remove_dir(path: Path) -> None:
    """Remove the directory `multiprocess_dir` made (at the supervisor's end)."""
    shutil.rmtree(path, ignore_errors=True)
    if os.environ.get(MULTIPROC_ENV) == str(path):
        del os.environ[MULTIPROC_ENV]


def worker_died(pid: int) -> None:
    """A worker ended: its open-connection gauges go (its counters stay in the sums)."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)  # type: ignore[no-untyped-call]
