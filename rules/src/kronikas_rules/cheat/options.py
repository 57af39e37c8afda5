"""Cheat's kind, table options and seats (docs/rules.md). The options' limits are their types'
(`common.check_options` holds every game's options to them)."""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from kronikas_rules.common import Reveal, TurnSeconds

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


MaxPlays = Annotated[
    int,
    msgspec.Meta(
        ge=20,
        le=10_000,
        description="The most plays a round allows (20–10,000): the last one's window is "
        "settled as a going-out play's, then the round ends and places go by cards in hand.",
    ),
]
DEFAULT_MAX_PLAYS: Final = 300
"""A new table's `max_plays`: the house's longest round (eight seats, two decks) stays far below
(docs/rules.md, "A round that does not end")."""


class CheatTableOptions(msgspec.Struct, frozen=True):
    """A Cheat table's options as its first event stores them and its views show them. Every
    field has the default it had when it was added, so a table stored before a field existed
    still loads as it was: one stored before `max_plays` has none (absent: no limit), one stored
    before `reveal` opens no deal at the match's end (absent: `never`)."""

    decks: Decks = 1
    max_play: MaxPlay = 4
    max_plays: MaxPlays | msgspec.UnsetType = msgspec.UNSET
    rounds: Rounds = 1
    place_points: PlacePoints = (4, 3, 2)
    chroniclers: Chroniclers = False
    turn_seconds: TurnSeconds = None
    house_pause_seconds: HousePauseSeconds = 3
    reveal: Reveal | msgspec.UnsetType = msgspec.UNSET

    @property
    def play_limit(self) -> int | None:
        """The most plays a round allows; None for a table stored before `max_plays`."""
        return None if isinstance(self.max_plays, msgspec.UnsetType) else self.max_plays

    @classmethod
    def of(cls, options: CheatTableOptions) -> CheatTableOptions:
        """The options as a table's first event stores them and its views show them."""
        if type(options) is cls:  # a stored table's, as every view of it asks
            return options
        return cls(**msgspec.structs.asdict(options))


class CheatOptions(CheatTableOptions, frozen=True, forbid_unknown_fields=True):
    """The options a Cheat table is created with; every field may be left out for its default,
    a new table's rounds allow `max_plays` plays, and its `reveal` is `never` unless it asks."""

    max_plays: MaxPlays = DEFAULT_MAX_PLAYS
    reveal: Reveal = "never"


def max_players(options: CheatTableOptions) -> int:
    """Seats at a table: 4 with one deck, 8 with two (docs/rules.md)."""
    return 4 if options.decks == 1 else MAX_PLAYERS
