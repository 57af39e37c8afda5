from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LeaderboardEntry")


@_attrs_define
class LeaderboardEntry:
    """
    Attributes:
        entrant_id (str):
        last_played (None | str):
        matches (int):
        mu (float):
        name (str):
        ordinal (float):
        rank (int):
        sigma (float):
        standing (bool):
    """

    entrant_id: str
    last_played: None | str
    matches: int
    mu: float
    name: str
    ordinal: float
    rank: int
    sigma: float
    standing: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entrant_id = self.entrant_id

        last_played: None | str
        last_played = self.last_played

        matches = self.matches

        mu = self.mu

        name = self.name

        ordinal = self.ordinal

        rank = self.rank

        sigma = self.sigma

        standing = self.standing

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entrant_id": entrant_id,
                "last_played": last_played,
                "matches": matches,
                "mu": mu,
                "name": name,
                "ordinal": ordinal,
                "rank": rank,
                "sigma": sigma,
                "standing": standing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        entrant_id = d.pop("entrant_id")

        def _parse_last_played(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_played = _parse_last_played(d.pop("last_played"))

        matches = d.pop("matches")

        mu = d.pop("mu")

        name = d.pop("name")

        ordinal = d.pop("ordinal")

        rank = d.pop("rank")

        sigma = d.pop("sigma")

        standing = d.pop("standing")

        leaderboard_entry = cls(
            entrant_id=entrant_id,
            last_played=last_played,
            matches=matches,
            mu=mu,
            name=name,
            ordinal=ordinal,
            rank=rank,
            sigma=sigma,
            standing=standing,
        )

        leaderboard_entry.additional_properties = d
        return leaderboard_entry

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
