from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DeckRevealed")


@_attrs_define
class DeckRevealed:
    """
    Attributes:
        deck (list[str] | None):
        round_ (int):
        salt (None | str):
        type_ (Literal['deck_revealed']):  Default: 'deck_revealed'.
    """

    deck: list[str] | None
    round_: int
    salt: None | str
    type_: Literal["deck_revealed"] = "deck_revealed"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        deck: list[str] | None
        if isinstance(self.deck, list):
            deck = self.deck

        else:
            deck = self.deck

        round_ = self.round_

        salt: None | str
        salt = self.salt

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "deck": deck,
                "round": round_,
                "salt": salt,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_deck(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                deck_type_0 = cast(list[str], data)

                return deck_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        deck = _parse_deck(d.pop("deck"))

        round_ = d.pop("round")

        def _parse_salt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        salt = _parse_salt(d.pop("salt"))

        type_ = cast(Literal["deck_revealed"], d.pop("type"))
        if type_ != "deck_revealed":
            raise ValueError(f"type must match const 'deck_revealed', got '{type_}'")

        deck_revealed = cls(
            deck=deck,
            round_=round_,
            salt=salt,
            type_=type_,
        )

        deck_revealed.additional_properties = d
        return deck_revealed

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
