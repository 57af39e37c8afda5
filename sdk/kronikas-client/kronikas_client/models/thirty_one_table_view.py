from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.thirty_one_table_view_phase import ThirtyOneTableViewPhase

T = TypeVar("T", bound="ThirtyOneTableView")


@_attrs_define
class ThirtyOneTableView:
    """
    Attributes:
        circuit (int | None):
        commitment (None | str):
        deck_size (int | None):
        passed (list[int]):
        phase (ThirtyOneTableViewPhase):
        scheme (None | str):
        shown (list[list[str] | None]):
        shown_by (int | None):
        table (list[str]):
    """

    circuit: int | None
    commitment: None | str
    deck_size: int | None
    passed: list[int]
    phase: ThirtyOneTableViewPhase
    scheme: None | str
    shown: list[list[str] | None]
    shown_by: int | None
    table: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        circuit: int | None
        circuit = self.circuit

        commitment: None | str
        commitment = self.commitment

        deck_size: int | None
        deck_size = self.deck_size

        passed = self.passed

        phase = self.phase.value

        scheme: None | str
        scheme = self.scheme

        shown = []
        for shown_item_data in self.shown:
            shown_item: list[str] | None
            if isinstance(shown_item_data, list):
                shown_item = shown_item_data

            else:
                shown_item = shown_item_data
            shown.append(shown_item)

        shown_by: int | None
        shown_by = self.shown_by

        table = self.table

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "circuit": circuit,
                "commitment": commitment,
                "deck_size": deck_size,
                "passed": passed,
                "phase": phase,
                "scheme": scheme,
                "shown": shown,
                "shown_by": shown_by,
                "table": table,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_circuit(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        circuit = _parse_circuit(d.pop("circuit"))

        def _parse_commitment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        commitment = _parse_commitment(d.pop("commitment"))

        def _parse_deck_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        deck_size = _parse_deck_size(d.pop("deck_size"))

        passed = cast(list[int], d.pop("passed"))

        phase = ThirtyOneTableViewPhase(d.pop("phase"))

        def _parse_scheme(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        scheme = _parse_scheme(d.pop("scheme"))

        shown = []
        _shown = d.pop("shown")
        for shown_item_data in _shown:

            def _parse_shown_item(data: object) -> list[str] | None:
                if data is None:
                    return data
                try:
                    if not isinstance(data, list):
                        raise TypeError()
                    shown_item_type_0 = cast(list[str], data)

                    return shown_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(list[str] | None, data)

            shown_item = _parse_shown_item(shown_item_data)

            shown.append(shown_item)

        def _parse_shown_by(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        shown_by = _parse_shown_by(d.pop("shown_by"))

        table = cast(list[str], d.pop("table"))

        thirty_one_table_view = cls(
            circuit=circuit,
            commitment=commitment,
            deck_size=deck_size,
            passed=passed,
            phase=phase,
            scheme=scheme,
            shown=shown,
            shown_by=shown_by,
            table=table,
        )

        thirty_one_table_view.additional_properties = d
        return thirty_one_table_view

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
