from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

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
        reason (Literal['max_plays'] | Unset): Why the round ended with no one finished: `max_plays`, it reached the
            most plays a round allows (docs/rules.md). Absent when a player finished.
    """

    hand_sizes: list[int]
    places: list[int]
    points: list[int]
    round_: int
    totals: list[int]
    winner: int
    type_: Literal["round_ended"] = "round_ended"
    reason: Literal["max_plays"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hand_sizes = self.hand_sizes

        places = self.places

        points = self.points

        round_ = self.round_

        totals = self.totals

        type_ = self.type_

        winner = self.winner

        reason: Literal["max_plays"] | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

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
        if reason is not UNSET:
            field_dict["reason"] = reason

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

        def _parse_reason(data: object) -> Literal["max_plays"] | Unset:
            if isinstance(data, Unset):
                return data
            reason_type_0 = cast(Literal["max_plays"], data)
            if reason_type_0 != "max_plays":
                raise ValueError(f"reason_type_0 must match const 'max_plays', got '{reason_type_0}'")
            return reason_type_0

        reason = _parse_reason(d.pop("reason", UNSET))

        cheat_round_ended = cls(
            hand_sizes=hand_sizes,
            places=places,
            points=points,
            round_=round_,
            totals=totals,
            type_=type_,
            winner=winner,
            reason=reason,
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
