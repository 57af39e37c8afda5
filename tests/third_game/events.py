"""High Card's events, each game's own and the seating's, in one union."""

from __future__ import annotations

from typing import TypeAlias

import msgspec
from msgspec import Struct

from kronikas_rules.cards import Card
from kronikas_rules.common import EndReasonOnWire
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack
from tests.third_game.options import HighCardOptions


class HighCardGameCreated(Struct, frozen=True, tag_field="type", tag="game_created"):
    """A table was created with these options."""

    options: HighCardOptions
    seeded: bool


class HighCardRoundDealt(Struct, frozen=True, tag_field="type", tag="round_dealt"):
    """A round was dealt: one card to each seat (a seat sees its own alone until the round
    ends), from a deck whose `commitment` (a Merkle root over its salted positions) is public."""

    round: int
    cards: list[Card | None]
    deck: list[Card] | None
    salts: list[str] | None
    commitment: str


class HighCardRevealed(Struct, frozen=True, tag_field="type", tag="revealed"):
    """A seat stays in the round."""

    seat: int


class HighCardFolded(Struct, frozen=True, tag_field="type", tag="folded"):
    """A seat gave the round up."""

    seat: int


class HighCardRoundEnded(Struct, frozen=True, tag_field="type", tag="round_ended"):
    """A round ended: every seat's card, who won it (null: nobody) and the rounds won by seat."""

    round: int
    cards: list[Card]
    winner: int | None
    points: list[int]


class HighCardMatchEnded(
    Struct, frozen=True, tag_field="type", tag="match_ended", omit_defaults=True
):
    """The match ended: the seats with the most rounds won."""

    winners: list[int]
    reason: EndReasonOnWire = msgspec.UNSET


Event: TypeAlias = (
    HighCardGameCreated
    | PlayerJoined
    | PlayerLeft
    | SeatAway
    | SeatBack
    | HighCardRoundDealt
    | HighCardRevealed
    | HighCardFolded
    | HighCardRoundEnded
    | HighCardMatchEnded
)

OwnEvent: TypeAlias = (
    HighCardGameCreated
    | HighCardRoundDealt
    | HighCardRevealed
    | HighCardFolded
    | HighCardRoundEnded
    | HighCardMatchEnded
)
"""The game's own events: every event but seating's."""
