"""Cheat's kind, table options and seats (docs/rules.md). The options' limits are their types'
(`common.check_options` holds every game's options to them)."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from kronikas.domain.common import TurnSeconds

KIND: Final = "cheat"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 8
"""The most seats at any Cheat table: two decks' (`max_players`)."""
EVENT_CAP: Final = 100_000
"""The most events a Cheat table keeps: the match ends there (docs/rules.md). The longest
matches the house's players make (eight players, two decks, Chroniclers, 100 rounds) reach about
47,500."""


Decks = Annotated[
    int, msgspec.Meta(ge=1, le=2, description="Decks of 32 cards: 1 or 2; 2 seat 5–8 players.")
]
MaxPlay = Annotated[
    int, msgspec.Meta(ge=1, le=4, description="The most cards one play may put down (1–4).")
]
Rounds = Annotated[int, msgspec.Meta(ge=1, le=100, description="Rounds in the match (1–100).")]
PlacePoints = Annotated[
    tuple[Annotated[int, msgspec.Meta(ge=0, le=100)], ...],
    msgspec.Meta(
        min_length=1,
        max_length=8,
        description="Points for 1st, 2nd, … place (1–8 whole numbers, 0–100); "
        "a place beyond the list scores 0.",
    ),
]
Chroniclers = Annotated[
    bool, msgspec.Meta(description="Add the Coloured (XC) and Pale (XP) Chroniclers.")
]
HousePauseSeconds = Annotated[
    int,
    msgspec.Meta(
        ge=0,
        le=30,
        description="Seconds the house waits before it plays a seat while a player could still "
        "call the last play (0–30).",
    ),
]


class CheatOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a Cheat table; every field may be left out for its default."""

    decks: Decks = 1
    max_play: MaxPlay = 4
    rounds: Rounds = 1
    place_points: PlacePoints = (4, 3, 2)
    chroniclers: Chroniclers = False
    turn_seconds: TurnSeconds = None
    house_pause_seconds: HousePauseSeconds = 3


class CheatTableOptions(msgspec.Struct, frozen=True):
    """A Cheat table's options as its views show them: every field present."""

    decks: Decks
    max_play: MaxPlay
    rounds: Rounds
    place_points: PlacePoints
    chroniclers: Chroniclers
    turn_seconds: TurnSeconds
    house_pause_seconds: HousePauseSeconds

    @classmethod
    def of(cls, options: CheatOptions) -> CheatTableOptions:
        """The options of a table, as its views show them."""
        return cls(
            options.decks,
            options.max_play,
            options.rounds,
            options.place_points,
            options.chroniclers,
            options.turn_seconds,
            options.house_pause_seconds,
        )


def max_players(options: CheatOptions) -> int:
    """Seats at a table: 4 with one deck, 8 with two (docs/rules.md)."""
    return 4 if options.decks == 1 else MAX_PLAYERS
