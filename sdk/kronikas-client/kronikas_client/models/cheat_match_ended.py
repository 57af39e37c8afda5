from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatMatchEnded")


@_attrs_define
class CheatMatchEnded:
    """
    Attributes:
        points (list[int]):
        type_ (Literal['match_ended']):  Default: 'match_ended'.
        winners (list[int]):
        reason (Literal['event_cap'] | Unset): Why the match ended before its rules ended it: `event_cap`, its table's
            log reached the most events a table keeps (docs/rules.md).
    """

    points: list[int]
    winners: list[int]
    type_: Literal["match_ended"] = "match_ended"
    reason: Literal["event_cap"] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        points = self.points

        type_ = self.type_

        winners = self.winners

        reason: Literal["event_cap"] | Unset
        if isinstance(self.reason, Unset):
            reason = UNSET
        else:
            reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "points": points,
                "type": type_,
                "winners": winners,
            }
        )
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        points = cast(list[int], d.pop("points"))

        type_ = cast(Literal["match_ended"], d.pop("type"))
        if type_ != "match_ended":
            raise ValueError(f"type must match const 'match_ended', got '{type_}'")

        winners = cast(list[int], d.pop("winners"))

        def _parse_reason(data: object) -> Literal["event_cap"] | Unset:
            if isinstance(data, Unset):
                return data
            reason_type_0 = cast(Literal["event_cap"], data)
            if reason_type_0 != "event_cap":
                raise ValueError(f"reason_type_0 must match const 'event_cap', got '{reason_type_0}'")
            return reason_type_0

        reason = _parse_reason(d.pop("reason", UNSET))

        cheat_match_ended = cls(
            points=points,
            type_=type_,
            winners=winners,
            reason=reason,
        )

        cheat_match_ended.additional_properties = d
        return cheat_match_ended

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
