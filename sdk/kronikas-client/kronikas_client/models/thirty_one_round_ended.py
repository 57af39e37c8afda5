from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.opening import Opening


T = TypeVar("T", bound="ThirtyOneRoundEnded")


@_attrs_define
class ThirtyOneRoundEnded:
    """
    Attributes:
        hands (list[list[str] | None]):
        lives (list[int]):
        lost_life (list[int]):
        openings (list[Opening] | None):
        out (list[int]):
        round_ (int):
        scores (list[float | None]):
        three_aces (int | None):
        type_ (Literal['round_ended']):  Default: 'round_ended'.
    """

    hands: list[list[str] | None]
    lives: list[int]
    lost_life: list[int]
    openings: list[Opening] | None
    out: list[int]
    round_: int
    scores: list[float | None]
    three_aces: int | None
    type_: Literal["round_ended"] = "round_ended"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hands = []
        for hands_item_data in self.hands:
            hands_item: list[str] | None
            if isinstance(hands_item_data, list):
                hands_item = hands_item_data

            else:
                hands_item = hands_item_data
            hands.append(hands_item)

        lives = self.lives

        lost_life = self.lost_life

        openings: list[dict[str, Any]] | None
        if isinstance(self.openings, list):
            openings = []
            for openings_type_0_item_data in self.openings:
                openings_type_0_item = openings_type_0_item_data.to_dict()
                openings.append(openings_type_0_item)

        else:
            openings = self.openings

        out = self.out

        round_ = self.round_

        scores = []
        for scores_item_data in self.scores:
            scores_item: float | None
            scores_item = scores_item_data
            scores.append(scores_item)

        three_aces: int | None
        three_aces = self.three_aces

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hands": hands,
                "lives": lives,
                "lost_life": lost_life,
                "openings": openings,
                "out": out,
                "round": round_,
                "scores": scores,
                "three_aces": three_aces,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opening import Opening  # noqa: PLC0415

        d = dict(src_dict)
        hands = []
        _hands = d.pop("hands")
        for hands_item_data in _hands:

            def _parse_hands_item(data: object) -> list[str] | None:
                if data is None:
                    return data
                try:
                    if not isinstance(data, list):
                        raise TypeError()
                    hands_item_type_0 = cast(list[str], data)

                    return hands_item_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                return cast(list[str] | None, data)

            hands_item = _parse_hands_item(hands_item_data)

            hands.append(hands_item)

        lives = cast(list[int], d.pop("lives"))

        lost_life = cast(list[int], d.pop("lost_life"))

        def _parse_openings(data: object) -> list[Opening] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                openings_type_0 = []
                _openings_type_0 = data
                for openings_type_0_item_data in _openings_type_0:
                    openings_type_0_item = Opening.from_dict(openings_type_0_item_data)

                    openings_type_0.append(openings_type_0_item)

                return openings_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[Opening] | None, data)

        openings = _parse_openings(d.pop("openings"))

        out = cast(list[int], d.pop("out"))

        round_ = d.pop("round")

        scores = []
        _scores = d.pop("scores")
        for scores_item_data in _scores:

            def _parse_scores_item(data: object) -> float | None:
                if data is None:
                    return data
                return cast(float | None, data)

            scores_item = _parse_scores_item(scores_item_data)

            scores.append(scores_item)

        def _parse_three_aces(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        three_aces = _parse_three_aces(d.pop("three_aces"))

        type_ = cast(Literal["round_ended"], d.pop("type"))
        if type_ != "round_ended":
            raise ValueError(f"type must match const 'round_ended', got '{type_}'")

        thirty_one_round_ended = cls(
            hands=hands,
            lives=lives,
            lost_life=lost_life,
            openings=openings,
            out=out,
            round_=round_,
            scores=scores,
            three_aces=three_aces,
            type_=type_,
        )

        thirty_one_round_ended.additional_properties = d
        return thirty_one_round_ended

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
