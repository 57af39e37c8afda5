from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_my_hand_rank_counts import CheatMyHandRankCounts


T = TypeVar("T", bound="CheatMyHand")


@_attrs_define
class CheatMyHand:
    """
    Attributes:
        hand (list[str]):
        id (str):
        rank_counts (CheatMyHandRankCounts): How many cards of each rank the hand holds, by rank code (7 8 9 10 U O K
            A), the Chroniclers under their card codes (XC, XP); only what the hand holds, in hand order.
        seat (int):
    """

    hand: list[str]
    id: str
    rank_counts: CheatMyHandRankCounts
    seat: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand = self.hand

        id = self.id

        rank_counts = self.rank_counts.to_dict()

        seat = self.seat

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hand": hand,
                "id": id,
                "rank_counts": rank_counts,
                "seat": seat,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_my_hand_rank_counts import CheatMyHandRankCounts  # noqa: PLC0415

        d = dict(src_dict)
        hand = cast(list[str], d.pop("hand"))

        id = d.pop("id")

        rank_counts = CheatMyHandRankCounts.from_dict(d.pop("rank_counts"))

        seat = d.pop("seat")

        cheat_my_hand = cls(
            hand=hand,
            id=id,
            rank_counts=rank_counts,
            seat=seat,
        )

        cheat_my_hand.additional_properties = d
        return cheat_my_hand

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
