from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ThirtyOneSwapChoice")


@_attrs_define
class ThirtyOneSwapChoice:
    """
    Attributes:
        give (str):
        score (float): The hand's score after this swap, by the rules: 0 below 21, else the best suit's sum (21 to 32);
            30.5 for three of a rank, 33 for three Aces; `XC` counts as the card that scores best.
        take (str):
    """

    give: str
    score: float
    take: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        give = self.give

        score = self.score

        take = self.take

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "give": give,
                "score": score,
                "take": take,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        give = d.pop("give")

        score = d.pop("score")

        take = d.pop("take")

        thirty_one_swap_choice = cls(
            give=give,
            score=score,
            take=take,
        )

        thirty_one_swap_choice.additional_properties = d
        return thirty_one_swap_choice

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
