from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.thirty_one_options_reveal import ThirtyOneOptionsReveal
from ..types import UNSET, Unset

T = TypeVar("T", bound="ThirtyOneOptions")


@_attrs_define
class ThirtyOneOptions:
    """
    Attributes:
        chronicler (bool | Unset): Whether the Coloured Chronicler XC joins the deck (33 cards). Default: False.
        lives (int | Unset): Lives each player starts with; 0: out at the first loss. Default: 3.
        max_circuits (int | None | Unset): After this many full circuits without a show, the player on turn may only
            show (1–100); null: no limit, and players who never show never end the round. Default: 20.
        reveal (ThirtyOneOptionsReveal | Unset): `never`: a card is opened only to those who may know it; `match_end`:
            when the match ends, every card of every deal is opened to everyone (`deals_opened`). Default:
            ThirtyOneOptionsReveal.NEVER.
        turn_seconds (int | None | Unset): Seconds a player has for each move (5–86,400): when they run out the house
            plays the seat until its player comes back; null: no clock.
    """

    chronicler: bool | Unset = False
    lives: int | Unset = 3
    max_circuits: int | None | Unset = 20
    reveal: ThirtyOneOptionsReveal | Unset = ThirtyOneOptionsReveal.NEVER
    turn_seconds: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        chronicler = self.chronicler

        lives = self.lives

        max_circuits: int | None | Unset
        if isinstance(self.max_circuits, Unset):
            max_circuits = UNSET
        else:
            max_circuits = self.max_circuits

        reveal: str | Unset = UNSET
        if not isinstance(self.reveal, Unset):
            reveal = self.reveal.value

        turn_seconds: int | None | Unset
        if isinstance(self.turn_seconds, Unset):
            turn_seconds = UNSET
        else:
            turn_seconds = self.turn_seconds

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if chronicler is not UNSET:
            field_dict["chronicler"] = chronicler
        if lives is not UNSET:
            field_dict["lives"] = lives
        if max_circuits is not UNSET:
            field_dict["max_circuits"] = max_circuits
        if reveal is not UNSET:
            field_dict["reveal"] = reveal
        if turn_seconds is not UNSET:
            field_dict["turn_seconds"] = turn_seconds

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chronicler = d.pop("chronicler", UNSET)

        lives = d.pop("lives", UNSET)

        def _parse_max_circuits(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        max_circuits = _parse_max_circuits(d.pop("max_circuits", UNSET))

        _reveal = d.pop("reveal", UNSET)
        reveal: ThirtyOneOptionsReveal | Unset
        if isinstance(_reveal, Unset):
            reveal = UNSET
        else:
            reveal = ThirtyOneOptionsReveal(_reveal)

        def _parse_turn_seconds(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds", UNSET))

        thirty_one_options = cls(
            chronicler=chronicler,
            lives=lives,
            max_circuits=max_circuits,
            reveal=reveal,
            turn_seconds=turn_seconds,
        )

        return thirty_one_options
