from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatCardsPlayed")


@_attrs_define
class CheatCardsPlayed:
    """
    Attributes:
        cards (list[str] | None):
        count (int):
        next_rank (str):
        rank (str):
        seat (int):
        turn (int):
        type_ (Literal['cards_played']):  Default: 'cards_played'.
    """

    cards: list[str] | None
    count: int
    next_rank: str
    rank: str
    seat: int
    turn: int
    type_: Literal["cards_played"] = "cards_played"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards: list[str] | None
        if isinstance(self.cards, list):
            cards = self.cards

        else:
            cards = self.cards

        count = self.count

        next_rank = self.next_rank

        rank = self.rank

        seat = self.seat

        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "count": count,
                "next_rank": next_rank,
                "rank": rank,
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

        next_rank = d.pop("next_rank")

        rank = d.pop("rank")

        seat = d.pop("seat")

        turn = d.pop("turn")

        type_ = cast(Literal["cards_played"], d.pop("type"))
        if type_ != "cards_played":
            raise ValueError(f"type must match const 'cards_played', got '{type_}'")

        cheat_cards_played = cls(
            cards=cards,
            count=count,
            next_rank=next_rank,
            rank=rank,
            seat=seat,
            turn=turn,
            type_=type_,
        )

        cheat_cards_played.additional_properties = d
        return cheat_cards_played

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
