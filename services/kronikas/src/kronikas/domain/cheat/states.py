"""Cheat's states, one type per phase (lobby, round, round over, finished), and the hand order."""

from __future__ import annotations

from typing import Final, TypeAlias

import msgspec

from kronikas.domain.cards import COLOURED, PALE, RANKS, SUITS, Card
from kronikas.domain.cheat.options import CheatOptions
from kronikas.domain.common import EndReason
from kronikas.domain.seating import Seating

_ORDER: Final[dict[Card, int]] = {
    code: i
    for i, code in enumerate(
        (*(rank + suit for rank in RANKS for suit in SUITS), COLOURED, PALE),
    )
}


def card_order(card: Card) -> int:
    """A card's place in hand order: rank 7…A, then suit H B L A, Chroniclers last."""
    return _ORDER[card]


def sort_cards(cards: tuple[Card, ...] | list[Card]) -> tuple[Card, ...]:
    """Cards in hand order: rank 7…A, then suit H B L A, Chroniclers last."""
    return tuple(sorted(cards, key=_ORDER.__getitem__))


# --- what the state keeps and the view shows as it is -----------------------------------------


class CheatCallResult(msgspec.Struct, frozen=True):
    """The latest call of the round: its turned-up cards, whether the play was honest, who took
    the pile."""

    caller: int
    seat: int
    rank: str
    cards: list[Card]
    honest: bool
    taker: int


class CheatPenalty(msgspec.Struct, frozen=True):
    """The latest uncalled play that held the Pale Chronicler: its player took the pile."""

    seat: int
    count: int


class CheatRoundResult(msgspec.Struct, frozen=True):
    """The most recent finished round: lists are indexed by seat."""

    round: int
    winner: int
    places: list[int]
    points: list[int]
    hand_sizes: list[int]


# --- the phases --------------------------------------------------------------------------------


class CheatPileTop(msgspec.Struct, frozen=True, gc=False):
    """The most recent play while its window is open."""

    seat: int
    cards: tuple[Card, ...]
    rank: str


class CheatLobby(msgspec.Struct, frozen=True):
    """The table takes players. `players` is the seating (`seating`), in every phase."""

    options: CheatOptions
    seeded: bool
    players: Seating = ()


class CheatRound(msgspec.Struct, frozen=True):
    """A round in play. The challenge window is open exactly while `top` is set."""

    options: CheatOptions
    seeded: bool
    players: Seating
    points: tuple[int, ...]
    last_round: CheatRoundResult | None
    round: int
    dealer: int
    deck: tuple[Card, ...]
    salt: str
    commitment: str
    hands: tuple[tuple[Card, ...], ...]
    set_aside: tuple[Card, ...]
    pile: tuple[Card, ...]
    rank: str
    turn: int
    top: CheatPileTop | None = None
    last_call: CheatCallResult | None = None
    last_penalty: CheatPenalty | None = None


class CheatRoundOver(msgspec.Struct, frozen=True):
    """A round has ended; in the same decision the next one is dealt or the match ends."""

    table: CheatRound


class CheatFinished(msgspec.Struct, frozen=True):
    """The match is over; `table` is the last round as it ended (its `top` is the accepted last
    play still on the pile, or `None` when the round ended on a call), or the lobby when the
    table's cap of events ended it before the start. `reason` is why when the rules did not
    end it (`event_cap`)."""

    table: CheatRound | CheatLobby
    winners: tuple[int, ...]
    reason: EndReason | None = None


State: TypeAlias = CheatLobby | CheatRound | CheatRoundOver | CheatFinished


def initial_state(options: CheatOptions, seeded: bool) -> State:
    """The empty lobby before the game's first event (`created`)."""
    return CheatLobby(options=options, seeded=seeded)


def is_terminal(state: State) -> bool:
    """Whether the match is over."""
    return isinstance(state, CheatFinished)
