from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerJoined")


@_attrs_define
class PlayerJoined:
    """
    Attributes:
        house (bool):  Default: False.
        name (str):
        player_id (str):
        seat (int):
        type_ (Literal['player_joined']):  Default: 'player_joined'.
    """

    name: str
    player_id: str
    seat: int
    house: bool = False
    type_: Literal["player_joined"] = "player_joined"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        house = self.house

        name = self.name

        player_id = self.player_id

        seat = self.seat

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "house": house,
                "name": name,
                "player_id": player_id,
                "seat": seat,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        house = d.pop("house")

        name = d.pop("name")

        player_id = d.pop("player_id")

        seat = d.pop("seat")

        type_ = cast(Literal["player_joined"], d.pop("type"))
        if type_ != "player_joined":
            raise ValueError(f"type must match const 'player_joined', got '{type_}'")

        player_joined = cls(
            house=house,
            name=name,
            player_id=player_id,
            seat=seat,
            type_=type_,
        )

        player_joined.additional_properties = d
        return player_joined

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
