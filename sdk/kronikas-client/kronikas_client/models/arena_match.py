from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ArenaMatch")


@_attrs_define
class ArenaMatch:
    """
    Attributes:
        finished_at (str):
        kind (str):
        place (float): 1 best; tied seats share the average.
        players (int):
        position (int): The hand position it held.
        seat (int):
        set_id (str):
        table_id (str):
    """

    finished_at: str
    kind: str
    place: float
    players: int
    position: int
    seat: int
    set_id: str
    table_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        finished_at = self.finished_at

        kind = self.kind

        place = self.place

        players = self.players

        position = self.position

        seat = self.seat

        set_id = self.set_id

        table_id = self.table_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "finished_at": finished_at,
                "kind": kind,
                "place": place,
                "players": players,
                "position": position,
                "seat": seat,
                "set_id": set_id,
                "table_id": table_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        finished_at = d.pop("finished_at")

        kind = d.pop("kind")

        place = d.pop("place")

        players = d.pop("players")

        position = d.pop("position")

        seat = d.pop("seat")

        set_id = d.pop("set_id")

        table_id = d.pop("table_id")

        arena_match = cls(
            finished_at=finished_at,
            kind=kind,
            place=place,
            players=players,
            position=position,
            seat=seat,
            set_id=set_id,
            table_id=table_id,
        )

        arena_match.additional_properties = d
        return arena_match

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
