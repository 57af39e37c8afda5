from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_call_result import CheatCallResult
    from ..models.cheat_last_play import CheatLastPlay
    from ..models.cheat_penalty import CheatPenalty


T = TypeVar("T", bound="CheatTableView")


@_attrs_define
class CheatTableView:
    """
    Attributes:
        commitment (None | str):
        deck_size (int | None):
        last_call (CheatCallResult | None):
        last_penalty (CheatPenalty | None):
        last_play (CheatLastPlay | None):
        pile_size (int):
        rank (str):
        scheme (None | str):
        set_aside (int):
        window_open (bool):
    """

    commitment: None | str
    deck_size: int | None
    last_call: CheatCallResult | None
    last_penalty: CheatPenalty | None
    last_play: CheatLastPlay | None
    pile_size: int
    rank: str
    scheme: None | str
    set_aside: int
    window_open: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_call_result import CheatCallResult  # noqa: PLC0415
        from ..models.cheat_last_play import CheatLastPlay  # noqa: PLC0415
        from ..models.cheat_penalty import CheatPenalty  # noqa: PLC0415

        commitment: None | str
        commitment = self.commitment

        deck_size: int | None
        deck_size = self.deck_size

        last_call: dict[str, Any] | None
        if isinstance(self.last_call, CheatCallResult):
            last_call = self.last_call.to_dict()
        else:
            last_call = self.last_call

        last_penalty: dict[str, Any] | None
        if isinstance(self.last_penalty, CheatPenalty):
            last_penalty = self.last_penalty.to_dict()
        else:
            last_penalty = self.last_penalty

        last_play: dict[str, Any] | None
        if isinstance(self.last_play, CheatLastPlay):
            last_play = self.last_play.to_dict()
        else:
            last_play = self.last_play

        pile_size = self.pile_size

        rank = self.rank

        scheme: None | str
        scheme = self.scheme

        set_aside = self.set_aside

        window_open = self.window_open

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "commitment": commitment,
                "deck_size": deck_size,
                "last_call": last_call,
                "last_penalty": last_penalty,
                "last_play": last_play,
                "pile_size": pile_size,
                "rank": rank,
                "scheme": scheme,
                "set_aside": set_aside,
                "window_open": window_open,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_call_result import CheatCallResult  # noqa: PLC0415
        from ..models.cheat_last_play import CheatLastPlay  # noqa: PLC0415
        from ..models.cheat_penalty import CheatPenalty  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_commitment(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        commitment = _parse_commitment(d.pop("commitment"))

        def _parse_deck_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        deck_size = _parse_deck_size(d.pop("deck_size"))

        def _parse_last_call(data: object) -> CheatCallResult | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_call_type_0 = CheatCallResult.from_dict(data)

                return last_call_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatCallResult | None, data)

        last_call = _parse_last_call(d.pop("last_call"))

        def _parse_last_penalty(data: object) -> CheatPenalty | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_penalty_type_0 = CheatPenalty.from_dict(data)

                return last_penalty_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatPenalty | None, data)

        last_penalty = _parse_last_penalty(d.pop("last_penalty"))

        def _parse_last_play(data: object) -> CheatLastPlay | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                last_play_type_0 = CheatLastPlay.from_dict(data)

                return last_play_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CheatLastPlay | None, data)

        last_play = _parse_last_play(d.pop("last_play"))

        pile_size = d.pop("pile_size")

        rank = d.pop("rank")

        def _parse_scheme(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        scheme = _parse_scheme(d.pop("scheme"))

        set_aside = d.pop("set_aside")

        window_open = d.pop("window_open")

        cheat_table_view = cls(
            commitment=commitment,
            deck_size=deck_size,
            last_call=last_call,
            last_penalty=last_penalty,
            last_play=last_play,
            pile_size=pile_size,
            rank=rank,
            scheme=scheme,
            set_aside=set_aside,
            window_open=window_open,
        )

        cheat_table_view.additional_properties = d
        return cheat_table_view

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
