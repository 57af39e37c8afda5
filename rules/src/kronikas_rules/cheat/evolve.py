"""Cheat's `evolve`: the state after an event, assigning only what the event says."""

from __future__ import annotations

from typing import TypeVar, assert_never

import msgspec

import kronikas_rules.cheat.events as ev
import kronikas_rules.cheat.states as st
from kronikas_rules import proofs
from kronikas_rules.cards import Card
from kronikas_rules.common import (
    DealsOpened,
    DeckRevealed,
    EventOutOfPlace,
    expect,
    kept,
    state_reason,
)


def _in_round(state: st.State, event: ev.Event) -> st.InRound:
    match state:
        case st.ToPlay() | st.Window():
            return state
        case st.Lobby() | st.RoundOver() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


ItemT = TypeVar("ItemT")


def _at(
    items: tuple[tuple[ItemT, ...], ...], i: int, value: tuple[ItemT, ...]
) -> tuple[tuple[ItemT, ...], ...]:
    return (*items[:i], value, *items[i + 1 :])


def _unredacted(cards: list[Card] | None) -> list[Card]:
    if cards is None:
        raise EventOutOfPlace("A redacted event cannot be folded into a state.")
    return cards


def _dealt(match: st.Match, event: ev.CheatRoundDealt) -> st.ToPlay:
    """A round dealt: the first round's points start at 0 for every seat; each seat holds the
    positions the deal gives it, and the match keeps the deal when it opens every deal at its
    end."""
    points = match.points or (0,) * len(match.seats)
    deck, salts = tuple(_unredacted(event.deck)), tuple(event.salts or ())
    hands = tuple(tuple(_unredacted(hand)) for hand in event.hands)
    kept = match.kept
    if salts and match.options.reveal == "match_end":
        kept = (*kept, st.DealKept(round=event.round, deck=deck, salts=salts))
    return st.ToPlay(
        msgspec.structs.replace(
            match, points=points, round=event.round, dealer=event.dealer, kept=kept
        ),
        st.Deal(
            deck=deck,
            salt=event.salt or "",
            commitment=event.commitment,
            hands=hands,
            set_aside=tuple(_unredacted(event.set_aside_cards)),
            pile=(),
            rank=event.rank,
            turn=event.turn,
            salts=salts,
            tree=proofs.tree(deck, salts, event.commitment) if salts else None,
            held=tuple(
                st.in_hand_order(deck, positions)
                for positions in st.dealt_positions(event.dealer, [len(hand) for hand in hands])
            ),
        ),
    )


def _played(state: st.InRound, event: ev.CheatCardsPlayed) -> st.Window:
    """A play: of each card named, the seat puts down its copy at the lowest position."""
    deal = state.deal
    cards = _unredacted(event.cards)
    hand, held = list(deal.hands[event.seat]), list(deal.held[event.seat])
    at = []
    for card in cards:
        i = hand.index(card)  # hands are in hand order, copies by position
        del hand[i]
        at.append(held.pop(i))
    deal = msgspec.structs.replace(
        deal,
        hands=_at(deal.hands, event.seat, tuple(hand)),
        held=_at(deal.held, event.seat, tuple(held)),
        pile=deal.pile + tuple(cards),
        pile_at=deal.pile_at + tuple(at),
        rank=event.next_rank,
        turn=event.turn,
        plays=deal.plays + 1,
    )
    top = st.PileTop(seat=event.seat, cards=tuple(cards), rank=event.rank, at=tuple(at))
    return st.Window(state.match, deal, top)


def _taken(
    state: st.InRound,
    event: ev.CheatPileTaken | ev.CheatPenaltyTaken,
    penalty: st.CheatPenalty | None,
) -> st.ToPlay:
    deal = state.deal
    _unredacted(event.cards)  # the pile's cards, as `deal.pile_at` places them
    held = st.in_hand_order(deal.deck, (*deal.held[event.seat], *deal.pile_at))
    deal = msgspec.structs.replace(
        deal,
        hands=_at(deal.hands, event.seat, tuple(deal.deck[p] for p in held)),
        held=_at(deal.held, event.seat, held),
        pile=(),
        pile_at=(),
        turn=deal.turn if event.turn is None else event.turn,
        last_penalty=penalty,
    )
    return st.ToPlay(state.match, deal)


def _last_play(state: st.InRound) -> st.PileTop | None:
    """The play whose cards lie on top of the pile when the round stops: the open one."""
    return state.top if isinstance(state, st.Window) else None


def evolve(state: st.State, event: ev.OwnEvent) -> st.State:
    """The state after one of the game's own events (seating's are the builder's): assigns
    what the event says."""
    match event:
        case ev.CheatCardsPlayed():
            return _played(_in_round(state, event), event)
        case ev.CheatCalled():
            window = expect(state, st.Window, event)
            call = kept(st.CheatCallResult, event)
            deal = msgspec.structs.replace(window.deal, last_call=call, called_at=window.top.at)
            return st.ToPlay(window.match, deal)
        case ev.CheatPileTaken():
            playing = _in_round(state, event)
            return _taken(playing, event, playing.deal.last_penalty)
        case ev.CheatPenaltyTaken():
            penalty = st.CheatPenalty(seat=event.seat, count=event.count)
            return _taken(_in_round(state, event), event, penalty)
        case ev.CheatPlayAccepted():
            return expect(state, st.Window, event)
        case ev.CheatRoundEnded():
            playing = _in_round(state, event)
            result = kept(st.CheatRoundResult, event)
            match = msgspec.structs.replace(
                playing.match, points=tuple(event.totals), last_round=result
            )
            # A round ended by `accept` leaves its last play on the pile.
            return st.RoundOver(match, playing.deal, last_play=_last_play(playing))
        case DeckRevealed():
            if isinstance(
                state, st.ToPlay | st.Window
            ):  # a round the table's cap of events cut short
                return st.RoundOver(state.match, state.deal, last_play=_last_play(state))
            return expect(state, st.RoundOver, event)
        case ev.CheatRoundDealt():
            match state:
                case st.Lobby() | st.RoundOver():
                    return _dealt(state.match, event)
                case st.ToPlay() | st.Window() | st.Finished():
                    raise EventOutOfPlace.of(state, event)
                case _:
                    assert_never(state)
        case ev.CheatMatchEnded():
            reason = state_reason(event.reason)
            winners = tuple(event.winners)
            if isinstance(state, st.Lobby) and reason is not None:
                return st.Finished(state.match, winners, reason)
            if isinstance(state, st.ToPlay | st.Window) and reason is not None:
                over = st.RoundOver(state.match, state.deal, last_play=_last_play(state))
            else:  # the round ended first (at the cap, a deal stored before by `deck_revealed`)
                over = expect(state, st.RoundOver, event)
            match = msgspec.structs.replace(over.match, points=tuple(event.points))
            return st.Finished(match, winners, reason, over.deal, over.last_play)
        case DealsOpened():  # right before `match_ended`: it changes nothing of the state
            if isinstance(state, st.Lobby | st.Finished):
                raise EventOutOfPlace.of(state, event)
            return state
        case ev.CheatGameCreated():
            lobby = expect(state, st.Lobby, event)
            match = msgspec.structs.replace(lobby.match, options=event.options, seeded=event.seeded)
            return st.Lobby(match)
        case _:
            assert_never(event)
