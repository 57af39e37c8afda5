from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.thirty_one_swap_choice import ThirtyOneSwapChoice


T = TypeVar("T", bound="ThirtyOneMyHand")


@_attrs_define
class ThirtyOneMyHand:
    """
    Attributes:
        hand (list[str]):
        id (str):
        score (float | None): The hand's score by the rules: 0 below 21, else the best suit's sum (21 to 32); 30.5 for
            three of a rank, 33 for three Aces; `XC` counts as the card that scores best; null while the seat holds no
            cards.
        seat (int):
        swap_all (float | None): The hand's score after `swap_all` (the table's three cards), when the seat may send it
            now; else null.
        swaps (list[ThirtyOneSwapChoice]): Every swap the seat may send now, by the hand's cards then the table's, with
            the hand's score after each; empty when the seat may not swap.
    """

    hand: list[str]
    id: str
    score: float | None
    seat: int
    swap_all: float | None
    swaps: list[ThirtyOneSwapChoice]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand = self.hand

        id = self.id

        score: float | None
        score = self.score

        seat = self.seat

        swap_all: float | None
        swap_all = self.swap_all

        swaps = []
        for swaps_item_data in self.swaps:
            swaps_item = swaps_item_data.to_dict()
            swaps.append(swaps_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hand": hand,
                "id": id,
                "score": score,
                "seat": seat,
                "swap_all": swap_all,
                "swaps": swaps,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.thirty_one_swap_choice import ThirtyOneSwapChoice  # noqa: PLC0415

        d = dict(src_dict)
        hand = cast(list[str], d.pop("hand"))

        id = d.pop("id")

        def _parse_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        score = _parse_score(d.pop("score"))

        seat = d.pop("seat")

        def _parse_swap_all(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        swap_all = _parse_swap_all(d.pop("swap_all"))

        swaps = []
        _swaps = d.pop("swaps")
        for swaps_item_data in _swaps:
            swaps_item = ThirtyOneSwapChoice.from_dict(swaps_item_data)

            swaps.append(swaps_item)

        thirty_one_my_hand = cls(
            hand=hand,
            id=id,
            score=score,
            seat=seat,
            swap_all=swap_all,
            swaps=swaps,
        )

        thirty_one_my_hand.additional_properties = d
        return thirty_one_my_hand

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
