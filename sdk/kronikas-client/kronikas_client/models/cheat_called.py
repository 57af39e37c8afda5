from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatCalled")


@_attrs_define
class CheatCalled:
    """
    Attributes:
        caller (int):
        cards (list[str]):
        honest (bool):
        rank (str):
        seat (int):
        taker (int):
        type_ (Literal['cheat_called']):  Default: 'cheat_called'.
    """

    caller: int
    cards: list[str]
    honest: bool
    rank: str
    seat: int
    taker: int
    type_: Literal["cheat_called"] = "cheat_called"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        caller = self.caller

        cards = self.cards

        honest = self.honest

        rank = self.rank

        seat = self.seat

        taker = self.taker

        type_ = self.type_

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
                "type": type_,
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

        type_ = cast(Literal["cheat_called"], d.pop("type"))
        if type_ != "cheat_called":
            raise ValueError(f"type must match const 'cheat_called', got '{type_}'")

        cheat_called = cls(
            caller=caller,
            cards=cards,
            honest=honest,
            rank=rank,
            seat=seat,
            taker=taker,
            type_=type_,
        )

        cheat_called.additional_properties = d
        return cheat_called

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
