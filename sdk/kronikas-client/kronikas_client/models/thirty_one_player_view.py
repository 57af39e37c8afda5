from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ThirtyOnePlayerView")


@_attrs_define
class ThirtyOnePlayerView:
    """
    Attributes:
        hand_size (int):
        id (str):
        lives (int):
        name (str):
        out (bool):
        seat (int):
    """

    hand_size: int
    id: str
    lives: int
    name: str
    out: bool
    seat: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand_size = self.hand_size

        id = self.id

        lives = self.lives

        name = self.name

        out = self.out

        seat = self.seat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hand_size": hand_size,
                "id": id,
                "lives": lives,
                "name": name,
                "out": out,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hand_size = d.pop("hand_size")

        id = d.pop("id")

        lives = d.pop("lives")

        name = d.pop("name")

        out = d.pop("out")

        seat = d.pop("seat")

        thirty_one_player_view = cls(
            hand_size=hand_size,
            id=id,
            lives=lives,
            name=name,
            out=out,
            seat=seat,
        )

        thirty_one_player_view.additional_properties = d
        return thirty_one_player_view

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
