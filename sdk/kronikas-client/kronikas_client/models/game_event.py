from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.game_event_data import GameEventData


T = TypeVar("T", bound="GameEvent")


@_attrs_define
class GameEvent:
    """
    Attributes:
        at (str): When, as RFC 3339 UTC.
        data (GameEventData): The event's fields, as the asker may see them (hidden ones are null). By `type`:

            cheat:
            - `game_created`: A Cheat table was created with these options.
            - `player_joined`: A player took a seat.
            - `round_dealt`: A round was dealt: `hands` by seat (each viewer sees only their own), `set_aside` cards out of
            play; `commitment` is the hash of the shuffled deck (docs/api.md, "Fair deals").
            - `cards_played`: `seat` put `count` cards down announced as `rank`; `turn` is next, to announce `next_rank`.
            - `cheat_called`: `caller` called "Cheat!" on the play of `seat`; its `cards` are turned up for all.
            - `pile_taken`: After a call `seat` took the whole pile (`count` cards; the cards are shown only to them);
            `turn` plays next, or null when the round ends with this call.
            - `penalty_taken`: The last play held the Pale Chronicler and was not called: its player `seat` took the pile
            (`count` cards, shown only to them); `turn` plays next.
            - `play_accepted`: `seat` let the window close on the play of `player`, who had no cards left.
            - `round_ended`: `winner` finished the round; places by cards in hand, points scored and running totals (lists
            indexed by seat).
            - `deck_revealed`: A round ended: the salt and the whole shuffled deck behind its deal's `commitment`.
            - `match_ended`: The last round ended: `winners` have the most `points` (totals by seat).

            thirty_one:
            - `game_created`: A Thirty-One table was created.
            - `player_joined`: A player took a seat.
            - `round_dealt`: A round was dealt.
            - `hand_kept`: The dealer kept their hand; `turn` starts the turns.
            - `hand_exchanged`: The dealer took the table into their hand and laid their old hand, now `table`, face up.
            - `card_swapped`: `seat` gave `give` to the table and took `take` from it.
            - `hands_swapped`: `seat` exchanged their whole hand with the table; their old hand is now `table`.
            - `passed`: `seat` passed; `turn` is null when this was the last turn of the last circuit.
            - `hand_shown`: `seat` laid their hand open: by `show` (which starts the last circuit) or after a swap in the
            last circuit.
            - `round_ended`: A round was scored.
            - `deck_revealed`: A round ended: the salt and the whole shuffled deck behind its deal's `commitment`.
            - `match_ended`: The match is over: one player is left, and wins.
        type_ (str): What happened; the list is under `data`.
        version (int): 1, 2, 3… without gaps.
    """

    at: str
    data: GameEventData
    type_: str
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at

        data = self.data.to_dict()

        type_ = self.type_

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "data": data,
                "type": type_,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.game_event_data import GameEventData  # noqa: PLC0415

        d = dict(src_dict)
        at = d.pop("at")

        data = GameEventData.from_dict(d.pop("data"))

        type_ = d.pop("type")

        version = d.pop("version")

        game_event = cls(
            at=at,
            data=data,
            type_=type_,
            version=version,
        )

        game_event.additional_properties = d
        return game_event

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
