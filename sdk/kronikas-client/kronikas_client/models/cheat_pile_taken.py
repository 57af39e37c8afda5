from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatPileTaken")


@_attrs_define
class CheatPileTaken:
    """
    Attributes:
        cards (list[str] | None):
        count (int):
        seat (int):
        turn (int | None):
        type_ (Literal['pile_taken']):  Default: 'pile_taken'.
    """

    cards: list[str] | None
    count: int
    seat: int
    turn: int | None
    type_: Literal["pile_taken"] = "pile_taken"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards: list[str] | None
        if isinstance(self.cards, list):
            cards = self.cards

        else:
            cards = self.cards

        count = self.count

        seat = self.seat

        turn: int | None
        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "count": count,
                "seat": seat,
                "turn": turn,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_cards(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                cards_type_0 = cast(list[str], data)

                return cards_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        cards = _parse_cards(d.pop("cards"))

        count = d.pop("count")

        seat = d.pop("seat")

        def _parse_turn(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn = _parse_turn(d.pop("turn"))

        type_ = cast(Literal["pile_taken"], d.pop("type"))
        if type_ != "pile_taken":
            raise ValueError(f"type must match const 'pile_taken', got '{type_}'")

        cheat_pile_taken = cls(
            cards=cards,
            count=count,
            seat=seat,
            turn=turn,
            type_=type_,
        )

        cheat_pile_taken.additional_properties = d
        return cheat_pile_taken

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
