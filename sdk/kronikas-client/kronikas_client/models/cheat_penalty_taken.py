from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.opening import Opening


T = TypeVar("T", bound="CheatPenaltyTaken")


@_attrs_define
class CheatPenaltyTaken:
    """
    Attributes:
        cards (list[str] | None):
        count (int):
        openings (list[Opening] | None):
        seat (int):
        turn (int):
        type_ (Literal['penalty_taken']):  Default: 'penalty_taken'.
    """

    cards: list[str] | None
    count: int
    openings: list[Opening] | None
    seat: int
    turn: int
    type_: Literal["penalty_taken"] = "penalty_taken"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cards: list[str] | None
        if isinstance(self.cards, list):
            cards = self.cards

        else:
            cards = self.cards

        count = self.count

        openings: list[dict[str, Any]] | None
        if isinstance(self.openings, list):
            openings = []
            for openings_type_0_item_data in self.openings:
                openings_type_0_item = openings_type_0_item_data.to_dict()
                openings.append(openings_type_0_item)

        else:
            openings = self.openings

        seat = self.seat

        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cards": cards,
                "count": count,
                "openings": openings,
                "seat": seat,
                "turn": turn,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opening import Opening  # noqa: PLC0415

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

        def _parse_openings(data: object) -> list[Opening] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                openings_type_0 = []
                _openings_type_0 = data
                for openings_type_0_item_data in _openings_type_0:
                    openings_type_0_item = Opening.from_dict(openings_type_0_item_data)

                    openings_type_0.append(openings_type_0_item)

                return openings_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Opening] | None, data)

        openings = _parse_openings(d.pop("openings"))

        seat = d.pop("seat")

        turn = d.pop("turn")

        type_ = cast(Literal["penalty_taken"], d.pop("type"))
        if type_ != "penalty_taken":
            raise ValueError(f"type must match const 'penalty_taken', got '{type_}'")

        cheat_penalty_taken = cls(
            cards=cards,
            count=count,
            openings=openings,
            seat=seat,
            turn=turn,
            type_=type_,
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
