from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_info_kind import KindInfoKind

if TYPE_CHECKING:
    from ..models.option_info import OptionInfo


T = TypeVar("T", bound="KindInfo")


@_attrs_define
class KindInfo:
    """
    Attributes:
        commands (list[str]):
        kind (KindInfoKind):
        max_players (int):
        min_players (int):
        options (list[OptionInfo]):
    """

    commands: list[str]
    kind: KindInfoKind
    max_players: int
    min_players: int
    options: list[OptionInfo]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        commands = self.commands

        kind = self.kind.value

        max_players = self.max_players

        min_players = self.min_players

        options = []
        for options_item_data in self.options:
            options_item = options_item_data.to_dict()
            options.append(options_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "commands": commands,
                "kind": kind,
                "max_players": max_players,
                "min_players": min_players,
                "options": options,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.option_info import OptionInfo  # noqa: PLC0415

        d = dict(src_dict)
        commands = cast(list[str], d.pop("commands"))

        kind = KindInfoKind(d.pop("kind"))

        max_players = d.pop("max_players")

        min_players = d.pop("min_players")

        options = []
        _options = d.pop("options")
        for options_item_data in _options:
            options_item = OptionInfo.from_dict(options_item_data)

            options.append(options_item)

        kind_info = cls(
            commands=commands,
            kind=kind,
            max_players=max_players,
            min_players=min_players,
            options=options,
        )

        kind_info.additional_properties = d
        return kind_info

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
