from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Opening")


@_attrs_define
class Opening:
    """
    Attributes:
        card (str):
        path (list[str]):
        position (int):
        round_ (int):
        salt (str):
    """

    card: str
    path: list[str]
    position: int
    round_: int
    salt: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        card = self.card

        path = self.path

        position = self.position

        round_ = self.round_

        salt = self.salt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "card": card,
                "path": path,
                "position": position,
                "round": round_,
                "salt": salt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        card = d.pop("card")

        path = cast(list[str], d.pop("path"))

        position = d.pop("position")

        round_ = d.pop("round")

        salt = d.pop("salt")

        opening = cls(
            card=card,
            path=path,
            position=position,
            round_=round_,
            salt=salt,
        )

        opening.additional_properties = d
        return opening

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
