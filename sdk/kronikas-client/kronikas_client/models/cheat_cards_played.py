from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatCardsPlayed")


@_attrs_define
class CheatCardsPlayed:
    """
    Attributes:
        count (int):
        next_rank (str):
        rank (str):
        seat (int):
        turn (int):
        type_ (Literal['cards_played']):  Default: 'cards_played'.
        cards (list[str] | None | Unset):
    """

    count: int
    next_rank: str
    rank: str
    seat: int
    turn: int
    type_: Literal["cards_played"] = "cards_played"
    cards: list[str] | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        count = self.count

        next_rank = self.next_rank

        rank = self.rank

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
                "next_rank": next_rank,
                "rank": rank,
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

        next_rank = d.pop("next_rank")

        rank = d.pop("rank")

        seat = d.pop("seat")

        turn = d.pop("turn")

        type_ = cast(Literal["cards_played"], d.pop("type"))
        if type_ != "cards_played":
            raise ValueError(f"type must match const 'cards_played', got '{type_}'")

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

        cheat_cards_played = cls(
            count=count,
            next_rank=next_rank,
            rank=rank,
            seat=seat,
            turn=turn,
            type_=type_,
            cards=cards,
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
