"""A Thirty-One table's options and the limits that follow from them (docs/rules.md). The
options' limits are their types' (`common.check_options` holds every game's options to them)."""

from __future__ import annotations

from typing import Annotated, Final

from msgspec import Meta, Struct

from kronikas_rules.cards import COLOURED, STANDARD, Card
from kronikas_rules.common import Reveal, TurnSeconds

KIND: Final = "thirty_one"
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 9
HAND_SIZE: Final = 3
TABLE_SIZE: Final = 3
EVENT_CAP: Final = 20_000
"""The most events a Thirty-One table keeps: the match ends there (docs/rules.md). The longest
matches the house's players make (nine players, ten lives, the Chronicler) stay under 1,500."""


Lives = Annotated[
    int, Meta(ge=0, le=10, description="Lives each player starts with; 0: out at the first loss.")
]
MaxCircuits = (
    Annotated[
        int,
        Meta(
            ge=1,
            le=100,
            description="After this many full circuits without a show, the player on turn "
            "may only show (1–100); null: no limit, and players who never show never end "
            "the round.",
        ),
    ]
    | None
)
DEFAULT_MAX_CIRCUITS: Final = 20
"""A new table's `max_circuits`: a table may still ask for none (null). Every stored table's
first event names its `max_circuits` (null included), so the default reaches new tables only."""
Chronicler = Annotated[
    bool, Meta(description="Whether the Coloured Chronicler XC joins the deck (33 cards).")
]


class ThirtyOneOptions(Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a Thirty-One table (docs/rules.md, "Limits of the options")."""

    lives: Lives = 3
    max_circuits: MaxCircuits = DEFAULT_MAX_CIRCUITS
    chronicler: Chronicler = False
    turn_seconds: TurnSeconds = None
    reveal: Reveal = "never"


class ThirtyOneTableOptions(Struct, frozen=True):
    """A Thirty-One table's options as its views show them: every field present."""

    lives: Lives
    max_circuits: MaxCircuits
    chronicler: Chronicler
    turn_seconds: TurnSeconds
    reveal: Reveal

    @classmethod
    def of(cls, options: ThirtyOneOptions) -> ThirtyOneTableOptions:
        """The options of a table, as its views show them."""
        return cls(
            options.lives,
            options.max_circuits,
            options.chronicler,
            options.turn_seconds,
            options.reveal,
        )


def max_players(options: ThirtyOneOptions) -> int:
    """The most seats a table can have: 9, whatever the options."""
    return MAX_PLAYERS


def deck_of(options: ThirtyOneOptions) -> tuple[Card, ...]:
    """The unshuffled deck: the 32 cards, and XC when the Chronicler is on."""
    return (*STANDARD, COLOURED) if options.chronicler else STANDARD
