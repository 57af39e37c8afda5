"""Builders for Thirty-One tests: tables with chosen hands, and a randomness that deals them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kronikas_rules import proofs
from kronikas_rules import thirty_one as t
from kronikas_rules.cards import Card
from kronikas_rules.common import DeckRevealed, Randomness, Shuffle, commitment
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import PlayerJoined
from kronikas_rules.thirty_one.engine import ENGINE
from tests.unit.decider import Given

SALT = "5a17" * 16
"""The salt of a deal stored before deals were committed card by card (`old=True`)."""
SALTS = tuple(f"{position:032x}" for position in range(33))
"""The salts of a stacked deal: one for each position, as a deal commits to today."""


def h(cards: str) -> list[Card]:
    """`h("AH KH 10H")` → `["AH", "KH", "10H"]`."""
    return cards.split()


def lobby(n: int, options: t.ThirtyOneOptions | None = None) -> list[t.Event]:
    """A created table with `n` players seated."""
    options = options or t.ThirtyOneOptions()
    return [
        *t.created(options, False),
        *(PlayerJoined(player_id=f"p{s}", name=f"Player {s}", seat=s) for s in range(n)),
    ]


def order_of(n: int, dealer: int, out: Sequence[int] = ()) -> list[int]:
    """The players of a round in order of play, from the seat after the dealer."""
    return [s % n for s in range(dealer + 1, dealer + n + 1) if s % n not in out]


def arrange(
    hands: Mapping[int, Sequence[Card]],
    table: Sequence[Card],
    dealer: int,
    n: int,
    out: Sequence[int] = (),
    chronicler: bool = False,
) -> list[Card]:
    """A whole deck that deals these hands and this table (docs/engines.md's mapping)."""
    order = order_of(n, dealer, out)
    m = len(order)
    top: list[Card] = [""] * (3 * m)
    for j, s in enumerate(order):
        for k in range(3):
            top[j + k * m] = hands[s][k]
    top += table
    full = t.deck_of(t.ThirtyOneOptions(chronicler=chronicler))
    rest = [card for card in full if card not in top]
    deck = top + rest
    assert sorted(deck) == sorted(full), "a card is dealt twice"
    return deck


def dealt(
    hands: Mapping[int, Sequence[Card]],
    table: Sequence[Card],
    dealer: int,
    n: int,
    round: int = 1,
    out: Sequence[int] = (),
    chronicler: bool = False,
    old: bool = False,
) -> t.ThirtyOneRoundDealt:
    """The deal event of a round with these hands (by seat) and table, as `Stacked` deals it;
    `old`: as a deal was stored before deals were committed card by card."""
    deck = arrange(hands, table, dealer, n, out, chronicler)
    seats = order_of(n, dealer, out)
    by_seat = [list(hands[s]) if s in hands and s not in out else None for s in range(n)]
    if old:
        return t.ThirtyOneRoundDealt(
            round=round,
            dealer=dealer,
            seats=seats,
            hands=by_seat,
            table=list(table),
            commitment=commitment(deck, SALT),
            deck=deck,
            salt=SALT,
        )
    shuffle = Shuffle.committed(deck, SALTS[: len(deck)])
    return t.ThirtyOneRoundDealt(
        round=round,
        dealer=dealer,
        seats=seats,
        hands=by_seat,
        table=list(table),
        commitment=shuffle.commitment,
        deck=deck,
        salts=list(shuffle.salts),
        scheme=proofs.SCHEME,
        deck_size=len(deck),
    )


def opens(deal: t.ThirtyOneRoundDealt, cards: Sequence[Card]) -> list[proofs.Opening]:
    """The openings of these cards of a deal (new scheme), in their order."""
    assert deal.deck is not None and deal.salts is not None
    tree = proofs.Tree(deal.deck, deal.salts)
    return [tree.opening(deal.round, deal.deck.index(card)) for card in cards]


class Stacked:
    """A Randomness that deals prepared decks (by round) and draws a fixed first dealer."""

    def __init__(self, decks: Mapping[int, Sequence[Card]], dealer: int = 0) -> None:
        self.decks = decks
        self.dealer = dealer
        self.picked: list[int] = []

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        deck = tuple(self.decks[round])
        assert sorted(deck) == sorted(cards)
        return Shuffle.committed(deck, SALTS[: len(deck)])

    def pick(self, n: int) -> int:
        self.picked.append(n)
        return self.dealer


def given(
    *history: t.Event,
) -> Given[t.ThirtyOneOptions, t.State, t.Command, t.Event, t.ThirtyOneGameView]:
    """`given(*events)` for the Thirty-One engine."""
    return Given(ENGINE, history, t.initial_state(t.ThirtyOneOptions(), False))


def fold(events: Sequence[Any]) -> t.State:
    """The state after these events."""
    state: t.State = given(*events).state
    return state


def revealed(deal: t.ThirtyOneRoundDealt) -> DeckRevealed:
    """The deck_revealed event that ends the round of a deal of the old scheme."""
    return DeckRevealed(round=deal.round, salt=deal.salt, deck=deal.deck)


def run(
    history: Sequence[Any],
    moves: Sequence[tuple[int, t.Command]],
    rng: Randomness | None = None,
) -> tuple[t.State, list[t.Event]]:
    """Play `moves` (seat, command) after `history`: the state and the events they caused."""
    state = fold(history)
    rng = rng or SeededRandomness(0)
    produced: list[t.Event] = []
    for seat, command in moves:
        for event in t.decide(state, command, seat, rng):
            produced.append(event)
            state = t.evolve(state, event)
    return state, produced
