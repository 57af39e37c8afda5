"""Every refusal the service decides has one HTTP status, given by the API alone."""

from __future__ import annotations

import pytest

from kronikas.api.errors import _API_STATUS
from kronikas.application import errors

REFUSALS = [
    (errors.InvalidRequest, 422),
    (errors.Unauthorized, 401),
    (errors.Forbidden, 403),
    (errors.NotFound, 404),
    (errors.VersionMismatch, 412),
    (errors.RateLimited, 429),
    (errors.Unavailable, 503),
]


@pytest.mark.parametrize(("refusal", "status"), REFUSALS)
def test_each_refusal_maps_to_its_status(refusal: type[errors.ApiError], status: int) -> None:
    assert _API_STATUS[refusal.code] == status


def test_no_refusal_is_left_without_a_status() -> None:
    assert {cls.code for cls in errors.ApiError.__subclasses__()} == set(_API_STATUS)
    assert not any(hasattr(cls, "status") for cls in errors.ApiError.__subclasses__())
