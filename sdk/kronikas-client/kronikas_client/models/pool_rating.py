from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PoolRating")


@_attrs_define
class PoolRating:
    """
    Attributes:
        kind (str):
        last_played (None | str):
        matches (int): Sets it played in the pool.
        mu (float):
        ordinal (float): `mu - 3*sigma`: what ranks it.
        players (int):
        sigma (float):
    """

    kind: str
    last_played: None | str
    matches: int
    mu: float
    ordinal: float
    players: int
    sigma: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        kind = self.kind

        last_played: None | str
        last_played = self.last_played

        matches = self.matches

        mu = self.mu

        ordinal = self.ordinal

        players = self.players

        sigma = self.sigma

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "kind": kind,
                "last_played": last_played,
                "matches": matches,
                "mu": mu,
                "ordinal": ordinal,
                "players": players,
                "sigma": sigma,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        kind = d.pop("kind")

        def _parse_last_played(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        last_played = _parse_last_played(d.pop("last_played"))

        matches = d.pop("matches")

        mu = d.pop("mu")

        ordinal = d.pop("ordinal")

        players = d.pop("players")

        sigma = d.pop("sigma")

        pool_rating = cls(
            kind=kind,
            last_played=last_played,
            matches=matches,
            mu=mu,
            ordinal=ordinal,
            players=players,
            sigma=sigma,
        )

        pool_rating.additional_properties = d
        return pool_rating

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
