from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cheat_cards_played_event import CheatCardsPlayedEvent
    from ..models.cheat_cheat_called_event import CheatCheatCalledEvent
    from ..models.cheat_deals_opened_event import CheatDealsOpenedEvent
    from ..models.cheat_deck_revealed_event import CheatDeckRevealedEvent
    from ..models.cheat_game_created_event import CheatGameCreatedEvent
    from ..models.cheat_game_view import CheatGameView
    from ..models.cheat_match_ended_event import CheatMatchEndedEvent
    from ..models.cheat_penalty_taken_event import CheatPenaltyTakenEvent
    from ..models.cheat_pile_taken_event import CheatPileTakenEvent
    from ..models.cheat_play_accepted_event import CheatPlayAcceptedEvent
    from ..models.cheat_player_joined_event import CheatPlayerJoinedEvent
    from ..models.cheat_player_left_event import CheatPlayerLeftEvent
    from ..models.cheat_round_dealt_event import CheatRoundDealtEvent
    from ..models.cheat_round_ended_event import CheatRoundEndedEvent
    from ..models.cheat_seat_away_event import CheatSeatAwayEvent
    from ..models.cheat_seat_back_event import CheatSeatBackEvent
    from ..models.thirty_one_card_swapped_event import ThirtyOneCardSwappedEvent
    from ..models.thirty_one_deals_opened_event import ThirtyOneDealsOpenedEvent
    from ..models.thirty_one_deck_revealed_event import ThirtyOneDeckRevealedEvent
    from ..models.thirty_one_game_created_event import ThirtyOneGameCreatedEvent
    from ..models.thirty_one_game_view import ThirtyOneGameView
    from ..models.thirty_one_hand_exchanged_event import ThirtyOneHandExchangedEvent
    from ..models.thirty_one_hand_kept_event import ThirtyOneHandKeptEvent
    from ..models.thirty_one_hand_shown_event import ThirtyOneHandShownEvent
    from ..models.thirty_one_hands_swapped_event import ThirtyOneHandsSwappedEvent
    from ..models.thirty_one_match_ended_event import ThirtyOneMatchEndedEvent
    from ..models.thirty_one_passed_event import ThirtyOnePassedEvent
    from ..models.thirty_one_player_joined_event import ThirtyOnePlayerJoinedEvent
    from ..models.thirty_one_player_left_event import ThirtyOnePlayerLeftEvent
    from ..models.thirty_one_round_dealt_event import ThirtyOneRoundDealtEvent
    from ..models.thirty_one_round_ended_event import ThirtyOneRoundEndedEvent
    from ..models.thirty_one_seat_away_event import ThirtyOneSeatAwayEvent
    from ..models.thirty_one_seat_back_event import ThirtyOneSeatBackEvent


T = TypeVar("T", bound="CommandResult")


