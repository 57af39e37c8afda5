from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.opening import Opening


T = TypeVar("T", bound="DealsOpened")


@_attrs_define
class DealsOpened:
    """
    Attributes:
        openings (list[Opening]):
        type_ (Literal['deals_opened']):  Default: 'deals_opened'.
    """

    openings: list[Opening]
    type_: Literal["deals_opened"] = "deals_opened"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        openings = []
        for openings_item_data in self.openings:
            openings_item = openings_item_data.to_dict()
            openings.append(openings_item)

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "openings": openings,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opening import Opening  # noqa: PLC0415

        d = dict(src_dict)
        openings = []
        _openings = d.pop("openings")
        for openings_item_data in _openings:
            openings_item = Opening.from_dict(openings_item_data)

            openings.append(openings_item)

        type_ = cast(Literal["deals_opened"], d.pop("type"))
        if type_ != "deals_opened":
            raise ValueError(f"type must match const 'deals_opened', got '{type_}'")

        deals_opened = cls(
            openings=openings,
            type_=type_,
        )

        deals_opened.additional_properties = d
        return deals_opened

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
