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
)
from kronikas.domain.cheat.options import CheatOptions
from kronikas.domain.cheat.seats import players_of, stage_of
from kronikas.domain.cheat.states import (
    CheatCallResult,
    CheatFinished,
    CheatLobby,
    CheatPenalty,
    CheatPileTop,
    CheatRound,
    CheatRoundOver,
    CheatRoundResult,
    State,
    sort_cards,
)
from kronikas.domain.common import (
    DeckRevealed,
    EventOutOfPlace,
    PlayerJoined,
    PlayerLeft,
    SeatAway,
    SeatBack,
    state_reason,
)


def _lobby(state: State, event: Event) -> CheatLobby:
    match state:
        case CheatLobby():
            return state
        case CheatRound() | CheatRoundOver() | CheatFinished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _playing(state: State, event: Event) -> CheatRound:
    match state:
        case CheatRound():
            return state
        case CheatLobby() | CheatRoundOver() | CheatFinished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _over(state: State, event: Event) -> CheatRoundOver:
    match state:
        case CheatRoundOver():
            return state
        case CheatLobby() | CheatRound() | CheatFinished():
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
    players: seating.Seating,
    points: tuple[int, ...] | None,
    last_round: CheatRoundResult | None,
    event: CheatRoundDealt,
) -> CheatRound:
    return CheatRound(
        options=options,
        seeded=seeded,
        players=players,
        points=(0,) * len(players) if points is None else points,
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


def _played(state: CheatRound, event: CheatCardsPlayed) -> CheatRound:
    cards = _unredacted(event.cards)
    hand = list(state.hands[event.seat])
    for card in cards:
        hand.remove(card)
    return msgspec.structs.replace(
        state,
        hands=_at(state.hands, event.seat, tuple(hand)),
        pile=state.pile + tuple(cards),
        rank=event.next_rank,
        turn=event.turn,
        top=CheatPileTop(seat=event.seat, cards=tuple(cards), rank=event.rank),
    )


def _taken(
    state: CheatRound, event: CheatPileTaken | CheatPenaltyTaken, penalty: CheatPenalty | None
) -> CheatRound:
    taken = _unredacted(event.cards)
    return msgspec.structs.replace(
        state,
        hands=_at(state.hands, event.seat, sort_cards((*state.hands[event.seat], *taken))),
        pile=(),
        top=None,
        turn=state.turn if event.turn is None else event.turn,
        last_penalty=penalty,
    )


def _seated(state: State, event: seating.SeatingEvent) -> State:
    """The state with its seating after a seating event (`seating.evolve`)."""
    players = seating.evolve(players_of(state), event, stage_of(state), state)
    match state:
        case CheatLobby() | CheatRound():
            return msgspec.structs.replace(state, players=players)
        case CheatRoundOver():
            return CheatRoundOver(table=msgspec.structs.replace(state.table, players=players))
        case CheatFinished():  # `seating.evolve` takes no event once the match is over
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def evolve(state: State, event: Event) -> State:
    """The state after an event: assigns what the event says."""
    match event:
        case CheatCardsPlayed():
            return _played(_playing(state, event), event)
        case CheatCalled():
            return msgspec.structs.replace(
                _playing(state, event),
                top=None,
                last_call=CheatCallResult(
                    caller=event.caller,
                    seat=event.seat,
                    rank=event.rank,
                    cards=event.cards,
                    honest=event.honest,
                    taker=event.taker,
                ),
            )
        case CheatPileTaken():
            table = _playing(state, event)
            return _taken(table, event, table.last_penalty)
        case CheatPenaltyTaken():
            penalty = CheatPenalty(seat=event.seat, count=event.count)
            return _taken(_playing(state, event), event, penalty)
        case CheatPlayAccepted():
            return _playing(state, event)
        case CheatRoundEnded():
            table = _playing(state, event)
            result = CheatRoundResult(
                round=event.round,
                winner=event.winner,
                places=event.places,
                points=event.points,
                hand_sizes=event.hand_sizes,
            )
            return CheatRoundOver(
                # `top` stays: a round ended by `accept` leaves its last play on the pile.
                table=msgspec.structs.replace(table, points=tuple(event.totals), last_round=result)
            )
        case DeckRevealed():
            if isinstance(state, CheatRound):  # a round the table's cap of events cut short
                return CheatRoundOver(table=state)
            return _over(state, event)
        case CheatRoundDealt():
            match state:
                case CheatLobby():
                    return _dealt(state.options, state.seeded, state.players, None, None, event)
                case CheatRoundOver():
                    t = state.table
                    return _dealt(t.options, t.seeded, t.players, t.points, t.last_round, event)
                case CheatRound() | CheatFinished():
                    raise EventOutOfPlace.of(state, event)
                case _:
                    assert_never(state)
        case CheatMatchEnded():
            reason = state_reason(event.reason)
            if isinstance(state, CheatLobby) and reason is not None:
                return CheatFinished(table=state, winners=tuple(event.winners), reason=reason)
            over = _over(state, event)
            return CheatFinished(
                table=msgspec.structs.replace(over.table, points=tuple(event.points)),
                winners=tuple(event.winners),
                reason=reason,
            )
        case PlayerJoined() | PlayerLeft() | SeatAway() | SeatBack():
            return _seated(state, event)
        case CheatGameCreated():
            return msgspec.structs.replace(
                _lobby(state, event), options=event.options, seeded=event.seeded
            )
        case _:
            assert_never(event)
