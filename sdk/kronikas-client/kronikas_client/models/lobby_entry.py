from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.lobby_entry_kind import LobbyEntryKind
from ..models.lobby_entry_status import LobbyEntryStatus

T = TypeVar("T", bound="LobbyEntry")


@_attrs_define
class LobbyEntry:
    """
    Attributes:
        created_at (str):
        id (str):
        kind (LobbyEntryKind):
        max_players (int):
        players (int):
        seeded (bool):
        status (LobbyEntryStatus):
    """

    created_at: str
    id: str
    kind: LobbyEntryKind
    max_players: int
    players: int
    seeded: bool
    status: LobbyEntryStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        id = self.id

        kind = self.kind.value

        max_players = self.max_players

        players = self.players

        seeded = self.seeded

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "kind": kind,
                "max_players": max_players,
                "players": players,
                "seeded": seeded,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        id = d.pop("id")

        kind = LobbyEntryKind(d.pop("kind"))

        max_players = d.pop("max_players")

        players = d.pop("players")

        seeded = d.pop("seeded")

        status = LobbyEntryStatus(d.pop("status"))

        lobby_entry = cls(
            created_at=created_at,
            id=id,
            kind=kind,
            max_players=max_players,
            players=players,
            seeded=seeded,
            status=status,
        )

        lobby_entry.additional_properties = d
        return lobby_entry

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
