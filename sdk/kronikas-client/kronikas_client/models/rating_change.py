from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RatingChange")


@_attrs_define
class RatingChange:
    """
    Attributes:
        entrant_id (str):
        mu (float):
        mu_before (float):
        sigma (float):
        sigma_before (float):
    """

    entrant_id: str
    mu: float
    mu_before: float
    sigma: float
    sigma_before: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entrant_id = self.entrant_id

        mu = self.mu

        mu_before = self.mu_before

        sigma = self.sigma

        sigma_before = self.sigma_before

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entrant_id": entrant_id,
                "mu": mu,
                "mu_before": mu_before,
                "sigma": sigma,
                "sigma_before": sigma_before,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entrant_id = d.pop("entrant_id")

        mu = d.pop("mu")

        mu_before = d.pop("mu_before")

        sigma = d.pop("sigma")

        sigma_before = d.pop("sigma_before")

        rating_change = cls(
            entrant_id=entrant_id,
            mu=mu,
            mu_before=mu_before,
            sigma=sigma,
            sigma_before=sigma_before,
        )

        rating_change.additional_properties = d
        return rating_change

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
