"""Cheat's `evolve`: the state after an event, assigning only what the event says."""

from __future__ import annotations

from typing import assert_never

import msgspec

import kronikas.domain.cheat.events as ev
from kronikas.domain.cards import Card
from kronikas.domain.cheat.states import (
    CheatCallResult,
    CheatPenalty,
    CheatRoundResult,
    Deal,
    Finished,
    InRound,
    Lobby,
    Match,
    PileTop,
    RoundOver,
    State,
    ToPlay,
    Window,
    sort_cards,
)
from kronikas.domain.common import DeckRevealed, EventOutOfPlace, expect, state_reason


def _in_round(state: State, event: ev.Event) -> InRound:
    match state:
        case ToPlay() | Window():
            return state
        case Lobby() | RoundOver() | Finished():
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


def _dealt(match: Match, event: ev.CheatRoundDealt) -> ToPlay:
    """A round dealt: the first round's points start at 0 for every seat."""
    points = match.points or (0,) * len(match.seats)
    return ToPlay(
        msgspec.structs.replace(match, points=points, round=event.round, dealer=event.dealer),
        Deal(
            deck=tuple(_unredacted(event.deck)),
            salt=event.salt or "",
            commitment=event.commitment,
            hands=tuple(tuple(_unredacted(hand)) for hand in event.hands),
            set_aside=tuple(_unredacted(event.set_aside_cards)),
            pile=(),
            rank=event.rank,
            turn=event.turn,
        ),
    )


def _played(state: InRound, event: ev.CheatCardsPlayed) -> Window:
    deal = state.deal
    cards = _unredacted(event.cards)
    hand = list(deal.hands[event.seat])
    for card in cards:
        hand.remove(card)
    deal = msgspec.structs.replace(
        deal,
        hands=_at(deal.hands, event.seat, tuple(hand)),
        pile=deal.pile + tuple(cards),
        rank=event.next_rank,
        turn=event.turn,
    )
    top = PileTop(seat=event.seat, cards=tuple(cards), rank=event.rank)
    return Window(state.match, deal, top)


def _taken(
    state: InRound, event: ev.CheatPileTaken | ev.CheatPenaltyTaken, penalty: CheatPenalty | None
) -> ToPlay:
    deal = state.deal
    taken = _unredacted(event.cards)
    deal = msgspec.structs.replace(
        deal,
        hands=_at(deal.hands, event.seat, sort_cards((*deal.hands[event.seat], *taken))),
        pile=(),
        turn=deal.turn if event.turn is None else event.turn,
        last_penalty=penalty,
    )
    return ToPlay(state.match, deal)


def _last_play(state: InRound) -> PileTop | None:
    """The play whose cards lie on top of the pile when the round stops: the open one."""
    return state.top if isinstance(state, Window) else None


def evolve(state: State, event: ev.OwnEvent) -> State:
    """The state after one of the game's own events (seating's are the builder's): assigns
    what the event says."""
    match event:
        case ev.CheatCardsPlayed():
            return _played(_in_round(state, event), event)
        case ev.CheatCalled():
            window = expect(state, Window, event)
            call = CheatCallResult(
                caller=event.caller,
                seat=event.seat,
                rank=event.rank,
                cards=event.cards,
                honest=event.honest,
                taker=event.taker,
            )
            return ToPlay(window.match, msgspec.structs.replace(window.deal, last_call=call))
        case ev.CheatPileTaken():
            playing = _in_round(state, event)
            return _taken(playing, event, playing.deal.last_penalty)
        case ev.CheatPenaltyTaken():
            penalty = CheatPenalty(seat=event.seat, count=event.count)
            return _taken(_in_round(state, event), event, penalty)
        case ev.CheatPlayAccepted():
            return expect(state, Window, event)
        case ev.CheatRoundEnded():
            playing = _in_round(state, event)
            result = CheatRoundResult(
                round=event.round,
                winner=event.winner,
                places=event.places,
                points=event.points,
                hand_sizes=event.hand_sizes,
            )
            match = msgspec.structs.replace(
                playing.match, points=tuple(event.totals), last_round=result
            )
            # A round ended by `accept` leaves its last play on the pile.
            return RoundOver(match, playing.deal, last_play=_last_play(playing))
        case DeckRevealed():
            if isinstance(state, ToPlay | Window):  # a round the table's cap of events cut short
                return RoundOver(state.match, state.deal, last_play=_last_play(state))
            return expect(state, RoundOver, event)
        case ev.CheatRoundDealt():
            match state:
                case Lobby() | RoundOver():
                    return _dealt(state.match, event)
                case ToPlay() | Window() | Finished():
                    raise EventOutOfPlace.of(state, event)
                case _:
                    assert_never(state)
        case ev.CheatMatchEnded():
            reason = state_reason(event.reason)
            winners = tuple(event.winners)
            if isinstance(state, Lobby) and reason is not None:
                return Finished(state.match, winners, reason)
            over = expect(state, RoundOver, event)
            match = msgspec.structs.replace(over.match, points=tuple(event.points))
            return Finished(match, winners, reason, over.deal, over.last_play)
        case ev.CheatGameCreated():
            lobby = expect(state, Lobby, event)
            match = msgspec.structs.replace(lobby.match, options=event.options, seeded=event.seeded)
            return Lobby(match)
        case _:
            assert_never(event)
