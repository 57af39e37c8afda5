from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="ThirtyOneOptions")


@_attrs_define
class ThirtyOneOptions:
    """
    Attributes:
        chronicler (bool | Unset): Whether the Coloured Chronicler XC joins the deck (33 cards). Default: False.
        lives (int | Unset): Lives each player starts with; 0: out at the first loss. Default: 3.
        max_circuits (int | None | Unset): After this many full circuits without a show, the player on turn may only
            show; null: no limit.
    """

    chronicler: bool | Unset = False
    lives: int | Unset = 3
    max_circuits: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chronicler = self.chronicler

        lives = self.lives

        max_circuits: int | None | Unset
        if isinstance(self.max_circuits, Unset):
            max_circuits = UNSET
        else:
            max_circuits = self.max_circuits

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if chronicler is not UNSET:
            field_dict["chronicler"] = chronicler
        if lives is not UNSET:
            field_dict["lives"] = lives
        if max_circuits is not UNSET:
            field_dict["max_circuits"] = max_circuits

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chronicler = d.pop("chronicler", UNSET)

        lives = d.pop("lives", UNSET)

        def _parse_max_circuits(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_circuits = _parse_max_circuits(d.pop("max_circuits", UNSET))

        thirty_one_options = cls(
            chronicler=chronicler,
            lives=lives,
            max_circuits=max_circuits,
        )

        thirty_one_options.additional_properties = d
        return thirty_one_options

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
