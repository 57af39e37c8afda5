from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.cheat_options_reveal import CheatOptionsReveal
from ..types import UNSET, Unset

T = TypeVar("T", bound="CheatOptions")


@_attrs_define
class CheatOptions:
    """
    Attributes:
        chroniclers (bool | Unset): Add the Coloured (XC) and Pale (XP) Chroniclers. Default: False.
        decks (int | Unset): Decks of 32 cards: 1 or 2; 2 seat 5–8 players. Default: 1.
        house_pause_seconds (int | Unset): Seconds the house waits before it plays a seat while a player could still
            call the last play (0–30). Default: 3.
        max_play (int | Unset): The most cards one play may put down (1–4). Default: 4.
        max_plays (int | Unset): The most plays a round allows (20–10,000): the last one's window is settled as a going-
            out play's, then the round ends and places go by cards in hand. Default: 300.
        place_points (list[int] | Unset): Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); a place beyond the
            list scores 0.
        reveal (CheatOptionsReveal | Unset): `never`: a card is opened only to those who may know it; `match_end`: when
            the match ends, every card of every deal is opened to everyone (`deals_opened`). Default:
            CheatOptionsReveal.NEVER.
        rounds (int | Unset): Rounds in the match (1–100). Default: 1.
        turn_seconds (int | None | Unset): Seconds a player has for each move (5–86,400): when they run out the house
            plays the seat until its player comes back; null: no clock.
    """

    chroniclers: bool | Unset = False
    decks: int | Unset = 1
    house_pause_seconds: int | Unset = 3
    max_play: int | Unset = 4
    max_plays: int | Unset = 300
    place_points: list[int] | Unset = UNSET
    reveal: CheatOptionsReveal | Unset = CheatOptionsReveal.NEVER
    rounds: int | Unset = 1
    turn_seconds: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chroniclers = self.chroniclers

        decks = self.decks

        house_pause_seconds = self.house_pause_seconds

        max_play = self.max_play

        max_plays = self.max_plays

        place_points: list[int] | Unset = UNSET
        if not isinstance(self.place_points, Unset):
            place_points = self.place_points

        reveal: str | Unset = UNSET
        if not isinstance(self.reveal, Unset):
            reveal = self.reveal.value

        rounds = self.rounds

        turn_seconds: int | None | Unset
        if isinstance(self.turn_seconds, Unset):
            turn_seconds = UNSET
        else:
            turn_seconds = self.turn_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chroniclers is not UNSET:
            field_dict["chroniclers"] = chroniclers
        if decks is not UNSET:
            field_dict["decks"] = decks
        if house_pause_seconds is not UNSET:
            field_dict["house_pause_seconds"] = house_pause_seconds
        if max_play is not UNSET:
            field_dict["max_play"] = max_play
        if max_plays is not UNSET:
            field_dict["max_plays"] = max_plays
        if place_points is not UNSET:
            field_dict["place_points"] = place_points
        if reveal is not UNSET:
            field_dict["reveal"] = reveal
        if rounds is not UNSET:
            field_dict["rounds"] = rounds
        if turn_seconds is not UNSET:
            field_dict["turn_seconds"] = turn_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chroniclers = d.pop("chroniclers", UNSET)

        decks = d.pop("decks", UNSET)

        house_pause_seconds = d.pop("house_pause_seconds", UNSET)

        max_play = d.pop("max_play", UNSET)

        max_plays = d.pop("max_plays", UNSET)

        place_points = cast(list[int], d.pop("place_points", UNSET))

        _reveal = d.pop("reveal", UNSET)
        reveal: CheatOptionsReveal | Unset
        if isinstance(_reveal, Unset):
            reveal = UNSET
        else:
            reveal = CheatOptionsReveal(_reveal)

        rounds = d.pop("rounds", UNSET)

        def _parse_turn_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds", UNSET))

        cheat_options = cls(
            chroniclers=chroniclers,
            decks=decks,
            house_pause_seconds=house_pause_seconds,
            max_play=max_play,
            max_plays=max_plays,
            place_points=place_points,
            reveal=reveal,
            rounds=rounds,
            turn_seconds=turn_seconds,
        )

        return cheat_options
