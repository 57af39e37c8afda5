"""What a seat may do now, stated once (`builder.Statement`): the command types a seat may send
(`allowed`, the predicate `decide` checks too) and the plays it may make (`choices`); the
builder derives `legal` and `legal_moves`, with leave and back, from them."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from typing import assert_never

from kronikas_rules.cards import Card
from kronikas_rules.cheat.commands import Command, Play
from kronikas_rules.cheat.states import (
    Finished,
    Lobby,
    RoundOver,
    State,
    ToPlay,
    Window,
    card_order,
)


def allowed(state: State, seat: int) -> list[str]:
    """The game's command types (play, accept, call) a seat may send now: in a round in play,
    the player on turn plays (or, after a play that emptied its player's hand or was the
    round's last allowed, accepts), and any seat but the last play's may call it."""
    match state:
        case ToPlay():
            return ["play"] if seat == state.deal.turn else []
        case Window():
            top = state.top.seat
            if seat == top:
                return []
            if seat == state.deal.turn:
                return ["accept", "call"] if state.closes_round else ["play", "call"]
            return ["call"]
        case Lobby() | RoundOver() | Finished():
            return []
        case _:
            assert_never(state)


def choices(state: State, seat: int, kind: str) -> list[Command]:
    """The plays a seat may make (the one command of `allowed` with fields): each distinct play
    of 1 to `max_play` cards from the hand."""
    if kind != "play" or not isinstance(state, ToPlay | Window):
        return []
    return [*plays(state.deal.hands[seat], state.match.options.max_play)]


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
