"""Refusals decided by the service itself, not by the rules; each has a stable `code`.

The API maps each code to its HTTP status (api/problems.py): no HTTP here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ApiError(Exception):
    """A refusal decided by the service itself (not by the rules)."""

    code = "invalid_request"

    def __init__(
        self,
        detail: str,
        *,
        headers: Mapping[str, str] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.headers = dict(headers or {})
        self.errors = errors

    @property
    def retry_after(self) -> int | None:
        """The seconds its `Retry-After` says to wait (429, 503), or None: what the transports
        without headers (the seat socket, `/mcp`) hand on."""
        value = self.headers.get("Retry-After")
        return int(value) if value is not None and value.isdigit() else None


class InvalidRequest(ApiError):
    code = "invalid_request"


class Unauthorized(ApiError):
    code = "unauthorized"


class Forbidden(ApiError):
    code = "forbidden"


class NotFound(ApiError):
    code = "not_found"


class VersionMismatch(ApiError):
    code = "version_mismatch"


class RateLimited(ApiError):
    code = "rate_limited"


class Unavailable(ApiError):
    """The store could not be reached or refused the write (out of memory): nothing was changed.
    A read whose reply was lost is `Unavailable` too: a read changes nothing."""

    code = "unavailable"


class OutcomeUnknown(ApiError):
    """A change was sent to the store and its answer never came (a time-out, a connection lost
    after sending): it may or may not have been applied. Retrying with the same Idempotency-Key,
    or reading the table, tells which. (Not an `Unavailable`: that one says nothing changed.)"""

    code = "outcome_unknown"


class UnsupportedMediaType(ApiError):
    code = "unsupported_media_type"


def rate_limited(retry_after_ms: int, address: bool = False) -> RateLimited:
    """429, with the seconds to wait; `address`: the client address's ceiling was short (every
    token used from that address shares it)."""
    seconds = max(1, -(-retry_after_ms // 1000))
    whose = " from this address" if address else ""
    return RateLimited(
        f"Too many requests{whose}; try again in {seconds} s.",
        headers={"Retry-After": str(seconds)},
    )
