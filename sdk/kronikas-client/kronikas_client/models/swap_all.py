from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SwapAll")


@_attrs_define
class SwapAll:
    """
    Attributes:
        type_ (Literal['swap_all']):  Default: 'swap_all'.
    """

    type_: Literal["swap_all"] = "swap_all"

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
        type_ = cast(Literal["swap_all"], d.pop("type"))
        if type_ != "swap_all":
            raise ValueError(f"type must match const 'swap_all', got '{type_}'")

        swap_all = cls(
            type_=type_,
        )

        return swap_all
