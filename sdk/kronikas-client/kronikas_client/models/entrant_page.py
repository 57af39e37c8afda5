from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.arena_match import ArenaMatch
    from ..models.pool_rating import PoolRating


T = TypeVar("T", bound="EntrantPage")


@_attrs_define
class EntrantPage:
    """
    Attributes:
        created_at (None | str):
        entrant_id (str): The entrant's id.
        games (list[str]):
        matches (list[ArenaMatch]):
        name (str):
        ratings (list[PoolRating]):
        revoked (bool):
        standing (bool): A standing entrant: the house's policy, or random.
    """

    created_at: None | str
    entrant_id: str
    games: list[str]
    matches: list[ArenaMatch]
    name: str
    ratings: list[PoolRating]
    revoked: bool
    standing: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at: None | str
        created_at = self.created_at

        entrant_id = self.entrant_id

        games = self.games

        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        name = self.name

        ratings = []
        for ratings_item_data in self.ratings:
            ratings_item = ratings_item_data.to_dict()
            ratings.append(ratings_item)

        revoked = self.revoked

        standing = self.standing

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "entrant_id": entrant_id,
                "games": games,
                "matches": matches,
                "name": name,
                "ratings": ratings,
                "revoked": revoked,
                "standing": standing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.arena_match import ArenaMatch  # noqa: PLC0415
        from ..models.pool_rating import PoolRating  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_created_at(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        created_at = _parse_created_at(d.pop("created_at"))

        entrant_id = d.pop("entrant_id")

        games = cast(list[str], d.pop("games"))

        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = ArenaMatch.from_dict(matches_item_data)

            matches.append(matches_item)

        name = d.pop("name")

        ratings = []
        _ratings = d.pop("ratings")
        for ratings_item_data in _ratings:
            ratings_item = PoolRating.from_dict(ratings_item_data)

            ratings.append(ratings_item)

        revoked = d.pop("revoked")

        standing = d.pop("standing")

        entrant_page = cls(
            created_at=created_at,
            entrant_id=entrant_id,
            games=games,
            matches=matches,
            name=name,
            ratings=ratings,
            revoked=revoked,
            standing=standing,
        )

        entrant_page.additional_properties = d
        return entrant_page

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
