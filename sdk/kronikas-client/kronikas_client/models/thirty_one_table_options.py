from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.thirty_one_table_options_reveal import ThirtyOneTableOptionsReveal

T = TypeVar("T", bound="ThirtyOneTableOptions")


@_attrs_define
class ThirtyOneTableOptions:
    """
    Attributes:
        chronicler (bool): Whether the Coloured Chronicler XC joins the deck (33 cards).
        lives (int): Lives each player starts with; 0: out at the first loss.
        max_circuits (int | None): After this many full circuits without a show, the player on turn may only show
            (1–100); null: no limit, and players who never show never end the round.
        reveal (ThirtyOneTableOptionsReveal): `never`: a card is opened only to those who may know it; `match_end`: when
            the match ends, every card of every deal is opened to everyone (`deals_opened`).
        turn_seconds (int | None): Seconds a player has for each move (5–86,400): when they run out the house plays the
            seat until its player comes back; null: no clock.
    """

    chronicler: bool
    lives: int
    max_circuits: int | None
    reveal: ThirtyOneTableOptionsReveal
    turn_seconds: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        chronicler = self.chronicler

        lives = self.lives

        max_circuits: int | None
        max_circuits = self.max_circuits

        reveal = self.reveal.value

        turn_seconds: int | None
        turn_seconds = self.turn_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "chronicler": chronicler,
                "lives": lives,
                "max_circuits": max_circuits,
                "reveal": reveal,
                "turn_seconds": turn_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        chronicler = d.pop("chronicler")

        lives = d.pop("lives")

        def _parse_max_circuits(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_circuits = _parse_max_circuits(d.pop("max_circuits"))

        reveal = ThirtyOneTableOptionsReveal(d.pop("reveal"))

        def _parse_turn_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        turn_seconds = _parse_turn_seconds(d.pop("turn_seconds"))

        thirty_one_table_options = cls(
            chronicler=chronicler,
            lives=lives,
            max_circuits=max_circuits,
            reveal=reveal,
            turn_seconds=turn_seconds,
        )

        thirty_one_table_options.additional_properties = d
        return thirty_one_table_options

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
