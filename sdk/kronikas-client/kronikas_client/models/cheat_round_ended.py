from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CheatRoundEnded")


@_attrs_define
class CheatRoundEnded:
    """
    Attributes:
        hand_sizes (list[int]):
        places (list[int]):
        points (list[int]):
        round_ (int):
        totals (list[int]):
        type_ (Literal['round_ended']):  Default: 'round_ended'.
        winner (int):
    """

    hand_sizes: list[int]
    places: list[int]
    points: list[int]
    round_: int
    totals: list[int]
    winner: int
    type_: Literal["round_ended"] = "round_ended"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand_sizes = self.hand_sizes

        places = self.places

        points = self.points

        round_ = self.round_

        totals = self.totals

        type_ = self.type_

        winner = self.winner

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hand_sizes": hand_sizes,
                "places": places,
                "points": points,
                "round": round_,
                "totals": totals,
                "type": type_,
                "winner": winner,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        hand_sizes = cast(list[int], d.pop("hand_sizes"))

        places = cast(list[int], d.pop("places"))

        points = cast(list[int], d.pop("points"))

        round_ = d.pop("round")

        totals = cast(list[int], d.pop("totals"))

        type_ = cast(Literal["round_ended"], d.pop("type"))
        if type_ != "round_ended":
            raise ValueError(f"type must match const 'round_ended', got '{type_}'")

        winner = d.pop("winner")

        cheat_round_ended = cls(
            hand_sizes=hand_sizes,
            places=places,
            points=points,
            round_=round_,
            totals=totals,
            type_=type_,
            winner=winner,
        )

        cheat_round_ended.additional_properties = d
        return cheat_round_ended

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
