from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatPlayerView")


@_attrs_define
class CheatPlayerView:
    """
    Attributes:
        away (bool): The seat's clock ran out: the house plays it until its player is back.
        hand_size (int):
        house (bool): The house plays this seat for good: a house player, or a player who left.
        id (str):
        left (bool): The player left after the start: the house plays the seat to the end.
        name (str):
        points (int):
        seat (int):
    """

    away: bool
    hand_size: int
    house: bool
    id: str
    left: bool
    name: str
    points: int
    seat: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        away = self.away

        hand_size = self.hand_size

        house = self.house

        id = self.id

        left = self.left

        name = self.name

        points = self.points

        seat = self.seat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "away": away,
                "hand_size": hand_size,
                "house": house,
                "id": id,
                "left": left,
                "name": name,
                "points": points,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        away = d.pop("away")

        hand_size = d.pop("hand_size")

        house = d.pop("house")

        id = d.pop("id")

        left = d.pop("left")

        name = d.pop("name")

        points = d.pop("points")

        seat = d.pop("seat")

        cheat_player_view = cls(
            away=away,
            hand_size=hand_size,
            house=house,
            id=id,
            left=left,
            name=name,
            points=points,
            seat=seat,
        )

        cheat_player_view.additional_properties = d
        return cheat_player_view

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
