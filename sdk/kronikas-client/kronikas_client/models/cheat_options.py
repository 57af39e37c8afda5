from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

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

    def to_dict(self) -> dict[str, Any]:
        chroniclers = self.chroniclers

        decks = self.decks

        max_play = self.max_play

        place_points: list[int] | Unset = UNSET
        if not isinstance(self.place_points, Unset):
            place_points = self.place_points

        rounds = self.rounds

        field_dict: dict[str, Any] = {}

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

        return cheat_options
