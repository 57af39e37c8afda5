from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.thirty_one_record_table_status import ThirtyOneRecordTableStatus

if TYPE_CHECKING:
    from ..models.thirty_one_player_view import ThirtyOnePlayerView
    from ..models.thirty_one_table_options import ThirtyOneTableOptions


T = TypeVar("T", bound="ThirtyOneRecordTable")


@_attrs_define
class ThirtyOneRecordTable:
    """
    Attributes:
        id (str):
        kind (Literal['thirty_one']):  Default: 'thirty_one'.
        options (ThirtyOneTableOptions):
        players (list[ThirtyOnePlayerView]):
        seeded (bool):
        status (ThirtyOneRecordTableStatus):
    """

    id: str
    options: ThirtyOneTableOptions
    players: list[ThirtyOnePlayerView]
    seeded: bool
    status: ThirtyOneRecordTableStatus
    kind: Literal["thirty_one"] = "thirty_one"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind

        options = self.options.to_dict()

        players = []
        for players_item_data in self.players:
            players_item = players_item_data.to_dict()
            players.append(players_item)

        seeded = self.seeded

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "options": options,
                "players": players,
                "seeded": seeded,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.thirty_one_player_view import ThirtyOnePlayerView  # noqa: PLC0415
        from ..models.thirty_one_table_options import ThirtyOneTableOptions  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        kind = cast(Literal["thirty_one"], d.pop("kind"))
        if kind != "thirty_one":
            raise ValueError(f"kind must match const 'thirty_one', got '{kind}'")

        options = ThirtyOneTableOptions.from_dict(d.pop("options"))

        players = []
        _players = d.pop("players")
        for players_item_data in _players:
            players_item = ThirtyOnePlayerView.from_dict(players_item_data)

            players.append(players_item)

        seeded = d.pop("seeded")

        status = ThirtyOneRecordTableStatus(d.pop("status"))

        thirty_one_record_table = cls(
            id=id,
            kind=kind,
            options=options,
            players=players,
            seeded=seeded,
            status=status,
        )

        thirty_one_record_table.additional_properties = d
        return thirty_one_record_table

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
