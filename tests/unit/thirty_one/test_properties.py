"""Invariants of whole random matches (hypothesis): conservation, legality, secrecy, replay."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as label
from hypothesis import strategies as st

from kronikas.adapters.randomness import SeededRandomness
from kronikas.domain import thirty_one as t
from kronikas.domain.cards import ALL_CODES
from kronikas.domain.common import (
    DeckRevealed,
    DomainError,
    GameOver,
    IllegalMove,
    Join,
    NotYourTurn,
    Start,
)

COMMAND_TYPES = ("keep", "exchange", "swap", "swap_all", "pass", "show")
SIMPLE: dict[str, t.Command] = {
    "keep": t.Keep(),
    "exchange": t.Exchange(),
    "swap_all": t.SwapAll(),
    "pass": t.Pass(),
    "show": t.Show(),
}
MAX_STEPS = 3000


def swaps(state: t.State, seat: int) -> list[t.Swap]:
    """Every one-card swap this seat could name: its cards for the table's."""
    deal: t.Deal | None = getattr(state, "deal", None)
    if deal is None or not deal.hands[seat]:
        return [t.Swap(give="7H", take="8H")]
    return [t.Swap(give=g, take=k) for g in deal.hands[seat] for k in deal.table]


def accepts(state: t.State, command: t.Command, seat: int) -> list[t.Event] | None:
    try:
        return t.decide(state, command, seat, SeededRandomness(0))
    except DomainError:
        return None


def check_legal(state: t.State) -> None:
    """Every listed type is accepted in some form; every other type is refused, rightly."""
    for seat in range(len(state.match.ids)):
        allowed = t.legal(state, seat)
        assert len(set(allowed)) == len(allowed)
        assert set(allowed) <= set(COMMAND_TYPES)
        for kind in COMMAND_TYPES:
            forms = swaps(state, seat) if kind == "swap" else [SIMPLE[kind]]
            if kind in allowed:
                assert any(accepts(state, form, seat) for form in forms), (kind, seat)
                continue
            for form in forms:
                with pytest.raises(DomainError) as refused:
                    t.decide(state, form, seat, SeededRandomness(0))
                expected = (
                    IllegalMove if allowed else GameOver if t.is_terminal(state) else NotYourTurn
                )
                assert type(refused.value) is expected, (kind, seat, refused.value)


def check_cards(state: t.State) -> None:
    """Hands + table + unused cards are exactly the deck, which is the whole pack."""
    deal: t.Deal | None = getattr(state, "deal", None)
    if deal is None:
        return
    m = len(deal.order)
    held = [card for s in deal.order for card in deal.hands[s]] + list(deal.table)
    assert all(len(deal.hands[s]) == 3 for s in deal.order)
    assert all(not deal.hands[s] for s in range(len(deal.hands)) if s not in deal.order)
    assert len(deal.table) == 3
    assert Counter(held) == Counter(deal.deck[: 3 * m + 3])
    assert Counter(deal.deck) == Counter(t.deck_of(state.match.options))


