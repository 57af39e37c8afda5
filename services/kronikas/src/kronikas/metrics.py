"""What the service counts for `GET /metrics` (docs/operations.md): the calls the rest of the
service makes when something worth counting happens. Each is cheap and safe to call whether or
not metrics are served."""

from __future__ import annotations


def replica_shortfall() -> None:
    """An append that fewer than `WRITE_REPLICAS` replicas confirmed within `WRITE_WAIT_MS`."""


def primary_switch() -> None:
    """The service moved its connections to a new primary (Sentinel named another)."""


def redis_call(seconds: float) -> None:
    """One call on the service's own Redis line, `seconds` from written to answered."""
