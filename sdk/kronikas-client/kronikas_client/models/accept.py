from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Accept")


@_attrs_define
class Accept:
    """
    Attributes:
        type_ (Literal['accept']):  Default: 'accept'.
    """

    type_: Literal["accept"] = "accept"

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        type_ = cast(Literal["accept"], d.pop("type"))
        if type_ != "accept":
            raise ValueError(f"type must match const 'accept', got '{type_}'")

        accept = cls(
            type_=type_,
        )

        return accept
