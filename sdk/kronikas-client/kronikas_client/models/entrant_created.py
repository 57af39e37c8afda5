from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EntrantCreated")


@_attrs_define
class EntrantCreated:
    """
    Attributes:
        created_at (str):
        entrant_id (str): The entrant's id.
        games (list[str]):
        name (str):
        token (str):
    """

    created_at: str
    entrant_id: str
    games: list[str]
    name: str
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        entrant_id = self.entrant_id

        games = self.games

        name = self.name

        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "entrant_id": entrant_id,
                "games": games,
                "name": name,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        entrant_id = d.pop("entrant_id")

        games = cast(list[str], d.pop("games"))

        name = d.pop("name")

        token = d.pop("token")

        entrant_created = cls(
            created_at=created_at,
            entrant_id=entrant_id,
            games=games,
            name=name,
            token=token,
        )

        entrant_created.additional_properties = d
        return entrant_created

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
