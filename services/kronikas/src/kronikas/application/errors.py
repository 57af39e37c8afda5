"""Refusals decided by the service itself, not by the rules; each has a stable `code`.

The API maps each code to its HTTP status (api/errors.py): no HTTP here."""

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
    code = "unavailable"


class UnsupportedMediaType(ApiError):
    code = "unsupported_media_type"
