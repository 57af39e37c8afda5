from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.rating_change import RatingChange
    from ..models.set_table import SetTable


T = TypeVar("T", bound="SetPage")


@_attrs_define
class SetPage:
    """
    Attributes:
        changes (list[RatingChange]):
        finished_at (str):
        kind (str):
        players (int):
        rankings (list[list[list[str]]]): Per hand position: its holders from best to worst, tied ones together.
        set_id (str):
        tables (list[SetTable]):
    """

    changes: list[RatingChange]
    finished_at: str
    kind: str
    players: int
    rankings: list[list[list[str]]]
    set_id: str
    tables: list[SetTable]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        finished_at = self.finished_at

        kind = self.kind

        players = self.players

        rankings = []
        for rankings_item_data in self.rankings:
            rankings_item = []
            for rankings_item_item_data in rankings_item_data:
                rankings_item_item = rankings_item_item_data

                rankings_item.append(rankings_item_item)

            rankings.append(rankings_item)

        set_id = self.set_id

        tables = []
        for tables_item_data in self.tables:
            tables_item = tables_item_data.to_dict()
            tables.append(tables_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "changes": changes,
                "finished_at": finished_at,
                "kind": kind,
                "players": players,
                "rankings": rankings,
                "set_id": set_id,
                "tables": tables,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.rating_change import RatingChange  # noqa: PLC0415
        from ..models.set_table import SetTable  # noqa: PLC0415

        d = dict(src_dict)
        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = RatingChange.from_dict(changes_item_data)

            changes.append(changes_item)

        finished_at = d.pop("finished_at")

        kind = d.pop("kind")

        players = d.pop("players")

        rankings = []
        _rankings = d.pop("rankings")
        for rankings_item_data in _rankings:
            rankings_item = []
            _rankings_item = rankings_item_data
            for rankings_item_item_data in _rankings_item:
                rankings_item_item = cast(list[str], rankings_item_item_data)

                rankings_item.append(rankings_item_item)

            rankings.append(rankings_item)

        set_id = d.pop("set_id")

        tables = []
        _tables = d.pop("tables")
        for tables_item_data in _tables:
            tables_item = SetTable.from_dict(tables_item_data)

            tables.append(tables_item)

        set_page = cls(
            changes=changes,
            finished_at=finished_at,
            kind=kind,
            players=players,
            rankings=rankings,
            set_id=set_id,
            tables=tables,
        )

        set_page.additional_properties = d
        return set_page

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
