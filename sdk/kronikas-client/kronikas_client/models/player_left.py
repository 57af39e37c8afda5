from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PlayerLeft")


@_attrs_define
class PlayerLeft:
    """
    Attributes:
        player_id (str):
        seat (int):
        started (bool):
        type_ (Literal['player_left']):  Default: 'player_left'.
    """

    player_id: str
    seat: int
    started: bool
    type_: Literal["player_left"] = "player_left"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        player_id = self.player_id

        seat = self.seat

        started = self.started

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "player_id": player_id,
                "seat": seat,
                "started": started,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        player_id = d.pop("player_id")

        seat = d.pop("seat")

        started = d.pop("started")

        type_ = cast(Literal["player_left"], d.pop("type"))
        if type_ != "player_left":
            raise ValueError(f"type must match const 'player_left', got '{type_}'")

        player_left = cls(
            player_id=player_id,
            seat=seat,
            started=started,
            type_=type_,
        )

        player_left.additional_properties = d
        return player_left

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
