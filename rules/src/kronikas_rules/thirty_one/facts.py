"""What a seat's own cards are worth, as its view says (`me`): the hand's score, the swaps it
may make now with the score each gives, and the score of taking the whole table. Read from the
one statement of what a seat may do (`legal`), scored by the rules' scoring (`scoring`), so a
bot or an agent never scores a hand itself."""

from __future__ import annotations

from collections.abc import Sequence

import kronikas_rules.thirty_one.states as st
from kronikas_rules.cards import Card
from kronikas_rules.thirty_one.commands import Swap
from kronikas_rules.thirty_one.legal import choices
from kronikas_rules.thirty_one.options import HAND_SIZE
from kronikas_rules.thirty_one.scoring import score, swapped, wire_score
from kronikas_rules.thirty_one.view_types import ThirtyOneMyHand, ThirtyOneSwapChoice


def my_hand(
    state: st.State, seat: int, player_id: str, hand: tuple[Card, ...], legal: Sequence[str]
) -> ThirtyOneMyHand:
    """The seat's `me`: its hand and what it is worth, with the swaps `legal` lets it make."""
    swaps: list[ThirtyOneSwapChoice] = []
    swap_all: float | None = None
    deal = st.deal_of(state)
    if deal is not None and "swap" in legal:
        swaps = [
            ThirtyOneSwapChoice(
                give=move.give,
                take=move.take,
                score=wire_score(score(swapped(hand, move.give, move.take))),
            )
            for move in choices(state, seat, "swap")
            if isinstance(move, Swap)
        ]
    if deal is not None and "swap_all" in legal:
        swap_all = wire_score(score(deal.table))
    return ThirtyOneMyHand(
        id=player_id,
        seat=seat,
        hand=list(hand),
        score=wire_score(score(hand)) if len(hand) == HAND_SIZE else None,
        swaps=swaps,
        swap_all=swap_all,
    )
