from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatPenaltyTaken")


@_attrs_define
class CheatPenaltyTaken:
    """
    Attributes:
        count (int):
        seat (int):
        turn (int):
        type_ (Literal['penalty_taken']):  Default: 'penalty_taken'.
        cards (list[str] | None | Unset):
    """

    count: int
    seat: int
    turn: int
    type_: Literal["penalty_taken"] = "penalty_taken"
    cards: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        seat = self.seat

        turn = self.turn

        type_ = self.type_

        cards: list[str] | None | Unset
        if isinstance(self.cards, Unset):
            cards = UNSET
        elif isinstance(self.cards, list):
            cards = self.cards

        else:
            cards = self.cards

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "count": count,
                "seat": seat,
                "turn": turn,
                "type": type_,
            }
        )
        if cards is not UNSET:
            field_dict["cards"] = cards

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        count = d.pop("count")

        seat = d.pop("seat")

        turn = d.pop("turn")

        type_ = cast(Literal["penalty_taken"], d.pop("type"))
        if type_ != "penalty_taken":
            raise ValueError(f"type must match const 'penalty_taken', got '{type_}'")

        def _parse_cards(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                cards_type_0 = cast(list[str], data)

                return cards_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        cards = _parse_cards(d.pop("cards", UNSET))

        cheat_penalty_taken = cls(
            count=count,
            seat=seat,
            turn=turn,
            type_=type_,
            cards=cards,
        )

        cheat_penalty_taken.additional_properties = d
        return cheat_penalty_taken

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
