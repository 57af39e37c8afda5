from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="RegisterEntrant")


@_attrs_define
class RegisterEntrant:
    """Its name and the games it plays.

    Attributes:
        games (list[str]): The kinds it plays.
        name (str): 1 to 40 printable characters, shown on the leaderboard.
    """

    games: list[str]
    name: str

    def to_dict(self) -> dict[str, Any]:
        games = self.games

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "games": games,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        games = cast(list[str], d.pop("games"))

        name = d.pop("name")

        register_entrant = cls(
            games=games,
            name=name,
        )

        return register_entrant
