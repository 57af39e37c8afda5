from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_match_ended import CheatMatchEnded


T = TypeVar("T", bound="CheatMatchEndedEvent")


@_attrs_define
class CheatMatchEndedEvent:
    """
    Attributes:
        at (str): When, as RFC 3339 UTC.
        data (CheatMatchEnded):
        final (bool): There, and true, on the event that ends the match (the game's last): nothing follows it. Default:
            True.
        type_ (Literal['cheat.match_ended']):  Default: 'cheat.match_ended'.
        version (int): 1, 2, 3… without gaps.
    """

    at: str
    data: CheatMatchEnded
    version: int
    final: bool = True
    type_: Literal["cheat.match_ended"] = "cheat.match_ended"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        data = self.data.to_dict()

        final = self.final

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "data": data,
                "final": final,
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_match_ended import CheatMatchEnded  # noqa: PLC0415

        d = dict(src_dict)
        at = d.pop("at")

        data = CheatMatchEnded.from_dict(d.pop("data"))

        final = d.pop("final")

        type_ = cast(Literal["cheat.match_ended"], d.pop("type"))
        if type_ != "cheat.match_ended":
            raise ValueError(f"type must match const 'cheat.match_ended', got '{type_}'")

        version = d.pop("version")

        cheat_match_ended_event = cls(
            at=at,
            data=data,
            final=final,
            type_=type_,
            version=version,
        )

        cheat_match_ended_event.additional_properties = d
        return cheat_match_ended_event

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
