from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.deals_opened import DealsOpened


T = TypeVar("T", bound="CheatDealsOpenedEvent")


@_attrs_define
class CheatDealsOpenedEvent:
    """
    Attributes:
        at (str): When, as RFC 3339 UTC.
        data (DealsOpened):
        type_ (Literal['cheat.deals_opened']):  Default: 'cheat.deals_opened'.
        version (int): 1, 2, 3… without gaps.
    """

    at: str
    data: DealsOpened
    version: int
    type_: Literal["cheat.deals_opened"] = "cheat.deals_opened"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        data = self.data.to_dict()

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "data": data,
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.deals_opened import DealsOpened  # noqa: PLC0415

        d = dict(src_dict)
        at = d.pop("at")

        data = DealsOpened.from_dict(d.pop("data"))

        type_ = cast(Literal["cheat.deals_opened"], d.pop("type"))
        if type_ != "cheat.deals_opened":
            raise ValueError(f"type must match const 'cheat.deals_opened', got '{type_}'")

        version = d.pop("version")

        cheat_deals_opened_event = cls(
            at=at,
            data=data,
            type_=type_,
            version=version,
        )

        cheat_deals_opened_event.additional_properties = d
        return cheat_deals_opened_event

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
