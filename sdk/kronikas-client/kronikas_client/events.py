"""Every event type on the wire as one union, and a parser that picks the class by
`type` (written by tools/gen_sdk.py from the OpenAPI document's discriminator)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

from .models import (
    CheatCardsPlayedEvent,
    CheatCheatCalledEvent,
    CheatDealsOpenedEvent,
    CheatDeckRevealedEvent,
    CheatGameCreatedEvent,
    CheatGameView,
    CheatMatchEndedEvent,
    CheatPenaltyTakenEvent,
    CheatPileTakenEvent,
    CheatPlayAcceptedEvent,
    CheatPlayerJoinedEvent,
    CheatPlayerLeftEvent,
    CheatRoundDealtEvent,
    CheatRoundEndedEvent,
    CheatSeatAwayEvent,
    CheatSeatBackEvent,
    ThirtyOneCardSwappedEvent,
    ThirtyOneDealsOpenedEvent,
    ThirtyOneDeckRevealedEvent,
    ThirtyOneGameCreatedEvent,
    ThirtyOneGameView,
    ThirtyOneHandExchangedEvent,
    ThirtyOneHandKeptEvent,
    ThirtyOneHandShownEvent,
    ThirtyOneHandsSwappedEvent,
    ThirtyOneMatchEndedEvent,
    ThirtyOnePassedEvent,
    ThirtyOnePlayerJoinedEvent,
    ThirtyOnePlayerLeftEvent,
    ThirtyOneRoundDealtEvent,
    ThirtyOneRoundEndedEvent,
    ThirtyOneSeatAwayEvent,
    ThirtyOneSeatBackEvent,
)

GameEvent: TypeAlias = (
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
)
"""One change to a table: one class per game and event type, its `data` typed."""

EVENT_CLASSES: dict[str, type[GameEvent]] = {
    "cheat.cards_played": CheatCardsPlayedEvent,
    "cheat.cheat_called": CheatCheatCalledEvent,
    "cheat.deals_opened": CheatDealsOpenedEvent,
    "cheat.deck_revealed": CheatDeckRevealedEvent,
    "cheat.game_created": CheatGameCreatedEvent,
    "cheat.match_ended": CheatMatchEndedEvent,
    "cheat.penalty_taken": CheatPenaltyTakenEvent,
    "cheat.pile_taken": CheatPileTakenEvent,
    "cheat.play_accepted": CheatPlayAcceptedEvent,
    "cheat.player_joined": CheatPlayerJoinedEvent,
    "cheat.player_left": CheatPlayerLeftEvent,
    "cheat.round_dealt": CheatRoundDealtEvent,
    "cheat.round_ended": CheatRoundEndedEvent,
    "cheat.seat_away": CheatSeatAwayEvent,
    "cheat.seat_back": CheatSeatBackEvent,
    "thirty_one.card_swapped": ThirtyOneCardSwappedEvent,
    "thirty_one.deals_opened": ThirtyOneDealsOpenedEvent,
    "thirty_one.deck_revealed": ThirtyOneDeckRevealedEvent,
    "thirty_one.game_created": ThirtyOneGameCreatedEvent,
    "thirty_one.hand_exchanged": ThirtyOneHandExchangedEvent,
    "thirty_one.hand_kept": ThirtyOneHandKeptEvent,
    "thirty_one.hand_shown": ThirtyOneHandShownEvent,
    "thirty_one.hands_swapped": ThirtyOneHandsSwappedEvent,
    "thirty_one.match_ended": ThirtyOneMatchEndedEvent,
    "thirty_one.passed": ThirtyOnePassedEvent,
    "thirty_one.player_joined": ThirtyOnePlayerJoinedEvent,
    "thirty_one.player_left": ThirtyOnePlayerLeftEvent,
    "thirty_one.round_dealt": ThirtyOneRoundDealtEvent,
    "thirty_one.round_ended": ThirtyOneRoundEndedEvent,
    "thirty_one.seat_away": ThirtyOneSeatAwayEvent,
    "thirty_one.seat_back": ThirtyOneSeatBackEvent,
}
"""The class of each event `type` on the wire (`cheat.round_dealt`, …)."""

GameView: TypeAlias = (
    CheatGameView
    | ThirtyOneGameView
)
"""A table as its viewer sees it: one class per game, as `kind` says."""


def parse_event(src: Mapping[str, Any]) -> GameEvent:
    """An event from its JSON object, as the class its `type` names."""
    return EVENT_CLASSES[src["type"]].from_dict(src)