def cards_in(value: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(value, str):
        return {value} & ALL_CODES
    if isinstance(value, list):
        return set().union(*map(cards_in, value)) if value else set()
    if isinstance(value, dict):
        return set().union(*map(cards_in, value.values())) if value else set()
    return set()


def shown_now(state: t.State) -> dict[int, tuple[str, ...]]:
    if isinstance(state, t.LastCircuit):
        return {s: hand for s, hand in enumerate(state.shown) if hand is not None}
    return {}


def check_views(state: t.State, shown: dict[int, tuple[str, ...]], version: int) -> None:
    """No view holds a card its viewer cannot know."""
    deal: t.Deal | None = getattr(state, "deal", None)
    for viewer in [None, *range(len(state.match.ids))]:
        view = t.view(state, viewer, "g", version)
        body = msgspec.json.decode(msgspec.json.encode(view))
        last_round = body.pop("last_round")
        known: set[str] = set()
        if deal is not None:
            known |= set(deal.table)
            for hand in shown.values():
                known |= set(hand)
            if viewer is not None:
                known |= set(deal.hands[viewer])
        assert cards_in(body) <= known, (viewer, cards_in(body) - known)
        if viewer is None:
            assert view.me is None
            assert view.legal is None
        else:
            assert view.me is not None
            assert view.legal == t.legal(state, viewer)
            assert view.me.hand == (list(deal.hands[viewer]) if deal is not None else [])
        if last_round is not None and last_round["three_aces"] is not None:
            hands = last_round["hands"]
            assert [s for s, hand in enumerate(hands) if hand] == [last_round["three_aces"]]


def check_redaction(before: t.State, event: t.Event, after: t.State) -> None:
    """A redacted event shows a viewer only what they may know at that moment."""
    n = len(after.match.ids)
    tables: set[str] = set()
    for state in (before, after):
        deal = getattr(state, "deal", None)
        if deal is not None:
            tables |= set(deal.table)
    for viewer in [None, *range(n)]:
        seen = t.redact(event, viewer)
        assert type(seen) is type(event)
        cards = cards_in(msgspec.json.decode(msgspec.json.encode(seen)))
        own: set[str] = set()
        for state in (before, after):
            deal = getattr(state, "deal", None)
            if deal is not None and viewer is not None:
                own |= set(deal.hands[viewer])
        match seen:
            case t.ThirtyOneRoundDealt():
                assert seen.deck is None
                assert seen.salt is None
                assert [s for s, hand in enumerate(seen.hands) if hand is not None] == (
                    [viewer] if viewer is not None and seen.hands[viewer] is not None else []
                )
                assert cards <= own | set(seen.table)
            case t.ThirtyOneHandShown():
                deal = getattr(after, "deal", None)
                if deal is not None:
                    assert tuple(seen.hand) == deal.hands[seen.seat]
            case t.ThirtyOneRoundEnded():
                if seen.three_aces is not None:
                    assert [s for s, hand in enumerate(seen.hands) if hand] == [seen.three_aces]
            case DeckRevealed():
                pass  # the round is over: the whole deck is public
            case _:
                assert cards <= tables | own


class Bot:
    """Random legal play; without max_circuits it shows sooner or later."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def choose(self, state: t.State, seat: int) -> t.Command:
        allowed = t.legal(state, seat)
        if "show" in allowed and self.random.random() < 0.15:
            return t.Show()
        kind = self.random.choice(allowed)
        if kind != "swap":
            return SIMPLE[kind]
        forms = swaps(state, seat)
        self.random.shuffle(forms)
        return next(form for form in forms if accepts(state, form, seat) is not None)


def on_turn(state: t.State) -> int:
    for seat in range(len(state.match.ids)):
        if t.legal(state, seat):
            return seat
    raise AssertionError(f"nobody may act in {type(state).__name__}")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
@given(
    players=st.integers(2, 9),
    lives=st.integers(0, 3),
    max_circuits=st.none() | st.integers(1, 3),
    chronicler=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_random_matches_keep_every_invariant(
    players: int, lives: int, max_circuits: int | None, chronicler: bool, seed: int
) -> None:
    options = t.ThirtyOneOptions(lives=lives, max_circuits=max_circuits, chronicler=chronicler)
    t.validate_options(options)
    rng = SeededRandomness(seed)
    bot = Bot(seed)
    state = t.initial_state(options, True)
    log: list[t.Event] = []

    def apply(events: list[t.Event]) -> None:
        nonlocal state
        for event in events:
            before = state
            state = t.evolve(state, event)
            log.append(event)
            check_cards(state)
            check_redaction(before, event, state)

    apply(t.created(options, True))
    for seat in range(players):
        apply(t.decide(state, Join(player_id=f"p{seat}", name=f"P{seat}"), None, rng))
        check_legal(state)
    apply(t.decide(state, Start(), None, rng))
    steps = 0
    while not t.is_terminal(state):
        steps += 1
        assert steps < MAX_STEPS, "the match does not end"
        check_legal(state)
        check_views(state, shown_now(state), len(log))
        seat = on_turn(state)
        apply(t.decide(state, bot.choose(state, seat), seat, rng))
    check_legal(state)
    check_views(state, {}, len(log))
    label(f"players {players}")
    label(f"rounds {'<5' if state.match.round < 5 else '<15' if state.match.round < 15 else '15+'}")
    assert isinstance(state, t.Finished)
    assert len(state.winners) == 1
    assert sum(not out for out in state.match.out) == 1
    # folding the events again, even from their stored form, rebuilds the same state
    decoder = msgspec.json.Decoder(t.Event)
    again = t.initial_state(t.ThirtyOneOptions(), False)
    for event in log:
        again = t.evolve(again, decoder.decode(msgspec.json.encode(event)))
    assert again == state
