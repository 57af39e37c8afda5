from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_event_data import GameEventData


T = TypeVar("T", bound="GameEvent")


@_attrs_define
class GameEvent:
    """
    Attributes:
        at (str):
        data (GameEventData):
        type_ (str):
        version (int):
    """

    at: str
    data: GameEventData
    type_: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        data = self.data.to_dict()

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "data": data,
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_event_data import GameEventData  # noqa: PLC0415

        d = dict(src_dict)
        at = d.pop("at")

        data = GameEventData.from_dict(d.pop("data"))

        type_ = d.pop("type")

        version = d.pop("version")

        game_event = cls(
            at=at,
            data=data,
            type_=type_,
            version=version,
        )

        game_event.additional_properties = d
        return game_event

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
