"""What a seat may do now, stated once (`builder.Statement`): the predicates `decide` checks, the
command types a seat may send (`allowed`) and the swaps it may make (`choices`); the builder
derives `legal` and `legal_moves`, with leave and back, from them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

import kronikas_rules.thirty_one.states as st
from kronikas_rules.cards import Card
from kronikas_rules.common import IllegalMove
from kronikas_rules.thirty_one.commands import Command, Swap
from kronikas_rules.thirty_one.scoring import MIN_SCORE, score, score_text, swapped


def forced_show(state: st.Turns) -> bool:
    """After max_circuits full circuits without a show, the player on turn may only show."""
    limit = state.match.options.max_circuits
    return limit is not None and state.turns >= limit * len(state.deal.order)


def can_swap_all(table: Sequence[Card]) -> bool:
    """The table's cards would score at least 21 as a hand."""
    return score(table) >= MIN_SCORE


def reaches_21(hand: Sequence[Card]) -> bool:
    """The hand scores at least 21: what a swap in the last circuit must leave."""
    return score(hand) >= MIN_SCORE


def check_swap_all(table: tuple[Card, ...]) -> None:
    """Refuse swap_all when the table scores under 21."""
    if not can_swap_all(table):
        raise IllegalMove(
            f"The table scores {score_text(score(table))}; "
            "swap_all needs a table worth at least 21."
        )


def check_swap(hand: tuple[Card, ...], table: tuple[Card, ...], command: Swap) -> None:
    """Refuse a swap of a card not in the hand or not on the table."""
    if command.give not in hand:
        raise IllegalMove(f"{command.give} is not in your hand.")
    if command.take not in table:
        raise IllegalMove(f"{command.take} is not on the table.")


def check_not_forced(state: st.Turns) -> None:
    """Refuse anything but show after `max_circuits` full circuits without one."""
    if forced_show(state):
        limit = state.match.options.max_circuits
        raise IllegalMove(
            f"After {limit} full circuit{'s' if limit != 1 else ''} without a show, "
            "you may only show."
        )


def _any_good_swap(hand: tuple[Card, ...], table: tuple[Card, ...]) -> bool:
    """Some one-card swap leaves the hand at 21 or more (the last circuit's condition)."""
    return any(reaches_21(swapped(hand, give, take)) for give in hand for take in table)


def allowed(state: st.State, seat: int) -> list[str]:
    """The game's command types this seat may send now (the dealer's choice; on turn: swap,
    swap_all, pass and show as the phase and `max_circuits` allow them)."""
    match state:
        case st.Turns():
            if seat != state.turn:
                return []
            if forced_show(state):
                return ["show"]
            moves = ["swap"]
            if can_swap_all(state.deal.table):
                moves.append("swap_all")
            if not state.passed[seat]:
                moves.append("pass")
            moves.append("show")
            return moves
        case st.LastCircuit():
            if seat != state.turn:
                return []
            deal = state.deal
            moves = ["swap"] if _any_good_swap(deal.hands[seat], deal.table) else []
            if can_swap_all(deal.table):
                moves.append("swap_all")
            moves.append("pass")
            return moves
        case st.DealerChoice():
            return ["keep", "exchange"] if seat == state.match.dealer else []
        case st.Lobby() | st.RoundOver() | st.Finished():
            return []
        case _:
            assert_never(state)


def choices(state: st.State, seat: int, kind: str) -> list[Command]:
    """The swaps a seat may make (the one command of `allowed` with fields), by the hand's cards
    then the table's: any in the turns, in the last circuit those that leave 21 or more."""
    deal = st.deal_of(state)
    if kind != "swap" or deal is None:
        return []
    hand, table = deal.hands[seat], deal.table
    last = isinstance(state, st.LastCircuit)
    return [
        Swap(give=give, take=take)
        for give in hand
        for take in table
        if not last or reaches_21(swapped(hand, give, take))
    ]
