"""Which cards of a deal are opened to whom (docs/api.md, "Fair deals"): a seat's own dealt
cards in its copy of the deal; the table's cards, every card later put face up on it, the
shower's hand, the hands still in the round when the last circuit ends (at three Aces the
winner's only) in everyone's. A deal committed by the old scheme opens nothing: its deck is
revealed whole at its round's end, as before."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import kronikas_rules.thirty_one.events as ev
import kronikas_rules.thirty_one.states as st
from kronikas_rules import proofs
from kronikas_rules.cards import Card
from kronikas_rules.thirty_one.options import HAND_SIZE, TABLE_SIZE


def _tree(deal: st.Deal) -> proofs.Tree | None:
    """The deal's tree (kept by `proofs.tree` under its root), or None for the old scheme."""
    if deal.salts is None:
        return None
    return deal.tree or proofs.tree(deal.deck, deal.salts, deal.commitment)


def opened(deal: st.Deal, round: int, cards: Iterable[Card]) -> list[proofs.Opening] | None:
    """The openings of these cards of the deal, in their order (a Thirty-One deck holds each
    card once, so a card names its position); None for a deal of the old scheme."""
    tree = _tree(deal)
    return None if tree is None else tree.openings(round, [deal.deck.index(c) for c in cards])


def dealt(event: ev.ThirtyOneRoundDealt, viewer: int | None) -> list[proofs.Opening] | None:
    """The openings of a deal for `viewer`: its own hand (positions j, j+m, j+2m for the j-th
    seat of the round's m), then the table's cards; a spectator or a seat out of the round gets
    the table's only. None for a deal of the old scheme."""
    if event.salts is None or event.deck is None:
        return None
    tree = proofs.tree(event.deck, event.salts, event.commitment)
    m = len(event.seats)
    positions: list[int] = []
    if viewer in event.seats:
        j = event.seats.index(viewer)
        positions += range(j, HAND_SIZE * m, m)
    positions += range(HAND_SIZE * m, HAND_SIZE * m + TABLE_SIZE)
    return tree.openings(event.round, positions)


def seen(state: st.State, viewer: int | None) -> list[proofs.Opening]:
    """The openings of the current deal's cards that the viewer's view shows it (its hand, the
    table, the hands shown in the last circuit), by position; [] outside a round or for a deal
    of the old scheme."""
    deal = st.deal_of(state)
    tree = None if deal is None else _tree(deal)
    if deal is None or tree is None:
        return []
    cards: list[Card] = list(deal.table)
    if viewer is not None and 0 <= viewer < len(deal.hands):
        cards += deal.hands[viewer]
    if isinstance(state, st.LastCircuit):
        cards += (card for hand in state.shown if hand is not None for card in hand)
    return tree.openings(state.match.round, sorted({deal.deck.index(card) for card in cards}))


def every(deals: Sequence[st.Shuffled]) -> list[proofs.Opening]:
    """Every position of every deal, deal by deal (`deals_opened`)."""
    return [
        opening
        for deal in deals
        # Trees of their own, not the process's memo: a long match would push out live deals'.
        for opening in proofs.Tree(deal.deck, deal.salts).openings(
            deal.round, range(len(deal.deck))
        )
    ]
