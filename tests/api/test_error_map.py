"""Every refusal the service decides has one HTTP status, given by the API alone."""

from __future__ import annotations

import pytest

from kronikas.api.problems import _API_STATUS, _DESCRIPTIONS
from kronikas.application import errors
from kronikas_rules.common import DomainError

REFUSALS = [
    (errors.InvalidRequest, 422),
    (errors.Unauthorized, 401),
    (errors.Forbidden, 403),
    (errors.NotFound, 404),
    (errors.VersionMismatch, 412),
    (errors.UnsupportedMediaType, 415),
    (errors.RateLimited, 429),
    (errors.Unavailable, 503),
    (errors.OutcomeUnknown, 503),
]


@pytest.mark.parametrize(("refusal", "status"), REFUSALS)
def test_each_refusal_maps_to_its_status(refusal: type[errors.ApiError], status: int) -> None:
    assert _API_STATUS[refusal.code] == status


def test_no_refusal_is_left_without_a_status() -> None:
    assert {cls.code for cls in errors.ApiError.__subclasses__()} == set(_API_STATUS)
    assert not any(hasattr(cls, "status") for cls in errors.ApiError.__subclasses__())


def _codes(cls: type) -> set[str]:
    found = {cls.code} if isinstance(getattr(cls, "code", None), str) else set()
    for sub in cls.__subclasses__():
        found |= _codes(sub)
    return found


def test_the_document_names_every_refusal_of_the_rules_under_409() -> None:
    codes = _codes(DomainError)
    assert {"name_taken", "game_full"} <= codes
    assert [c for c in codes if f"`{c}`" not in _DESCRIPTIONS[409]] == []


def test_the_document_names_each_service_refusal_under_its_status() -> None:
    missing = [c for c, status in _API_STATUS.items() if f"`{c}`" not in _DESCRIPTIONS[status]]
    assert missing == []
