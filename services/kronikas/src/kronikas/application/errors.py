"""Refusals decided by the service itself, not by the rules (the API maps them to HTTP)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class ApiError(Exception):
    """A refusal decided by the service itself (not by the rules)."""

    status = 400
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
    status, code = 422, "invalid_request"


class Unauthorized(ApiError):
    status, code = 401, "unauthorized"


class Forbidden(ApiError):
    status, code = 403, "forbidden"


class NotFound(ApiError):
    status, code = 404, "not_found"


class VersionMismatch(ApiError):
    status, code = 412, "version_mismatch"


class RateLimited(ApiError):
    status, code = 429, "rate_limited"


class Unavailable(ApiError):
    status, code = 503, "unavailable"
