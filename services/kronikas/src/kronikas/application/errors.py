"""Refusals decided by the service itself, not by the rules; each has a stable `code`.

The API maps each code to its HTTP status (api/problems.py): no HTTP here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kronikas_rules.common import Refusal

EXCERPT = 40
"""The most characters of one input a refusal quotes back (a field name, a tag, a value)."""


def quoted(value: object) -> str:
    """`value` as a refusal quotes it: its `repr`, at most `EXCERPT` characters of it inside."""
    text = repr(value)
    return text if len(text) <= EXCERPT + 2 else f"{text[: EXCERPT + 1]}…{text[-1]}"


class ApiError(Refusal, code="invalid_request"):
    """A refusal decided by the service itself (not by the rules)."""

    def __init__(
        self,
        detail: str,
        *,
        headers: Mapping[str, str] | None = None,
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(detail)
        self.headers = dict(headers or {})
        self.errors = errors

    @property
    def retry_after(self) -> int | None:
        """The seconds its `Retry-After` says to wait (429, 503), or None: what the transports
        without headers (the seat socket, `/mcp`) hand on."""
        value = self.headers.get("Retry-After")
        return int(value) if value is not None and value.isdigit() else None


class InvalidRequest(ApiError, code="invalid_request"):
    """The body or a parameter is malformed, or out of range."""


class Unauthorized(ApiError, code="unauthorized"):
    """No token, or a token this table does not know, where one is needed."""


class Forbidden(ApiError, code="forbidden"):
    """A valid token that may not do this (a player starting the table)."""


class NotFound(ApiError, code="not_found"):
    """No such table."""


class VersionMismatch(ApiError, code="version_mismatch"):
    """The version the command names is no longer the table's."""


class SetInPlay(ApiError, code="set_in_play"):
    """An arena table, or set, whose set has not finished: closed to all but its own seats."""


class ArenaBusy(ApiError, code="arena_busy"):
    """An entrant already waiting in another pool, or seated at a table of a set in play."""


class RateLimited(ApiError, code="rate_limited"):
    """Too many requests: `Retry-After` says when to try again."""


class Unavailable(ApiError, code="unavailable"):
    """The store could not be reached or refused the write (out of memory): nothing was changed.
    A read whose reply was lost is `Unavailable` too: a read changes nothing."""


class OutcomeUnknown(ApiError, code="outcome_unknown"):
    """A change was sent to the store and its answer never came (a time-out, a connection lost
    after sending): it may or may not have been applied. Retrying with the same Idempotency-Key,
    or reading the table, tells which. (Not an `Unavailable`: that one says nothing changed.)"""


class UnsupportedMediaType(ApiError, code="unsupported_media_type"):
    """A body that is not sent as JSON."""


def rate_limited(retry_after_ms: int, address: bool = False) -> RateLimited:
    """429, with the seconds to wait; `address`: the client address's ceiling was short (every
    token used from that address shares it)."""
    seconds = max(1, -(-retry_after_ms // 1000))
    whose = " from this address" if address else ""
    return RateLimited(
        f"Too many requests{whose}; try again in {seconds} s.",
        headers={"Retry-After": str(seconds)},
    )