@_attrs_define
class CommandResult:
    """
    Attributes:
        events (list[CheatCardsPlayedEvent | CheatCheatCalledEvent | CheatDealsOpenedEvent | CheatDeckRevealedEvent |
            CheatGameCreatedEvent | CheatMatchEndedEvent | CheatPenaltyTakenEvent | CheatPileTakenEvent |
            CheatPlayAcceptedEvent | CheatPlayerJoinedEvent | CheatPlayerLeftEvent | CheatRoundDealtEvent |
            CheatRoundEndedEvent | CheatSeatAwayEvent | CheatSeatBackEvent | ThirtyOneCardSwappedEvent |
            ThirtyOneDealsOpenedEvent | ThirtyOneDeckRevealedEvent | ThirtyOneGameCreatedEvent | ThirtyOneHandExchangedEvent
            | ThirtyOneHandKeptEvent | ThirtyOneHandShownEvent | ThirtyOneHandsSwappedEvent | ThirtyOneMatchEndedEvent |
            ThirtyOnePassedEvent | ThirtyOnePlayerJoinedEvent | ThirtyOnePlayerLeftEvent | ThirtyOneRoundDealtEvent |
            ThirtyOneRoundEndedEvent | ThirtyOneSeatAwayEvent | ThirtyOneSeatBackEvent]):
        game (CheatGameView | ThirtyOneGameView): A table as the asker may see it; `kind` says which game.
        version (int):
    """

    events: list[
        CheatCardsPlayedEvent
        | CheatCheatCalledEvent
        | CheatDealsOpenedEvent
        | CheatDeckRevealedEvent
        | CheatGameCreatedEvent
        | CheatMatchEndedEvent
        | CheatPenaltyTakenEvent
        | CheatPileTakenEvent
        | CheatPlayAcceptedEvent
        | CheatPlayerJoinedEvent
        | CheatPlayerLeftEvent
        | CheatRoundDealtEvent
        | CheatRoundEndedEvent
        | CheatSeatAwayEvent
        | CheatSeatBackEvent
        | ThirtyOneCardSwappedEvent
        | ThirtyOneDealsOpenedEvent
        | ThirtyOneDeckRevealedEvent
        | ThirtyOneGameCreatedEvent
        | ThirtyOneHandExchangedEvent
        | ThirtyOneHandKeptEvent
        | ThirtyOneHandShownEvent
        | ThirtyOneHandsSwappedEvent
        | ThirtyOneMatchEndedEvent
        | ThirtyOnePassedEvent
        | ThirtyOnePlayerJoinedEvent
        | ThirtyOnePlayerLeftEvent
        | ThirtyOneRoundDealtEvent
        | ThirtyOneRoundEndedEvent
        | ThirtyOneSeatAwayEvent
        | ThirtyOneSeatBackEvent
    ]
    game: CheatGameView | ThirtyOneGameView
    version: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.cheat_cards_played_event import CheatCardsPlayedEvent  # noqa: PLC0415
        from ..models.cheat_cheat_called_event import CheatCheatCalledEvent  # noqa: PLC0415
        from ..models.cheat_deals_opened_event import CheatDealsOpenedEvent  # noqa: PLC0415
        from ..models.cheat_deck_revealed_event import CheatDeckRevealedEvent  # noqa: PLC0415
        from ..models.cheat_game_created_event import CheatGameCreatedEvent  # noqa: PLC0415
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415
        from ..models.cheat_match_ended_event import CheatMatchEndedEvent  # noqa: PLC0415
        from ..models.cheat_penalty_taken_event import CheatPenaltyTakenEvent  # noqa: PLC0415
        from ..models.cheat_pile_taken_event import CheatPileTakenEvent  # noqa: PLC0415
        from ..models.cheat_play_accepted_event import CheatPlayAcceptedEvent  # noqa: PLC0415
        from ..models.cheat_player_joined_event import CheatPlayerJoinedEvent  # noqa: PLC0415
        from ..models.cheat_player_left_event import CheatPlayerLeftEvent  # noqa: PLC0415
        from ..models.cheat_round_dealt_event import CheatRoundDealtEvent  # noqa: PLC0415
        from ..models.cheat_round_ended_event import CheatRoundEndedEvent  # noqa: PLC0415
        from ..models.cheat_seat_away_event import CheatSeatAwayEvent  # noqa: PLC0415
        from ..models.cheat_seat_back_event import CheatSeatBackEvent  # noqa: PLC0415
        from ..models.thirty_one_card_swapped_event import ThirtyOneCardSwappedEvent  # noqa: PLC0415
        from ..models.thirty_one_deals_opened_event import ThirtyOneDealsOpenedEvent  # noqa: PLC0415
        from ..models.thirty_one_deck_revealed_event import ThirtyOneDeckRevealedEvent  # noqa: PLC0415
        from ..models.thirty_one_game_created_event import ThirtyOneGameCreatedEvent  # noqa: PLC0415
        from ..models.thirty_one_hand_exchanged_event import ThirtyOneHandExchangedEvent  # noqa: PLC0415
        from ..models.thirty_one_hand_kept_event import ThirtyOneHandKeptEvent  # noqa: PLC0415
        from ..models.thirty_one_hand_shown_event import ThirtyOneHandShownEvent  # noqa: PLC0415
        from ..models.thirty_one_hands_swapped_event import ThirtyOneHandsSwappedEvent  # noqa: PLC0415
        from ..models.thirty_one_match_ended_event import ThirtyOneMatchEndedEvent  # noqa: PLC0415
        from ..models.thirty_one_passed_event import ThirtyOnePassedEvent  # noqa: PLC0415
        from ..models.thirty_one_player_joined_event import ThirtyOnePlayerJoinedEvent  # noqa: PLC0415
        from ..models.thirty_one_player_left_event import ThirtyOnePlayerLeftEvent  # noqa: PLC0415
        from ..models.thirty_one_round_dealt_event import ThirtyOneRoundDealtEvent  # noqa: PLC0415
        from ..models.thirty_one_round_ended_event import ThirtyOneRoundEndedEvent  # noqa: PLC0415
        from ..models.thirty_one_seat_away_event import ThirtyOneSeatAwayEvent  # noqa: PLC0415

        events = []
        for events_item_data in self.events:
            events_item: dict[str, Any]
            if isinstance(events_item_data, CheatGameCreatedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatPlayerJoinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatRoundDealtEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatCardsPlayedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatCheatCalledEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatPileTakenEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatPenaltyTakenEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatPlayAcceptedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatRoundEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatDeckRevealedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatMatchEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatDealsOpenedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatPlayerLeftEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatSeatAwayEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, CheatSeatBackEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneGameCreatedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOnePlayerJoinedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneRoundDealtEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneHandKeptEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneHandExchangedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneCardSwappedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneHandsSwappedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOnePassedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneHandShownEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneRoundEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneDeckRevealedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneMatchEndedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneDealsOpenedEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOnePlayerLeftEvent):
                events_item = events_item_data.to_dict()
            elif isinstance(events_item_data, ThirtyOneSeatAwayEvent):
                events_item = events_item_data.to_dict()
            else:
                events_item = events_item_data.to_dict()

            events.append(events_item)

        game: dict[str, Any]
        if isinstance(self.game, CheatGameView):
            game = self.game.to_dict()
        else:
            game = self.game.to_dict()

        version = self.version

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "events": events,
                "game": game,
                "version": version,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cheat_cards_played_event import CheatCardsPlayedEvent  # noqa: PLC0415
        from ..models.cheat_cheat_called_event import CheatCheatCalledEvent  # noqa: PLC0415
        from ..models.cheat_deals_opened_event import CheatDealsOpenedEvent  # noqa: PLC0415
        from ..models.cheat_deck_revealed_event import CheatDeckRevealedEvent  # noqa: PLC0415
        from ..models.cheat_game_created_event import CheatGameCreatedEvent  # noqa: PLC0415
        from ..models.cheat_game_view import CheatGameView  # noqa: PLC0415
        from ..models.cheat_match_ended_event import CheatMatchEndedEvent  # noqa: PLC0415
        from ..models.cheat_penalty_taken_event import CheatPenaltyTakenEvent  # noqa: PLC0415
        from ..models.cheat_pile_taken_event import CheatPileTakenEvent  # noqa: PLC0415
        from ..models.cheat_play_accepted_event import CheatPlayAcceptedEvent  # noqa: PLC0415
        from ..models.cheat_player_joined_event import CheatPlayerJoinedEvent  # noqa: PLC0415
        from ..models.cheat_player_left_event import CheatPlayerLeftEvent  # noqa: PLC0415
        from ..models.cheat_round_dealt_event import CheatRoundDealtEvent  # noqa: PLC0415
        from ..models.cheat_round_ended_event import CheatRoundEndedEvent  # noqa: PLC0415
        from ..models.cheat_seat_away_event import CheatSeatAwayEvent  # noqa: PLC0415
        from ..models.cheat_seat_back_event import CheatSeatBackEvent  # noqa: PLC0415
        from ..models.thirty_one_card_swapped_event import ThirtyOneCardSwappedEvent  # noqa: PLC0415
        from ..models.thirty_one_deals_opened_event import ThirtyOneDealsOpenedEvent  # noqa: PLC0415
        from ..models.thirty_one_deck_revealed_event import ThirtyOneDeckRevealedEvent  # noqa: PLC0415
        from ..models.thirty_one_game_created_event import ThirtyOneGameCreatedEvent  # noqa: PLC0415
        from ..models.thirty_one_game_view import ThirtyOneGameView  # noqa: PLC0415
        from ..models.thirty_one_hand_exchanged_event import ThirtyOneHandExchangedEvent  # noqa: PLC0415
        from ..models.thirty_one_hand_kept_event import ThirtyOneHandKeptEvent  # noqa: PLC0415
        from ..models.thirty_one_hand_shown_event import ThirtyOneHandShownEvent  # noqa: PLC0415
        from ..models.thirty_one_hands_swapped_event import ThirtyOneHandsSwappedEvent  # noqa: PLC0415
        from ..models.thirty_one_match_ended_event import ThirtyOneMatchEndedEvent  # noqa: PLC0415
        from ..models.thirty_one_passed_event import ThirtyOnePassedEvent  # noqa: PLC0415
        from ..models.thirty_one_player_joined_event import ThirtyOnePlayerJoinedEvent  # noqa: PLC0415
        from ..models.thirty_one_player_left_event import ThirtyOnePlayerLeftEvent  # noqa: PLC0415
        from ..models.thirty_one_round_dealt_event import ThirtyOneRoundDealtEvent  # noqa: PLC0415
        from ..models.thirty_one_round_ended_event import ThirtyOneRoundEndedEvent  # noqa: PLC0415
        from ..models.thirty_one_seat_away_event import ThirtyOneSeatAwayEvent  # noqa: PLC0415
        from ..models.thirty_one_seat_back_event import ThirtyOneSeatBackEvent  # noqa: PLC0415

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:

            def _parse_events_item(
                data: object,
            ) -> (
                CheatCardsPlayedEvent
                | CheatCheatCalledEvent
                | CheatDealsOpenedEvent
                | CheatDeckRevealedEvent
                | CheatGameCreatedEvent
                | CheatMatchEndedEvent
                | CheatPenaltyTakenEvent
                | CheatPileTakenEvent
                | CheatPlayAcceptedEvent
                | CheatPlayerJoinedEvent
                | CheatPlayerLeftEvent
                | CheatRoundDealtEvent
                | CheatRoundEndedEvent
                | CheatSeatAwayEvent
                | CheatSeatBackEvent
                | ThirtyOneCardSwappedEvent
                | ThirtyOneDealsOpenedEvent
                | ThirtyOneDeckRevealedEvent
                | ThirtyOneGameCreatedEvent
                | ThirtyOneHandExchangedEvent
                | ThirtyOneHandKeptEvent
                | ThirtyOneHandShownEvent
                | ThirtyOneHandsSwappedEvent
                | ThirtyOneMatchEndedEvent
                | ThirtyOnePassedEvent
                | ThirtyOnePlayerJoinedEvent
                | ThirtyOnePlayerLeftEvent
                | ThirtyOneRoundDealtEvent
                | ThirtyOneRoundEndedEvent
                | ThirtyOneSeatAwayEvent
                | ThirtyOneSeatBackEvent
            ):
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_0 = CheatGameCreatedEvent.from_dict(data)

                    return componentsschemas_game_event_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_1 = CheatPlayerJoinedEvent.from_dict(data)

                    return componentsschemas_game_event_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_2 = CheatRoundDealtEvent.from_dict(data)

                    return componentsschemas_game_event_type_2
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_3 = CheatCardsPlayedEvent.from_dict(data)

                    return componentsschemas_game_event_type_3
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_4 = CheatCheatCalledEvent.from_dict(data)

                    return componentsschemas_game_event_type_4
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_5 = CheatPileTakenEvent.from_dict(data)

                    return componentsschemas_game_event_type_5
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_6 = CheatPenaltyTakenEvent.from_dict(data)

                    return componentsschemas_game_event_type_6
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_7 = CheatPlayAcceptedEvent.from_dict(data)

                    return componentsschemas_game_event_type_7
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_8 = CheatRoundEndedEvent.from_dict(data)

                    return componentsschemas_game_event_type_8
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_9 = CheatDeckRevealedEvent.from_dict(data)

                    return componentsschemas_game_event_type_9
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_10 = CheatMatchEndedEvent.from_dict(data)

                    return componentsschemas_game_event_type_10
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_11 = CheatDealsOpenedEvent.from_dict(data)

                    return componentsschemas_game_event_type_11
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_12 = CheatPlayerLeftEvent.from_dict(data)

                    return componentsschemas_game_event_type_12
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_13 = CheatSeatAwayEvent.from_dict(data)

                    return componentsschemas_game_event_type_13
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_14 = CheatSeatBackEvent.from_dict(data)

                    return componentsschemas_game_event_type_14
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_15 = ThirtyOneGameCreatedEvent.from_dict(data)

                    return componentsschemas_game_event_type_15
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_16 = ThirtyOnePlayerJoinedEvent.from_dict(data)

                    return componentsschemas_game_event_type_16
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_17 = ThirtyOneRoundDealtEvent.from_dict(data)

                    return componentsschemas_game_event_type_17
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_18 = ThirtyOneHandKeptEvent.from_dict(data)

                    return componentsschemas_game_event_type_18
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_19 = ThirtyOneHandExchangedEvent.from_dict(data)

                    return componentsschemas_game_event_type_19
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_20 = ThirtyOneCardSwappedEvent.from_dict(data)

                    return componentsschemas_game_event_type_20
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_21 = ThirtyOneHandsSwappedEvent.from_dict(data)

                    return componentsschemas_game_event_type_21
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_22 = ThirtyOnePassedEvent.from_dict(data)

                    return componentsschemas_game_event_type_22
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_23 = ThirtyOneHandShownEvent.from_dict(data)

                    return componentsschemas_game_event_type_23
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_24 = ThirtyOneRoundEndedEvent.from_dict(data)

                    return componentsschemas_game_event_type_24
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_25 = ThirtyOneDeckRevealedEvent.from_dict(data)

                    return componentsschemas_game_event_type_25
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_26 = ThirtyOneMatchEndedEvent.from_dict(data)

                    return componentsschemas_game_event_type_26
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_27 = ThirtyOneDealsOpenedEvent.from_dict(data)

                    return componentsschemas_game_event_type_27
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_28 = ThirtyOnePlayerLeftEvent.from_dict(data)

                    return componentsschemas_game_event_type_28
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_game_event_type_29 = ThirtyOneSeatAwayEvent.from_dict(data)

                    return componentsschemas_game_event_type_29
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_event_type_30 = ThirtyOneSeatBackEvent.from_dict(data)

                return componentsschemas_game_event_type_30

            events_item = _parse_events_item(events_item_data)

            events.append(events_item)

        def _parse_game(data: object) -> CheatGameView | ThirtyOneGameView:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_view_type_0 = CheatGameView.from_dict(data)

                return componentsschemas_game_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_game_view_type_1 = ThirtyOneGameView.from_dict(data)

            return componentsschemas_game_view_type_1

        game = _parse_game(d.pop("game"))

        version = d.pop("version")

        command_result = cls(
            events=events,
            game=game,
            version=version,
        )

        command_result.additional_properties = d
        return command_result

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
