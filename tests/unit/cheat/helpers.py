"""Builders for Cheat histories: small hand-made deals, and moves run through decide."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cards import Card
from kronikas_rules.cheat import CheatOptions, CheatRoundDealt, Command, Event
from kronikas_rules.cheat.engine import ENGINE
from kronikas_rules.cheat.states import dealt_positions
from kronikas_rules.cheat.view import CheatGameView
from kronikas_rules.common import Randomness, Shuffle, commitment
from kronikas_rules.proofs import SCHEME
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import PlayerJoined
from tests.unit.decider import Given

OPTIONS = CheatOptions()
SALT = "00" * 32


def initial() -> cheat.State:
    return cheat.initial_state(OPTIONS, False)


def given(
    history: Sequence[Event],
) -> Given[CheatOptions, cheat.State, Command, Event, CheatGameView]:
    """`given(events).when(command, seat).then(events)` on the Cheat engine."""
    return Given(ENGINE, history, initial())


def fold(history: Sequence[Event]) -> Any:
    state = initial()
    for event in history:
        state = cheat.evolve(state, event)
    return state


def lobby(n: int, options: CheatOptions = OPTIONS, seeded: bool = False) -> list[Event]:
    """The created event and `n` joins."""
    joins = [PlayerJoined(player_id=f"p{i}", name=f"Player {i}", seat=i) for i in range(n)]
    return [*cheat.created(options, seeded), *joins]


def salts_for(size: int, round: int = 1) -> list[str]:
    """A salt for each position of a fixture's deck, each its own."""
    return [f"{round:016x}{i:016x}" for i in range(size)]


def dealt(
    hands: Sequence[Sequence[Card]],
    dealer: int | None = None,
    round: int = 1,
    set_aside: Sequence[Card] = (),
    committed: bool = False,
) -> CheatRoundDealt:
    """A deal of chosen hands: its deck holds them where a deal puts them (round the table
    from the seat after the dealer, `dealt_positions`), then the cards set aside. Stored as a
    deal was before deals were committed card by card (one hash of the whole deck), unless
    `committed`: then a salt for each position and their Merkle root, as a deal is now."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    sorted_hands = [list(cheat.sort_cards(list(hand))) for hand in hands]
    deck: list[Card] = [""] * sum(len(hand) for hand in hands)
    for hand, positions in zip(
        sorted_hands, dealt_positions(dealer, [len(h) for h in hands]), strict=True
    ):
        for card, position in zip(hand, positions, strict=True):
            deck[position] = card
    deck += set_aside
    event = CheatRoundDealt(
        round=round,
        dealer=dealer,
        turn=(dealer + 1) % n,
        rank="7",
        set_aside=len(set_aside),
        commitment=commitment(deck, SALT),
        hands=sorted_hands,
        set_aside_cards=list(set_aside),
        deck=deck,
        salt=SALT,
    )
    if not committed:
        return event
    salts = salts_for(len(deck), round)
    return msgspec.structs.replace(
        event,
        commitment=Shuffle.committed(deck, salts).commitment,
        salt=None,
        salts=salts,
        scheme=SCHEME,
        deck_size=len(deck),
    )


def table(
    hands: Sequence[Sequence[Card]],
    options: CheatOptions = OPTIONS,
    dealer: int | None = None,
    set_aside: Sequence[Card] = (),
    committed: bool = False,
) -> list[Event]:
    """A started table with these hands; by default seat 0 plays first. Its deal is one stored
    before deals were committed card by card, unless `committed`."""
    deal = dealt(hands, dealer, set_aside=set_aside, committed=committed)
    return [*lobby(len(hands), options), deal]


def run(
    history: Sequence[Event], *moves: tuple[int, Command], rng: Randomness | None = None
) -> list[Event]:
    """The history extended by the events of each move, decided in turn."""
    rng = rng or SeededRandomness(0)
    events = list(history)
    state = fold(events)
    for seat, command in moves:
        for event in cheat.decide(state, command, seat, rng):
            events.append(event)
            state = cheat.evolve(state, event)
    return events


class StackedRandomness:
    """A `Randomness` fake that deals given decks (by round) and picks a given first dealer."""

    def __init__(self, dealer: int, decks: dict[int, Sequence[Card]] | None = None) -> None:
        self.dealer = dealer
        self.decks = decks or {}
        self.shuffled: list[tuple[tuple[Card, ...], int]] = []

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        self.shuffled.append((tuple(cards), round))
        deck = tuple(self.decks.get(round, cards))
        return Shuffle.committed(deck, [SALT[:32]] * len(deck))

    def pick(self, n: int) -> int:
        assert 0 <= self.dealer < n
        return self.dealer


def random_command(
    state: cheat.InRound, rnd: random.Random, call_rate: float = 0.2
) -> tuple[int, Command]:
    """A random legal command: calls now and then, often honest plays when the hand allows.

    Who may call, accept or play is the engine's `legal` (for the seats the house plays, what it
    may choose for them); which cards to play is this player's choice (a uniform pick among
    `legal_moves` would nearly always put down `max_play` cards). Never `leave` or `back`."""
    seats = range(len(state.match.seats))
    house = cheat.house_seats(state)

    def legal(seat: int) -> list[str]:
        return cheat.legal(state, seat, by_house=seat in house)

    callers = [s for s in seats if "call" in legal(s)]
    if callers and (rnd.random() < call_rate or "play" not in legal(state.deal.turn)):
        caller = rnd.choice(callers)
        if "accept" in legal(caller) and rnd.random() < 0.5:
            return caller, cheat.Accept()
        return caller, cheat.Call()
    seat = state.deal.turn
    hand = state.deal.hands[seat]
    honest = [c for c in hand if c[:-1] == state.deal.rank or c[0] == "X"]
    pool = honest if honest and rnd.random() < 0.7 else list(hand)
    count = rnd.randint(1, min(state.match.options.max_play, len(pool)))
    return seat, cheat.Play(cards=rnd.sample(pool, count))
