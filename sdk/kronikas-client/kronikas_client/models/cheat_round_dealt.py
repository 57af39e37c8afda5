from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.opening import Opening


T = TypeVar("T", bound="CheatRoundDealt")


@_attrs_define
class CheatRoundDealt:
    """
    Attributes:
        commitment (str):
        dealer (int):
        deck (list[str] | None):
        deck_size (int | None):
        hands (list[list[str] | None]):
        openings (list[Opening] | None):
        rank (str):
        round_ (int):
        salt (None | str):
        salts (list[str] | None):
        scheme (str):  Default: 'deck-sha256'.
        set_aside (int):
        set_aside_cards (list[str] | None):
        turn (int):
        type_ (Literal['round_dealt']):  Default: 'round_dealt'.
    """

    commitment: str
    dealer: int
    deck: list[str] | None
    deck_size: int | None
    hands: list[list[str] | None]
    openings: list[Opening] | None
    rank: str
    round_: int
    salt: None | str
    salts: list[str] | None
    set_aside: int
    set_aside_cards: list[str] | None
    turn: int
    scheme: str = "deck-sha256"
    type_: Literal["round_dealt"] = "round_dealt"
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        commitment = self.commitment

        dealer = self.dealer

        deck: list[str] | None
        if isinstance(self.deck, list):
            deck = self.deck

        else:
            deck = self.deck

        deck_size: int | None
        deck_size = self.deck_size

        hands = []
        for hands_item_data in self.hands:
            hands_item: list[str] | None
            if isinstance(hands_item_data, list):
                hands_item = hands_item_data

            else:
                hands_item = hands_item_data
            hands.append(hands_item)

        openings: list[dict[str, Any]] | None
        if isinstance(self.openings, list):
            openings = []
            for openings_type_0_item_data in self.openings:
                openings_type_0_item = openings_type_0_item_data.to_dict()
                openings.append(openings_type_0_item)

        else:
            openings = self.openings

        rank = self.rank

        round_ = self.round_

        salt: None | str
        salt = self.salt

        salts: list[str] | None
        if isinstance(self.salts, list):
            salts = self.salts

        else:
            salts = self.salts

        scheme = self.scheme

        set_aside = self.set_aside

        set_aside_cards: list[str] | None
        if isinstance(self.set_aside_cards, list):
            set_aside_cards = self.set_aside_cards

        else:
            set_aside_cards = self.set_aside_cards

        turn = self.turn

        type_ = self.type_

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "commitment": commitment,
                "dealer": dealer,
                "deck": deck,
                "deck_size": deck_size,
                "hands": hands,
                "openings": openings,
                "rank": rank,
                "round": round_,
                "salt": salt,
                "salts": salts,
                "scheme": scheme,
                "set_aside": set_aside,
                "set_aside_cards": set_aside_cards,
                "turn": turn,
                "type": type_,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.opening import Opening  # noqa: PLC0415

        d = dict(src_dict)
        commitment = d.pop("commitment")

        dealer = d.pop("dealer")

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

        def _parse_deck_size(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        deck_size = _parse_deck_size(d.pop("deck_size"))

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

        round_ = d.pop("round")

        def _parse_salt(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        salt = _parse_salt(d.pop("salt"))

        def _parse_salts(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                salts_type_0 = cast(list[str], data)

                return salts_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        salts = _parse_salts(d.pop("salts"))

        scheme = d.pop("scheme")

        set_aside = d.pop("set_aside")

        def _parse_set_aside_cards(data: object) -> list[str] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                set_aside_cards_type_0 = cast(list[str], data)

                return set_aside_cards_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None, data)

        set_aside_cards = _parse_set_aside_cards(d.pop("set_aside_cards"))

        turn = d.pop("turn")

        type_ = cast(Literal["round_dealt"], d.pop("type"))
        if type_ != "round_dealt":
            raise ValueError(f"type must match const 'round_dealt', got '{type_}'")

        cheat_round_dealt = cls(
            commitment=commitment,
            dealer=dealer,
            deck=deck,
            deck_size=deck_size,
            hands=hands,
            openings=openings,
            rank=rank,
            round_=round_,
            salt=salt,
            salts=salts,
            scheme=scheme,
            set_aside=set_aside,
            set_aside_cards=set_aside_cards,
            turn=turn,
            type_=type_,
        )

        cheat_round_dealt.additional_properties = d
        return cheat_round_dealt

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
