from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.cheat_table_options_reveal_type_0 import CheatTableOptionsRevealType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatTableOptions")


@_attrs_define
class CheatTableOptions:
    """
    Attributes:
        chroniclers (bool): Add the Coloured (XC) and Pale (XP) Chroniclers.
        decks (int): Decks of 32 cards: 1 or 2; 2 seat 5–8 players.
        house_pause_seconds (int): Seconds the house waits before it plays a seat while a player could still call the
            last play (0–30).
        max_play (int): The most cards one play may put down (1–4).
        place_points (list[int]): Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); a place beyond the list
            scores 0.
        rounds (int): Rounds in the match (1–100).
        turn_seconds (int | None): Seconds a player has for each move (5–86,400): when they run out the house plays the
            seat until its player comes back; null: no clock.
        max_plays (int | Unset): The most plays a round allows (20–10,000): the last one's window is settled as a going-
            out play's, then the round ends and places go by cards in hand.
        reveal (CheatTableOptionsRevealType0 | Unset): `never`: a card is opened only to those who may know it;
            `match_end`: when the match ends, every card of every deal is opened to everyone (`deals_opened`).
    """

    chroniclers: bool
    decks: int
    house_pause_seconds: int
    max_play: int
    place_points: list[int]
    rounds: int
    turn_seconds: int | None
    max_plays: int | Unset = UNSET
    reveal: CheatTableOptionsRevealType0 | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chroniclers = self.chroniclers

        decks = self.decks

        house_pause_seconds = self.house_pause_seconds

        max_play = self.max_play

        place_points = self.place_points

        rounds = self.rounds

        turn_seconds: int | None
        turn_seconds = self.turn_seconds

        max_plays: int | Unset
        if isinstance(self.max_plays, Unset):
            max_plays = UNSET
        else:
            max_plays = self.max_plays

        reveal: str | Unset
        if isinstance(self.reveal, Unset):
            reveal = UNSET
        else:
            reveal = self.reveal.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chroniclers": chroniclers,
                "decks": decks,
                "house_pause_seconds": house_pause_seconds,
                "max_play": max_play,
                "place_points": place_points,
                "rounds": rounds,
                "turn_seconds": turn_seconds,
            }
        )
        if max_plays is not UNSET:
            field_dict["max_plays"] = max_plays
        if reveal is not UNSET:
            field_dict["reveal"] = reveal

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chroniclers = d.pop("chroniclers")

        decks = d.pop("decks")

        house_pause_seconds = d.pop("house_pause_seconds")

        max_play = d.pop("max_play")

        place_points = cast(list[int], d.pop("place_points"))

        rounds = d.pop("rounds")

        def _parse_turn_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds"))

        def _parse_max_plays(data: object) -> int | Unset:
            if isinstance(data, Unset):
                return data
            return cast(int | Unset, data)

        max_plays = _parse_max_plays(d.pop("max_plays", UNSET))

        def _parse_reveal(data: object) -> CheatTableOptionsRevealType0 | Unset:
            if isinstance(data, Unset):
                return data
            if not isinstance(data, str):
                raise TypeError()
            reveal_type_0 = CheatTableOptionsRevealType0(data)

            return reveal_type_0

        reveal = _parse_reveal(d.pop("reveal", UNSET))

        cheat_table_options = cls(
            chroniclers=chroniclers,
            decks=decks,
            house_pause_seconds=house_pause_seconds,
            max_play=max_play,
            place_points=place_points,
            rounds=rounds,
            turn_seconds=turn_seconds,
            max_plays=max_plays,
            reveal=reveal,
        )

        cheat_table_options.additional_properties = d
        return cheat_table_options

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
