from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatOptions")


@_attrs_define
class CheatOptions:
    """
    Attributes:
        chroniclers (bool | Unset): Add the Coloured (XC) and Pale (XP) Chroniclers. Default: False.
        decks (int | Unset): Decks of 32 cards: 1 or 2; 2 seat 5–8 players. Default: 1.
        max_play (int | Unset): The most cards one play may put down (1–4). Default: 4.
        place_points (list[int] | Unset): Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); a place beyond the
            list scores 0.
        rounds (int | Unset): Rounds in the match (1–100). Default: 1.
    """

    chroniclers: bool | Unset = False
    decks: int | Unset = 1
    max_play: int | Unset = 4
    place_points: list[int] | Unset = UNSET
    rounds: int | Unset = 1
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chroniclers = self.chroniclers

        decks = self.decks

        max_play = self.max_play

        place_points: list[int] | Unset = UNSET
        if not isinstance(self.place_points, Unset):
            place_points = self.place_points

        rounds = self.rounds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if chroniclers is not UNSET:
            field_dict["chroniclers"] = chroniclers
        if decks is not UNSET:
            field_dict["decks"] = decks
        if max_play is not UNSET:
            field_dict["max_play"] = max_play
        if place_points is not UNSET:
            field_dict["place_points"] = place_points
        if rounds is not UNSET:
            field_dict["rounds"] = rounds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chroniclers = d.pop("chroniclers", UNSET)

        decks = d.pop("decks", UNSET)

        max_play = d.pop("max_play", UNSET)

        place_points = cast(list[int], d.pop("place_points", UNSET))

        rounds = d.pop("rounds", UNSET)

        cheat_options = cls(
            chroniclers=chroniclers,
            decks=decks,
            max_play=max_play,
            place_points=place_points,
            rounds=rounds,
        )

        cheat_options.additional_properties = d
        return cheat_options

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
