"""`evolve`: the state after an event. It only assigns what the event says; an event that cannot
follow the state raises EventOutOfPlace."""

from __future__ import annotations

from typing import assert_never

from msgspec.structs import replace

import kronikas_rules.thirty_one.events as ev
import kronikas_rules.thirty_one.states as st
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
from kronikas_rules.thirty_one.scoring import swapped
from kronikas_rules.thirty_one.view_types import ThirtyOneRoundResult


def evolve(state: st.State, event: ev.OwnEvent) -> st.State:
    """The state after one of the game's own events (seating's are the builder's): only what
    the event says is assigned."""
    match event:
        case ev.ThirtyOneCardSwapped():
            return _swap(state, event)
        case ev.ThirtyOnePassed():
            return _passed(state, event)
        case ev.ThirtyOneHandsSwapped():
            return _swap_all(state, event)
        case ev.ThirtyOneHandShown():
            return _shown(state, event)
        case ev.ThirtyOneHandKept():
            choice = expect(state, st.DealerChoice, event)
            return _turns(choice, choice.deal, event.turn)
        case ev.ThirtyOneHandExchanged():
            choice = expect(state, st.DealerChoice, event)
            return _turns(choice, _traded(choice.deal, event.seat, event.table), event.turn)
        case ev.ThirtyOneRoundDealt():
            return _dealt(state, event)
        case ev.ThirtyOneRoundEnded():
            return _round_ended(state, event)
        case DeckRevealed():
            return _revealed(state, event)
        case ev.ThirtyOneMatchEnded():
            return _ended(state, event)
        case DealsOpened():  # right before `match_ended`: it changes nothing of the state
            if isinstance(state, st.Lobby | st.Finished):
                raise EventOutOfPlace.of(state, event)
            return state
        case ev.ThirtyOneGameCreated():
            expect(state, st.Lobby, event)
            return st.initial_state(event.options, event.seeded)
        case _:
            assert_never(event)


def _revealed(state: st.State, event: DeckRevealed) -> st.State:
    """After a round's end; or a round in play that the table's cap of events cut short (its
    match ends next): the round is over, unscored."""
    match state:
        case st.RoundOver():
            return state
        case st.DealerChoice() | st.Turns() | st.LastCircuit():
            return st.RoundOver(state.match)
        case st.Lobby() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _ended(state: st.State, event: ev.ThirtyOneMatchEnded) -> st.State:
    """After the last round; or, when the table's cap of events ends the match, in the lobby or
    in a round it cuts short (after its `deck_revealed`, for a deal of the old scheme)."""
    match state:
        case st.RoundOver():
            pass
        case st.Lobby() | st.DealerChoice() | st.Turns() | st.LastCircuit() if (
            state_reason(event.reason) is not None
        ):
            pass
        case st.Lobby() | st.DealerChoice() | st.Turns() | st.LastCircuit() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)
    reason = state_reason(event.reason)
    return st.Finished(match=state.match, winners=tuple(event.winners), reason=reason)


def _turns(choice: st.DealerChoice, deal: st.Deal, turn: int | None) -> st.Turns:
    """The turns after the dealer's choice."""
    passed = (False,) * len(choice.match.seats)
    return st.Turns(match=choice.match, deal=deal, turn=turn, passed=passed)


def _passed(state: st.State, event: ev.ThirtyOnePassed) -> st.State:
    match state:
        case st.Turns():
            return replace(
                state,
                turn=event.turn,
                passed=st.put(state.passed, event.seat, True),
                turns=state.turns + 1,
            )
        case st.LastCircuit():
            return replace(state, turn=event.turn)
        case st.Lobby() | st.DealerChoice() | st.RoundOver() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _in_turns(state: st.State, event: ev.OwnEvent) -> st.Turns | st.LastCircuit:
    """The state, which must be in the turns or the last circuit for `event` (a swap) to
    follow it."""
    match state:
        case st.Turns() | st.LastCircuit():
            return state
        case st.Lobby() | st.DealerChoice() | st.RoundOver() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _traded(deal: st.Deal, seat: int, table: list[Card]) -> st.Deal:
    """The seat's hand and the table trade places (an exchange, a swap_all): the seat holds
    what lay on the table, and the table is `table`, the hand the event names."""
    return replace(deal, hands=st.put(deal.hands, seat, deal.table), table=tuple(table))


