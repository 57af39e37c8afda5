"""High Card's `decide`: the events of its moves, of the start and of the cap of events."""

from __future__ import annotations

from typing import assert_never

from kronikas_rules import seating
from kronikas_rules.cards import STANDARD
from kronikas_rules.common import (
    EVENT_CAP_REASON,
    CapReached,
    GameNotOpen,
    GameOver,
    NotYourTurn,
    Randomness,
    Start,
    wire_reason,
)
from tests.third_game.commands import Fold, Move, Reveal
from tests.third_game.events import (
    Event,
    HighCardFolded,
    HighCardGameCreated,
    HighCardMatchEnded,
    HighCardRevealed,
    HighCardRoundDealt,
    HighCardRoundEnded,
)
from tests.third_game.options import PLAYERS, HighCardOptions
from tests.third_game.states import Finished, Lobby, Playing, State, strength, turn_of


def created(options: HighCardOptions, seeded: bool) -> list[Event]:
    """The first event of every table."""
    return [HighCardGameCreated(options=options, seeded=seeded)]


def decide(
    state: State,
    command: Move | Start | CapReached,
    seat: int | None,
    rng: Randomness,
    by_house: bool = False,
) -> list[Event]:
    """The events of a move, the start or the cap, or a DomainError saying why it is refused."""
    match command:
        case Reveal() | Fold():
            return _move(state, command, seat, rng, by_house)
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
    salts = list(shuffle.salts)
    return HighCardRoundDealt(round, [*deck[:PLAYERS]], deck, salts, shuffle.commitment)


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
    ]
    if state.round < state.options.rounds:
        events.append(_deal(state.round + 1, rng))
    else:
        events.append(HighCardMatchEnded(_leaders(tuple(points))))
    return events
