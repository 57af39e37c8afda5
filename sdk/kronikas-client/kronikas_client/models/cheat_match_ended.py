from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatMatchEnded")


@_attrs_define
class CheatMatchEnded:
    """
    Attributes:
        points (list[int]):
        type_ (Literal['match_ended']):  Default: 'match_ended'.
        winners (list[int]):
    """

    points: list[int]
    winners: list[int]
    type_: Literal["match_ended"] = "match_ended"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = self.points

        type_ = self.type_

        winners = self.winners

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "type": type_,
                "winners": winners,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        points = cast(list[int], d.pop("points"))

        type_ = cast(Literal["match_ended"], d.pop("type"))
        if type_ != "match_ended":
            raise ValueError(f"type must match const 'match_ended', got '{type_}'")

        winners = cast(list[int], d.pop("winners"))

        cheat_match_ended = cls(
            points=points,
            type_=type_,
            winners=winners,
        )

        cheat_match_ended.additional_properties = d
        return cheat_match_ended

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
