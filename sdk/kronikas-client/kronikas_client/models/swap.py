from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Swap")


@_attrs_define
class Swap:
    """
    Attributes:
        give (str): A card: rank (7 8 9 10 U O K A) then suit (H B L A), or XC / XP.
        take (str): A card: rank (7 8 9 10 U O K A) then suit (H B L A), or XC / XP.
        type_ (Literal['swap']):  Default: 'swap'.
    """

    give: str
    take: str
    type_: Literal["swap"] = "swap"

    def to_dict(self) -> dict[str, Any]:
        give = self.give

        take = self.take

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "give": give,
                "take": take,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        give = d.pop("give")

        take = d.pop("take")

        type_ = cast(Literal["swap"], d.pop("type"))
        if type_ != "swap":
            raise ValueError(f"type must match const 'swap', got '{type_}'")

        swap = cls(
            give=give,
            take=take,
            type_=type_,
        )

        return swap
