from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ThirtyOneHandKept")


@_attrs_define
class ThirtyOneHandKept:
    """
    Attributes:
        seat (int):
        turn (int):
        type_ (Literal['hand_kept']):  Default: 'hand_kept'.
    """

    seat: int
    turn: int
    type_: Literal["hand_kept"] = "hand_kept"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        seat = self.seat

        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "seat": seat,
                "turn": turn,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        seat = d.pop("seat")

        turn = d.pop("turn")

        type_ = cast(Literal["hand_kept"], d.pop("type"))
        if type_ != "hand_kept":
            raise ValueError(f"type must match const 'hand_kept', got '{type_}'")

        thirty_one_hand_kept = cls(
            seat=seat,
            turn=turn,
            type_=type_,
        )

        thirty_one_hand_kept.additional_properties = d
        return thirty_one_hand_kept

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
