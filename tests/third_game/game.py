"""High Card's options, commands, events and states, and its Decider: `decide` and `evolve`."""

from __future__ import annotations

from typing import Annotated, Final, Literal, TypeAlias, assert_never

import msgspec
from msgspec import Meta, Struct

from kronikas.domain import seating
from kronikas.domain.cards import RANKS, STANDARD, SUITS, Card
from kronikas.domain.common import (
    EVENT_CAP_REASON,
    CapReached,
    DeckRevealed,
    EndReasonOnWire,
    EventOutOfPlace,
    GameNotOpen,
    GameOver,
    NotYourTurn,
    Randomness,
    Start,
    TurnSeconds,
    wire_reason,
)
from kronikas.domain.seating import (
    Back,
    Join,
    Leave,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TimeOut,
)

KIND: Final = "high_card"
PLAYERS: Final = 2
EVENT_CAP: Final = 1_000
"""Far beyond the longest match: nine rounds of six events, and the seating."""

# --- options ----------------------------------------------------------------------------------

Rounds = Annotated[int, Meta(ge=1, le=9, description="Rounds in a match (1–9).")]


class HighCardOptions(Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a High Card table."""

    rounds: Rounds = 3
    turn_seconds: TurnSeconds = None


def max_players(options: HighCardOptions) -> int:
    """Two seats, whatever the options."""
    return PLAYERS


# --- commands ---------------------------------------------------------------------------------


class Reveal(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="reveal"):
    """Stay in the round: your card is compared with the other's when the round ends."""


class Fold(Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="fold"):
    """Give the round up."""


Move: TypeAlias = Reveal | Fold
Command: TypeAlias = Reveal | Fold | Leave | Back
COMMANDS: Final = (Reveal, Fold, Leave, Back)

# --- events -----------------------------------------------------------------------------------


class HighCardGameCreated(Struct, frozen=True, tag_field="type", tag="game_created"):
    """A table was created with these options."""

    options: HighCardOptions
    seeded: bool


class HighCardRoundDealt(Struct, frozen=True, tag_field="type", tag="round_dealt"):
    """A round was dealt: one card to each seat (a seat sees its own alone until the round
    ends), from a deck whose `commitment` is public."""

    round: int
    cards: list[Card | None]
    deck: list[Card] | None
    salt: str | None
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
    | DeckRevealed
    | HighCardMatchEnded
)

# --- states (phases) --------------------------------------------------------------------------


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
    salt: str
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


def created(options: HighCardOptions, seeded: bool) -> list[Event]:
    """The first event of every table."""
    return [HighCardGameCreated(options=options, seeded=seeded)]


def is_terminal(state: State) -> bool:
    return isinstance(state, Finished)


def stage_of(state: State) -> seating.Stage:
    match state:
        case Lobby():
            return "lobby"
        case Playing():
            return "playing"
        case Finished():
            return "over"
        case _:
            assert_never(state)


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


# --- decide -----------------------------------------------------------------------------------


def decide(
    state: State,
    command: Command | Join | Start | TimeOut | CapReached,
    seat: int | None,
    rng: Randomness,
    by_house: bool = False,
) -> list[Event]:
    """The events a command causes, or a DomainError saying why it is refused."""
    match command:
        case Reveal() | Fold():
            return _move(state, command, seat, rng, by_house)
        case Join() | Leave() | Back() | TimeOut():
            stage = stage_of(state)
            return [*seating.decide(state.seats, command, seat, stage, PLAYERS, by_house)]
        case Start():
            if not isinstance(state, Lobby):
                raise GameNotOpen("The table has started already.")
            if len(state.seats) < PLAYERS:
                raise GameNotOpen("High Card needs two players.")
            return [_deal(1, rng)]
        case CapReached():
            if not isinstance(state, Playing):
                return []
            return [HighCardMatchEnded(_leaders(state.points), wire_reason(EVENT_CAP_REASON))]
        case _:
            assert_never(command)


def _deal(round: int, rng: Randomness) -> HighCardRoundDealt:
    shuffle = rng.shuffle(STANDARD, round)
    deck = list(shuffle.deck)
    return HighCardRoundDealt(round, [*deck[:PLAYERS]], deck, shuffle.salt, shuffle.commitment)


def _leaders(points: tuple[int, ...]) -> list[int]:
    return [s for s, p in enumerate(points) if p == max(points)]


def _move(
    state: State, command: Move, seat: int | None, rng: Randomness, by_house: bool
) -> list[Event]:
    if isinstance(state, Lobby):
        raise GameNotOpen("The table has not started yet.")
    if isinstance(state, Finished):
        raise GameOver("The match is over.")
    if seat is None or not 0 <= seat < PLAYERS:
        raise NotYourTurn("Only a player seated at this table may send commands.")
    seating.check_sender(state.seats[seat], seat, by_house)
    if turn_of(state) != seat:
        raise NotYourTurn("It is the other seat's turn.")
    chosen: Event = HighCardRevealed(seat) if isinstance(command, Reveal) else HighCardFolded(seat)
    choices = list(state.choices)
    choices[seat] = "reveal" if isinstance(command, Reveal) else "fold"
    if None in choices:
        return [chosen]
    shown = [card for s, card in enumerate(state.cards) if choices[s] == "reveal"]
    winner = state.cards.index(max(shown, key=strength)) if shown else None
    points = [p + (s == winner) for s, p in enumerate(state.points)]
    events: list[Event] = [
        chosen,
        HighCardRoundEnded(state.round, [*state.cards], winner, points),
        DeckRevealed(state.round, state.salt, [*state.deck]),
    ]
    if state.round < state.options.rounds:
        events.append(_deal(state.round + 1, rng))
    else:
        events.append(HighCardMatchEnded(_leaders(tuple(points))))
    return events


# --- evolve -----------------------------------------------------------------------------------


def evolve(state: State, event: Event) -> State:
    """Only assigns what the event says."""
    match event:
        case HighCardGameCreated():
            return Lobby(event.options, event.seeded, state.seats)
        case PlayerJoined() | PlayerLeft() | SeatAway() | SeatBack():
            seats = seating.evolve(state.seats, event, stage_of(state), state)
            return msgspec.structs.replace(state, seats=seats)
        case HighCardRoundDealt():
            points = state.points if isinstance(state, Playing) else (0,) * PLAYERS
            last = state.last if isinstance(state, Playing) else None
            return Playing(
                state.options,
                state.seeded,
                state.seats,
                event.round,
                tuple(c or "" for c in event.cards),
                (None,) * PLAYERS,
                tuple(event.deck or ()),
                event.salt or "",
                points,
                last,
            )
        case HighCardRevealed() | HighCardFolded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            choices = list(state.choices)
            choices[event.seat] = "reveal" if isinstance(event, HighCardRevealed) else "fold"
            return msgspec.structs.replace(state, choices=tuple(choices))
        case HighCardRoundEnded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            return msgspec.structs.replace(state, points=tuple(event.points), last=event)
        case DeckRevealed():
            return state
        case HighCardMatchEnded():
            if not isinstance(state, Playing):
                raise EventOutOfPlace.of(state, event)
            reason = None if isinstance(event.reason, msgspec.UnsetType) else event.reason
            return Finished(
                state.options,
                state.seeded,
                state.seats,
                state.round,
                state.points,
                tuple(event.winners),
                reason,
                state.last,
            )
        case _:
            assert_never(event)
