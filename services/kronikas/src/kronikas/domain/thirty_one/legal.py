"""What a seat may do now: the predicates `decide` checks, and the legal commands built from them
(`legal`, the command types a view lists; `legal_moves`, every concrete command, as OpenSpiel's
`legal_actions`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import assert_never

from kronikas.domain import seating
from kronikas.domain.cards import Card
from kronikas.domain.common import IllegalMove
from kronikas.domain.thirty_one.commands import Command, Exchange, Keep, Pass, Show, Swap, SwapAll
from kronikas.domain.thirty_one.scoring import MIN_SCORE, score, score_text, swapped
from kronikas.domain.thirty_one.states import (
    DealerChoice,
    Finished,
    LastCircuit,
    Lobby,
    RoundOver,
    State,
    Turns,
    is_terminal,
)


def forced_show(state: Turns) -> bool:
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


def check_not_forced(state: Turns) -> None:
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


def legal(state: State, seat: int, by_house: bool = False) -> list[str]:
    """The command types this seat may send now: the game's, then `leave` (any seat whose player
    has not left, until the match is over) and `back` (a seat away).

    `by_house`: what the house may choose for the seat, one it plays (`house_seats`): the game's
    commands only, also for a seat whose player left; `[]` for a seat the house does not play."""
    seats = state.match.seats
    if not 0 <= seat < len(seats) or is_terminal(state):
        return []
    flags = seats[seat]
    if not seating.may_act(flags, by_house):
        return []
    return _game_kinds(state, seat) + seating.kinds(flags, by_house)


def _game_kinds(state: State, seat: int) -> list[str]:
    """The game's command types this seat may send now."""
    match state:
        case Turns():
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
        case LastCircuit():
            if seat != state.turn:
                return []
            deal = state.deal
            moves = ["swap"] if _any_good_swap(deal.hands[seat], deal.table) else []
            if can_swap_all(deal.table):
                moves.append("swap_all")
            moves.append("pass")
            return moves
        case DealerChoice():
            return ["keep", "exchange"] if seat == state.match.dealer else []
        case Lobby() | RoundOver() | Finished():
            return []
        case _:
            assert_never(state)


def legal_moves(state: State, seat: int, by_house: bool = False) -> list[Command]:
    """Every concrete command this seat may send now, each one `decide` accepts (`[]` when none).

    In the order of `legal`: keep, exchange; the swaps, by the hand's cards then the table's;
    swap_all, pass, show; last leave and back, so that the first legal move is a move of the
    game. The command types, without repeats, are `legal(state, seat)`; `by_house` as there.
    """
    seats = state.match.seats
    if not 0 <= seat < len(seats) or is_terminal(state):
        return []
    flags = seats[seat]
    if not seating.may_act(flags, by_house):
        return []
    return _game_moves(state, seat) + seating.moves(flags, by_house)


def _game_moves(state: State, seat: int) -> list[Command]:
    """The game's commands this seat may send now."""
    match state:
        case Turns():
            if seat != state.turn:
                return []
            if forced_show(state):
                return [Show()]
            hand, table = state.deal.hands[seat], state.deal.table
            moves: list[Command] = [Swap(give=give, take=take) for give in hand for take in table]
            if can_swap_all(table):
                moves.append(SwapAll())
            if not state.passed[seat]:
                moves.append(Pass())
            moves.append(Show())
            return moves
        case LastCircuit():
            if seat != state.turn:
                return []
            hand, table = state.deal.hands[seat], state.deal.table
            moves = [
                Swap(give=give, take=take)
                for give in hand
                for take in table
                if reaches_21(swapped(hand, give, take))
            ]
            if can_swap_all(table):
                moves.append(SwapAll())
            moves.append(Pass())
            return moves
        case DealerChoice():
            return [Keep(), Exchange()] if seat == state.match.dealer else []
        case Lobby() | RoundOver() | Finished():
            return []
        case _:
            assert_never(state)
