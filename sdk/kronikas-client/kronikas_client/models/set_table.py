from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="SetTable")


@_attrs_define
class SetTable:
    """
    Attributes:
        entrants (list[str]): The entrant of each seat.
        places (list[float]): Each seat's place.
        table_id (str):
    """

    entrants: list[str]
    places: list[float]
    table_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entrants = self.entrants

        places = self.places

        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entrants": entrants,
                "places": places,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entrants = cast(list[str], d.pop("entrants"))

        places = cast(list[float], d.pop("places"))

        table_id = d.pop("table_id")

        set_table = cls(
            entrants=entrants,
            places=places,
            table_id=table_id,
        )

        set_table.additional_properties = d
        return set_table

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