def _swap(state: st.State, event: ev.ThirtyOneCardSwapped) -> st.State:
    playing = _in_turns(state, event)
    deal = playing.deal
    seat, table = event.seat, deal.table
    deal = replace(
        deal,
        hands=st.put(deal.hands, seat, swapped(deal.hands[seat], event.give, event.take)),
        table=st.put(table, table.index(event.take), event.give),
    )
    return _swapped_in(playing, deal, seat, event.turn)


def _swap_all(state: st.State, event: ev.ThirtyOneHandsSwapped) -> st.State:
    playing = _in_turns(state, event)
    return _swapped_in(
        playing, _traded(playing.deal, event.seat, event.table), event.seat, event.turn
    )


def _swapped_in(
    state: st.Turns | st.LastCircuit, deal: st.Deal, seat: int, turn: int | None
) -> st.State:
    """After a swap or swap_all: a turn taken (and no pass) in the turns; in the last circuit
    only the cards and who is on turn change."""
    match state:
        case st.Turns():
            return replace(
                state,
                deal=deal,
                turn=turn,
                passed=st.put(state.passed, seat, False),
                turns=state.turns + 1,
            )
        case st.LastCircuit():
            return replace(state, deal=deal, turn=turn)
        case _:
            assert_never(state)


def _shown(state: st.State, event: ev.ThirtyOneHandShown) -> st.State:
    hand = tuple(event.hand)
    match state:
        case st.Turns():
            shown: list[tuple[Card, ...] | None] = [None] * len(state.match.seats)
            shown[event.seat] = hand
            return st.LastCircuit(
                match=state.match,
                deal=state.deal,
                turn=event.turn,
                shower=event.seat,
                shown=tuple(shown),
            )
        case st.LastCircuit():
            return replace(state, turn=event.turn, shown=st.put(state.shown, event.seat, hand))
        case st.Lobby() | st.DealerChoice() | st.RoundOver() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _dealt(state: st.State, event: ev.ThirtyOneRoundDealt) -> st.State:
    match state:
        case st.RoundOver() | st.Lobby():
            n = len(state.match.seats)
            order = tuple(event.seats)
            after = [-1] * n
            for i, s in enumerate(order):
                after[s] = order[(i + 1) % len(order)]
            deal = st.Deal(
                order=order,
                after=tuple(after),
                hands=tuple(tuple(hand) if hand is not None else () for hand in event.hands),
                table=tuple(event.table),
                deck=tuple(event.deck or ()),
                salt=event.salt,
                commitment=event.commitment,
                salts=None if event.salts is None else tuple(event.salts),
                tree=None
                if event.salts is None or event.deck is None
                else proofs.tree(event.deck, event.salts, event.commitment),
            )
            game = replace(state.match, round=event.round, dealer=event.dealer)
            if deal.salts is not None and game.options.reveal == "match_end":
                kept_deal = st.Shuffled(event.round, deal.deck, deal.salts)
                game = replace(game, deals=(*game.deals, kept_deal))
            return st.DealerChoice(match=game, deal=deal)
        case st.DealerChoice() | st.Turns() | st.LastCircuit() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)


def _round_ended(state: st.State, event: ev.ThirtyOneRoundEnded) -> st.State:
    match state:
        case st.LastCircuit() | st.Turns() | st.DealerChoice():
            game = state.match
            out = list(game.out)
            for s in event.out:
                out[s] = True
            result = kept(ThirtyOneRoundResult, event)
            return st.RoundOver(
                replace(game, lives=tuple(event.lives), out=tuple(out), last_round=result)
            )
        case st.Lobby() | st.RoundOver() | st.Finished():
            raise EventOutOfPlace.of(state, event)
        case _:
            assert_never(state)
