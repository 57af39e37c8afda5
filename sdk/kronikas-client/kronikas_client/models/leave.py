from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Leave")


@_attrs_define
class Leave:
    """
    Attributes:
        type_ (Literal['leave']):  Default: 'leave'.
    """

    type_: Literal["leave"] = "leave"

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
        type_ = cast(Literal["leave"], d.pop("type"))
        if type_ != "leave":
            raise ValueError(f"type must match const 'leave', got '{type_}'")

        leave = cls(
            type_=type_,
        )

        return leave
