from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.opening import Opening


T = TypeVar("T", bound="CheatCalled")


@_attrs_define
class CheatCalled:
    """
    Attributes:
        caller (int):
        cards (list[str]):
        honest (bool):
        openings (list[Opening] | None):
        rank (str):
        seat (int):
        taker (int):
        type_ (Literal['cheat_called']):  Default: 'cheat_called'.
    """

    caller: int
    cards: list[str]
    honest: bool
    openings: list[Opening] | None
    rank: str
    seat: int
    taker: int
    type_: Literal["cheat_called"] = "cheat_called"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        caller = self.caller

        cards = self.cards

        honest = self.honest

        openings: list[dict[str, Any]] | None
        if isinstance(self.openings, list):
            openings = []
            for openings_type_0_item_data in self.openings:
                openings_type_0_item = openings_type_0_item_data.to_dict()
                openings.append(openings_type_0_item)

        else:
            openings = self.openings

        rank = self.rank

        seat = self.seat

        taker = self.taker

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "caller": caller,
                "cards": cards,
                "honest": honest,
                "openings": openings,
                "rank": rank,
                "seat": seat,
                "taker": taker,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opening import Opening  # noqa: PLC0415

        d = dict(src_dict)
        caller = d.pop("caller")

        cards = cast(list[str], d.pop("cards"))

        honest = d.pop("honest")

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

        rank = d.pop("rank")

        seat = d.pop("seat")

        taker = d.pop("taker")

        type_ = cast(Literal["cheat_called"], d.pop("type"))
        if type_ != "cheat_called":
            raise ValueError(f"type must match const 'cheat_called', got '{type_}'")

        cheat_called = cls(
            caller=caller,
            cards=cards,
            honest=honest,
            openings=openings,
            rank=rank,
            seat=seat,
            taker=taker,
            type_=type_,
        )

        cheat_called.additional_properties = d
        return cheat_called

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
