from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="Play")


@_attrs_define
class Play:
    """
    Attributes:
        cards (list[str]):
        type_ (Literal['play']):  Default: 'play'.
    """

    cards: list[str]
    type_: Literal["play"] = "play"

    def to_dict(self) -> dict[str, Any]:
        cards = self.cards

        type_ = self.type_

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "cards": cards,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cards = cast(list[str], d.pop("cards"))

        type_ = cast(Literal["play"], d.pop("type"))
        if type_ != "play":
            raise ValueError(f"type must match const 'play', got '{type_}'")

        play = cls(
            cards=cards,
            type_=type_,
        )

        return play
