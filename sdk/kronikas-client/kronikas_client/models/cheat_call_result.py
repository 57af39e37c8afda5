from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatCallResult")


@_attrs_define
class CheatCallResult:
    """
    Attributes:
        caller (int):
        cards (list[str]):
        honest (bool):
        rank (str):
        seat (int):
        taker (int):
    """

    caller: int
    cards: list[str]
    honest: bool
    rank: str
    seat: int
    taker: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        caller = self.caller

        cards = self.cards

        honest = self.honest

        rank = self.rank

        seat = self.seat

        taker = self.taker

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "caller": caller,
                "cards": cards,
                "honest": honest,
                "rank": rank,
                "seat": seat,
                "taker": taker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        caller = d.pop("caller")

        cards = cast(list[str], d.pop("cards"))

        honest = d.pop("honest")

        rank = d.pop("rank")

        seat = d.pop("seat")

        taker = d.pop("taker")

        cheat_call_result = cls(
            caller=caller,
            cards=cards,
            honest=honest,
            rank=rank,
            seat=seat,
            taker=taker,
        )

        cheat_call_result.additional_properties = d
        return cheat_call_result

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
