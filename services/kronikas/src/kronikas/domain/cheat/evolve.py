"""Cheat's `evolve`: the state after an event, assigning only what the event says."""

from __future__ import annotations

from typing import assert_never

import msgspec

from kronikas.domain import seating
from kronikas.domain.cards import Card
from kronikas.domain.cheat.events import (
    CheatCalled,
    CheatCardsPlayed,
    CheatGameCreated,
    CheatMatchEnded,
    CheatPenaltyTaken,
    CheatPileTaken,
    CheatPlayAccepted,
    CheatRoundDealt,
    CheatRoundEnded,
    Event,
    OwnEvent,
)
from kronikas.domain.cheat.options import CheatOptions
from kronikas.domain.cheat.states import (
    CheatCallResult,
    CheatPenalty,
    CheatRoundResult,
    Finished,
    InRound,
    Lobby,
    PileTop,
    RoundOver,
    State,
    Table,
    Turn,
    Window,
    sort_cards,
)
from kronikas.domain.common import DeckRevealed, EventOutOfPlace, state_reason


def _lobby(state: State, event: Event) -> Lobby:
    match state:
        case Lobby():
            return state
        case Turn() | Window() | RoundOver() | Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _in_round(state: State, event: Event) -> InRound:
    match state:
        case Turn() | Window():
            return state
        case Lobby() | RoundOver() | Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _window(state: State, event: Event) -> Window:
    match state:
        case Window():
            return state
        case Lobby() | Turn() | RoundOver() | Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _over(state: State, event: Event) -> RoundOver:
    match state:
        case RoundOver():
            return state
        case Lobby() | Turn() | Window() | Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _at(
    items: tuple[tuple[Card, ...], ...], i: int, value: tuple[Card, ...]
) -> tuple[tuple[Card, ...], ...]:
    return (*items[:i], value, *items[i + 1 :])


def _unredacted(cards: list[Card] | None) -> list[Card]:
    if cards is None:
        raise EventOutOfPlace("A redacted event cannot be folded into a state.")
    return cards


def _dealt(
    options: CheatOptions,
    seeded: bool,
    seats: seating.Seating,
    points: tuple[int, ...] | None,
    last_round: CheatRoundResult | None,
    event: CheatRoundDealt,
) -> Turn:
    return Turn(
        Table(
            options=options,
            seeded=seeded,
            seats=seats,
            points=(0,) * len(seats) if points is None else points,
            last_round=last_round,
            round=event.round,
            dealer=event.dealer,
            deck=tuple(_unredacted(event.deck)),
            salt=event.salt or "",
            commitment=event.commitment,
            hands=tuple(tuple(_unredacted(hand)) for hand in event.hands),
            set_aside=tuple(_unredacted(event.set_aside_cards)),
            pile=(),
            rank=event.rank,
            turn=event.turn,
        )
    )


def _played(table: Table, event: CheatCardsPlayed) -> Window:
    cards = _unredacted(event.cards)
    hand = list(table.hands[event.seat])
    for card in cards:
        hand.remove(card)
    table = msgspec.structs.replace(
        table,
        hands=_at(table.hands, event.seat, tuple(hand)),
        pile=table.pile + tuple(cards),
        rank=event.next_rank,
        turn=event.turn,
    )
    return Window(table, top=PileTop(seat=event.seat, cards=tuple(cards), rank=event.rank))


def _taken(
    table: Table, event: CheatPileTaken | CheatPenaltyTaken, penalty: CheatPenalty | None
) -> Turn:
    taken = _unredacted(event.cards)
    return Turn(
        msgspec.structs.replace(
            table,
            hands=_at(table.hands, event.seat, sort_cards((*table.hands[event.seat], *taken))),
            pile=(),
            turn=table.turn if event.turn is None else event.turn,
            last_penalty=penalty,
        )
    )


def _last_play(state: InRound) -> PileTop | None:
    """The play whose cards lie on top of the pile when the round stops: the open one."""
    return state.top if isinstance(state, Window) else None


def evolve(state: State, event: OwnEvent) -> State:
    """The state after one of the game's own events (seating's are the builder's): assigns
    what the event says."""
    match event:
        case CheatCardsPlayed():
            return _played(_in_round(state, event).table, event)
        case CheatCalled():
            return Turn(
                msgspec.structs.replace(
                    _window(state, event).table,
                    last_call=CheatCallResult(
                        caller=event.caller,
                        seat=event.seat,
                        rank=event.rank,
                        cards=event.cards,
                        honest=event.honest,
                        taker=event.taker,
                    ),
                )
            )
        case CheatPileTaken():
            table = _in_round(state, event).table
            return _taken(table, event, table.last_penalty)
        case CheatPenaltyTaken():
            penalty = CheatPenalty(seat=event.seat, count=event.count)
            return _taken(_in_round(state, event).table, event, penalty)
        case CheatPlayAccepted():
            return _window(state, event)
        case CheatRoundEnded():
            playing = _in_round(state, event)
            result = CheatRoundResult(
                round=event.round,
                winner=event.winner,
                places=event.places,
                points=event.points,
                hand_sizes=event.hand_sizes,
            )
            return RoundOver(
                table=msgspec.structs.replace(
                    playing.table, points=tuple(event.totals), last_round=result
                ),
                # A round ended by `accept` leaves its last play on the pile.
                last_play=_last_play(playing),
            )
        case DeckRevealed():
            if isinstance(state, Turn | Window):  # a round the table's cap of events cut short
                return RoundOver(table=state.table, last_play=_last_play(state))
            return _over(state, event)
        case CheatRoundDealt():
            match state:
                case Lobby():
                    return _dealt(state.options, state.seeded, state.seats, None, None, event)
                case RoundOver():
                    t = state.table
                    return _dealt(t.options, t.seeded, t.seats, t.points, t.last_round, event)
                case Turn() | Window() | Finished():
                    raise EventOutOfPlace.of(state, event)
                case _:
                    assert_never(state)
        case CheatMatchEnded():
            reason = state_reason(event.reason)
            if isinstance(state, Lobby) and reason is not None:
                return Finished(table=state, winners=tuple(event.winners), reason=reason)
            over = _over(state, event)
            return Finished(
                table=msgspec.structs.replace(over.table, points=tuple(event.points)),
                winners=tuple(event.winners),
                reason=reason,
                last_play=over.last_play,
            )
        case CheatGameCreated():
            return msgspec.structs.replace(
                _lobby(state, event), options=event.options, seeded=event.seeded
            )
        case _:
            assert_never(event)
