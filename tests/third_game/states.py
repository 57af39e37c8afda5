"""High Card's states: one Struct per phase of the match."""

from __future__ import annotations

from typing import Literal, TypeAlias

from msgspec import Struct

from kronikas_rules import seating
from kronikas_rules.cards import RANKS, SUITS, Card
from tests.third_game.events import HighCardRoundEnded
from tests.third_game.options import PLAYERS, HighCardOptions


class Lobby(Struct, frozen=True):
    options: HighCardOptions
    seeded: bool
    seats: seating.Seating = ()


class Playing(Struct, frozen=True):
    options: HighCardOptions
    seeded: bool
    seats: seating.Seating
    round: int
    cards: tuple[Card, ...]
    choices: tuple[Literal["reveal", "fold"] | None, ...]
    deck: tuple[Card, ...]
    salts: tuple[str, ...]
    points: tuple[int, ...]
    last: HighCardRoundEnded | None = None


class Finished(Struct, frozen=True):
    options: HighCardOptions
    seeded: bool
    seats: seating.Seating
    round: int
    points: tuple[int, ...]
    winners: tuple[int, ...]
    reason: Literal["event_cap"] | None
    last: HighCardRoundEnded | None = None


State: TypeAlias = Lobby | Playing | Finished


def initial_state(options: HighCardOptions, seeded: bool) -> State:
    """The lobby."""
    return Lobby(options, seeded)


def turn_of(state: Playing) -> int | None:
    """The seat to choose: the first without a choice, from seat `round - 1` (mod 2) on."""
    first = (state.round - 1) % PLAYERS
    for seat in (first, 1 - first):
        if state.choices[seat] is None:
            return seat
    return None


def strength(card: Card) -> tuple[int, int]:
    """A card's rank, then its suit, in the deck's order: no two cards tie."""
    return RANKS.index(card[:-1]), SUITS.index(card[-1])
