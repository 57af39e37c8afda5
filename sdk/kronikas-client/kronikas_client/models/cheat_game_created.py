from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_table_options import CheatTableOptions


T = TypeVar("T", bound="CheatGameCreated")


@_attrs_define
class CheatGameCreated:
    """
    Attributes:
        options (CheatTableOptions):
        seeded (bool):
        type_ (Literal['game_created']):  Default: 'game_created'.
    """

    options: CheatTableOptions
    seeded: bool
    type_: Literal["game_created"] = "game_created"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        options = self.options.to_dict()

        seeded = self.seeded

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "options": options,
                "seeded": seeded,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_table_options import CheatTableOptions  # noqa: PLC0415

        d = dict(src_dict)
        options = CheatTableOptions.from_dict(d.pop("options"))

        seeded = d.pop("seeded")

        type_ = cast(Literal["game_created"], d.pop("type"))
        if type_ != "game_created":
            raise ValueError(f"type must match const 'game_created', got '{type_}'")

        cheat_game_created = cls(
            options=options,
            seeded=seeded,
            type_=type_,
        )

        cheat_game_created.additional_properties = d
        return cheat_game_created

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
