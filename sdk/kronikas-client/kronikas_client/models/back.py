from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Back")


@_attrs_define
class Back:
    """
    Attributes:
        type_ (Literal['back']):  Default: 'back'.
    """

    type_: Literal["back"] = "back"

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
        type_ = cast(Literal["back"], d.pop("type"))
        if type_ != "back":
            raise ValueError(f"type must match const 'back', got '{type_}'")

        back = cls(
            type_=type_,
        )

        return back
