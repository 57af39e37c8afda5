"""Which cards of a deal are opened to whom (docs/api.md, "Fair deals"): a seat's own dealt
cards in its copy of the deal; the table's cards, every card later put face up on it, the
shower's hand, the hands still in the round when the last circuit ends (at three Aces the
winner's only) in everyone's. A deal committed by the old scheme opens nothing: its deck is
revealed whole at its round's end, as before."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import NamedTuple

import kronikas.domain.thirty_one.events as ev
import kronikas.domain.thirty_one.states as st
from kronikas.domain import proofs
from kronikas.domain.cards import Card
from kronikas.domain.thirty_one.options import HAND_SIZE, TABLE_SIZE


class _Deal:
    """A deal as the cache of its openings knows it: by its commitment and round (its root
    commits to its deck and salts), so a lookup hashes one string, not the deck."""

    __slots__ = ("commitment", "deck", "round", "salts")

    def __init__(
        self, commitment: str, round: int, deck: Sequence[Card], salts: Sequence[str]
    ) -> None:
        self.commitment, self.round, self.deck, self.salts = commitment, round, deck, salts

    def __hash__(self) -> int:
        return hash((self.commitment, self.round))

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _Deal)
            and self.commitment == other.commitment
            and self.round == other.round
        )


class _Opened(NamedTuple):
    """Every opening of a deal, by position, and each card's position."""

    openings: tuple[proofs.Opening, ...]
    at: dict[Card, int]


@functools.lru_cache(maxsize=256)
def _opened(deal: _Deal) -> _Opened:
    """The openings of a deal, made once a process for the deals it serves: views and deals are
    redacted far more often than cards are dealt."""
    tree = proofs.tree(deal.deck, deal.salts, deal.commitment)
    openings = tuple(tree.openings(deal.round, range(len(deal.deck))))
    return _Opened(openings, {card: position for position, card in enumerate(deal.deck)})


def _of(deal: st.Deal, round: int) -> _Opened | None:
    return (
        None
        if deal.salts is None
        else _opened(_Deal(deal.commitment, round, deal.deck, deal.salts))
    )


def opened(deal: st.Deal, round: int, cards: Iterable[Card]) -> list[proofs.Opening] | None:
    """The openings of these cards of the deal, in their order (a Thirty-One deck holds each
    card once, so a card names its position); None for a deal of the old scheme."""
    known = _of(deal, round)
    if known is None:
        return None
    return [known.openings[known.at[card]] for card in cards]


def dealt(event: ev.ThirtyOneRoundDealt, viewer: int | None) -> list[proofs.Opening] | None:
    """The openings of a deal for `viewer`: its own hand (positions j, j+m, j+2m for the j-th
    seat of the round's m), then the table's cards; a spectator or a seat out of the round gets
    the table's only. None for a deal of the old scheme."""
    if event.salts is None or event.deck is None:
        return None
    known = _opened(_Deal(event.commitment, event.round, event.deck, event.salts))
    m = len(event.seats)
    positions: list[int] = []
    if viewer in event.seats:
        j = event.seats.index(viewer)
        positions += range(j, HAND_SIZE * m, m)
    positions += range(HAND_SIZE * m, HAND_SIZE * m + TABLE_SIZE)
    return [known.openings[p] for p in positions]


def seen(state: st.State, viewer: int | None) -> list[proofs.Opening]:
    """The openings of the current deal's cards that the viewer's view shows it (its hand, the
    table, the hands shown in the last circuit), by position; [] outside a round or for a deal
    of the old scheme."""
    deal = st.deal_of(state)
    known = None if deal is None else _of(deal, state.match.round)
    if deal is None or known is None:
        return []
    cards: list[Card] = list(deal.table)
    if viewer is not None and 0 <= viewer < len(deal.hands):
        cards += deal.hands[viewer]
    if isinstance(state, st.LastCircuit):
        cards += (card for hand in state.shown if hand is not None for card in hand)
    return [known.openings[p] for p in sorted({known.at[card] for card in cards})]


def every(deals: Sequence[st.Shuffled]) -> list[proofs.Opening]:
    """Every position of every deal, deal by deal (`deals_opened`)."""
    return [
        opening
        for deal in deals
        for opening in proofs.tree(deal.deck, deal.salts).openings(
            deal.round, range(len(deal.deck))
        )
    ]
