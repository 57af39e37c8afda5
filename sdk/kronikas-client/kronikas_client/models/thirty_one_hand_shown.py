from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ThirtyOneHandShown")


@_attrs_define
class ThirtyOneHandShown:
    """
    Attributes:
        hand (list[str]):
        seat (int):
        turn (int | None):
        type_ (Literal['hand_shown']):  Default: 'hand_shown'.
    """

    hand: list[str]
    seat: int
    turn: int | None
    type_: Literal["hand_shown"] = "hand_shown"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand = self.hand

        seat = self.seat

        turn: int | None
        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hand": hand,
                "seat": seat,
                "turn": turn,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hand = cast(list[str], d.pop("hand"))

        seat = d.pop("seat")

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        type_ = cast(Literal["hand_shown"], d.pop("type"))
        if type_ != "hand_shown":
            raise ValueError(f"type must match const 'hand_shown', got '{type_}'")

        thirty_one_hand_shown = cls(
            hand=hand,
            seat=seat,
            turn=turn,
            type_=type_,
        )

        thirty_one_hand_shown.additional_properties = d
        return thirty_one_hand_shown

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
