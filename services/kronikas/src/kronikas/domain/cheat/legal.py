"""What a seat may do now: the command types (`legal`) and every concrete command (`legal_moves`),
from the one predicate `decide` checks too (`allowed`, the game's; `seating`, leave and back)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import assert_never

from kronikas.domain import seating
from kronikas.domain.cards import Card
from kronikas.domain.cheat.commands import Accept, Call, Command, Play
from kronikas.domain.cheat.states import (
    Finished,
    InRound,
    Lobby,
    RoundOver,
    State,
    Turn,
    Window,
    card_order,
)


def allowed(state: InRound, seat: int) -> list[str]:
    """The game's command types (play, accept, call) a seat of a round in play may send now."""
    table = state.table
    if isinstance(state, Turn):
        return ["play"] if seat == table.turn else []
    top = state.top.seat
    if seat == top:
        return []
    if seat == table.turn:
        return ["play", "call"] if table.hands[top] else ["accept", "call"]
    return ["call"]


def legal(state: State, seat: int, by_house: bool = False) -> list[str]:
    """The command types this seat may send now (`[]` when none): the game's, then `leave` (any
    seat whose player has not left, until the match is over) and `back` (a seat away).

    `by_house`: what the house may choose for the seat, one it plays (`house_seats`): the game's
    commands only, also for a seat whose player left; `[]` for a seat the house does not play."""
    match state:
        case Turn() | Window() if 0 <= seat < len(state.table.seats):
            flags = state.table.seats[seat]
            if not seating.may_act(flags, by_house):
                return []
            return allowed(state, seat) + seating.kinds(flags, by_house)
        case Lobby() if 0 <= seat < len(state.seats):
            return seating.kinds(state.seats[seat], by_house)
        case RoundOver() if 0 <= seat < len(state.table.seats):
            return seating.kinds(state.table.seats[seat], by_house)
        case Lobby() | Turn() | Window() | RoundOver() | Finished():
            return []
        case _:
            assert_never(state)


def legal_moves(state: State, seat: int, by_house: bool = False) -> list[Command]:
    """Every command this seat may send now (OpenSpiel's `legal_actions`), in `legal`'s order of
    types: each distinct play of 1 to `max_play` cards from the hand (fewer cards first, then in
    hand order, each play's cards in hand order), then `accept`, then `call`; last `leave` and
    `back`, so that the first legal move is a move of the game. `by_house` as in `legal`."""
    match state:
        case Turn() | Window() if 0 <= seat < len(state.table.seats):
            table = state.table
            flags = table.seats[seat]
            if not seating.may_act(flags, by_house):
                return []
            kinds = allowed(state, seat)
            moves: list[Command] = []
            if "play" in kinds:
                moves += plays(table.hands[seat], table.options.max_play)
            if "accept" in kinds:
                moves.append(Accept())
            if "call" in kinds:
                moves.append(Call())
            return moves + seating.moves(flags, by_house)
        case Lobby() if 0 <= seat < len(state.seats):
            return [*seating.moves(state.seats[seat], by_house)]
        case RoundOver() if 0 <= seat < len(state.table.seats):
            return [*seating.moves(state.table.seats[seat], by_house)]
        case Lobby() | Turn() | Window() | RoundOver() | Finished():
            return []
        case _:
            assert_never(state)


def plays(hand: Sequence[Card], most: int) -> list[Play]:
    """Every distinct play of 1 to `most` cards from `hand`: each multiset once, even when two decks
    put two copies of a card in the hand; fewer cards first, then in hand order."""
    held = Counter(hand)
    cards = sorted(held, key=card_order)
    copies = [held[card] for card in cards]
    if all(n == 1 for n in copies):  # one copy of each card: itertools, several times faster
        return [
            Play(cards=list(chosen))
            for size in range(1, most + 1)
            for chosen in combinations(cards, size)
        ]
    # Grow the plays one card at a time, each by a card no earlier in hand order than its last
    # (a repeat only while copies remain): every multiset comes out once, already in order.
    layer: list[tuple[tuple[Card, ...], int, int]] = [((), 0, 0)]
    out: list[Play] = []
    for _ in range(most):
        layer = [
            ((*chosen, cards[j]), j, used + 1 if j == last else 1)
            for chosen, last, used in layer
            for j in range(last, len(cards))
            if j != last or used < copies[j]
        ]
        out += [Play(cards=list(chosen)) for chosen, _, _ in layer]
    return out
