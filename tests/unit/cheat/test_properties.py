"""Cheat invariants over random complete matches (hypothesis): cards are conserved, `legal` is
exactly what `decide` accepts, no viewer sees a card they cannot know, events refold, matches
end."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kronikas.adapters.randomness import SeededRandomness
from kronikas.domain import cheat
from kronikas.domain.cards import ALL_CODES
from kronikas.domain.cheat import Accept, Call, CheatOptions, Event, Play
from kronikas.domain.common import (
    DeckRevealed,
    DomainError,
    IllegalMove,
    Join,
    NotYourTurn,
    Start,
)

from .helpers import random_command

TIRED = 400
"""Commands into a round after which the random players stop calling (except on a last card):
random bluffing and calling need not end, so this checks that the rules always let a round end."""
MAX_COMMANDS = 20_000
"""Far above what such a match needs; reaching it means a match that does not end."""


@st.composite
def tables(draw: st.DrawFn) -> tuple[CheatOptions, int, int]:
    decks = draw(st.sampled_from([1, 2]))
    options = CheatOptions(
        decks=decks,
        max_play=draw(st.integers(1, 4)),
        rounds=draw(st.integers(1, 3)),
        place_points=tuple(draw(st.lists(st.integers(0, 100), min_size=1, max_size=8))),
        chroniclers=draw(st.booleans()),
    )
    return options, draw(st.integers(2, cheat.max_players(options))), draw(st.integers(0, 2**32))


Step = tuple[Any, int | None, Any, list[Event], Any]


def match(options: CheatOptions, n: int, seed: int, rnd: random.Random) -> Iterator[Step]:
    """(state before, seat, command, events, state after) for every decision of a whole match."""
    rng = SeededRandomness(seed)
    state = cheat.initial_state(options, True)
    for event in cheat.created(options, True):
        state = cheat.evolve(state, event)
    commands: list[tuple[int | None, Any]] = [
        *((None, Join(player_id=f"p{i}", name=f"P{i}")) for i in range(n)),
        (None, Start()),
    ]
    in_round, round_no = 0, 0
    for count in range(MAX_COMMANDS):
        if commands:
            seat, command = commands.pop(0)
        elif isinstance(state, cheat.CheatRound):
            assert cheat.legal(state, state.turn), "the player on turn can do nothing"
            in_round, round_no = (
                (in_round + 1, round_no) if state.round == round_no else (0, state.round)
            )
            seat, command = random_command(state, rnd, 0.2 if in_round < TIRED else 0.0)
        else:
            return
        before = state
        events = cheat.decide(state, command, seat, rng)
        for event in events:
            state = cheat.evolve(state, event)
        yield before, seat, command, events, state
        assert count < MAX_COMMANDS - 1, "the match did not end"


def _cards_in_play(state: Any) -> Counter[str]:
    table = state.table if isinstance(state, cheat.CheatRoundOver | cheat.CheatFinished) else state
    held = Counter(c for hand in table.hands for c in hand)
    return held + Counter(table.pile) + Counter(table.set_aside)


def _expected_code(error: DomainError, state: Any, seat: int, kind: str) -> str:
    allowed = cheat.legal(state, seat)
    own_call = kind == "call" and state.top is not None and state.top.seat == seat
    return "illegal_move" if allowed or own_call else "not_your_turn"


SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
"""A match is long: the strategy draws only the table and a seed for the players' choices."""


@SETTINGS
@given(tables())
def test_cards_are_conserved_events_refold_and_every_match_ends(
    table: tuple[CheatOptions, int, int],
) -> None:
    options, n, seed = table
    rnd = random.Random(seed)
    log: list[Event] = [*cheat.created(options, True)]
    dealers: list[int] = []
    probe: Any = cheat.initial_state(options, True)
    final: Any = None
    for _, _, _, events, after in match(options, n, seed, rnd):
        log += events
        final = after
        for event in events:
            probe = cheat.evolve(probe, event)
            if not isinstance(probe, cheat.CheatLobby):
                deck = probe.deck if isinstance(probe, cheat.CheatRound) else probe.table.deck
                assert _cards_in_play(probe) == Counter(deck)
            if isinstance(event, cheat.CheatRoundDealt):
                dealers.append(event.dealer)
                assert event.rank == "7"
    stored = msgspec.json.decode(msgspec.json.encode(log), type=list[Event])  # as a store keeps it
    assert stored == log
    refolded: Any = cheat.initial_state(CheatOptions(), False)
    for event in stored:
        refolded = cheat.evolve(refolded, event)
    assert refolded == probe == final  # folding the log again rebuilds the same state
    assert cheat.is_terminal(probe)
    assert len(dealers) == options.rounds
    assert dealers == [(dealers[0] + r) % n for r in range(options.rounds)]
    ended = [e for e in log if isinstance(e, cheat.CheatMatchEnded)]
    assert len(ended) == 1 and ended[0].points == list(probe.table.points)
    assert ended[0].winners == [
        s for s, p in enumerate(ended[0].points) if p == max(ended[0].points)
    ]


def _tries(state: cheat.CheatRound, seat: int) -> list[tuple[str, Any, bool]]:
    """(type, command, valid) probes: a valid form of each type and some invalid plays."""
    hand = state.hands[seat]
    missing = [c for c in sorted(ALL_CODES) if c not in hand]
    # A card not held, or (a hand of two decks may hold every code) one more copy than held.
    unheld = [missing[0]] if missing else [hand[0]] * (hand.count(hand[0]) + 1)
    tries: list[tuple[str, Any, bool]] = [
        ("play", Play(cards=[hand[0] if hand else "7H"]), True),
        ("play", Play(cards=unheld), False),
        ("call", Call(), True),
        ("accept", Accept(), True),
    ]
    if len(hand) > state.options.max_play:
        tries.append(("play", Play(cards=list(hand[: state.options.max_play + 1])), False))
    return tries


@SETTINGS
@given(tables())
def test_legal_lists_exactly_what_decide_accepts(
    table: tuple[CheatOptions, int, int],
) -> None:
    options, n, seed = table
    rnd = random.Random(seed)
    rng = SeededRandomness(seed + 1)
    for before, *_ in match(options, n, seed, rnd):
        if not isinstance(before, cheat.CheatRound):
            for seat in range(n):
                assert cheat.legal(before, seat) == []
            continue
        for seat in range(n):
            allowed = cheat.legal(before, seat)
            assert cheat.view(before, seat, "g", 0).legal == allowed
            for kind, command, valid in _tries(before, seat):
                if kind in allowed and valid:
                    assert cheat.decide(before, command, seat, rng)
                    continue
                try:
                    cheat.decide(before, command, seat, rng)
                except (NotYourTurn, IllegalMove) as error:
                    expected = (
                        _expected_code(error, before, seat, kind)
                        if kind not in allowed
                        else "illegal_move"
                    )
                    assert error.code == expected, (kind, seat, allowed, error.detail)
                else:
                    raise AssertionError(f"{kind} {command} by {seat} accepted; legal {allowed}")


def _codes(value: Any) -> Iterator[str]:
    """Every card code anywhere in an encoded value."""
    if isinstance(value, str):
        if value in ALL_CODES:
            yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _codes(item)
    elif isinstance(value, list):
        for item in value:
            yield from _codes(item)


@SETTINGS
@given(tables())
def test_no_view_or_event_shows_a_card_its_viewer_cannot_know(
    table: tuple[CheatOptions, int, int],
) -> None:
    options, n, seed = table
    rnd = random.Random(seed)
    viewers: list[int | None] = [None, *range(n)]
    known: dict[int | None, set[str]] = {v: set() for v in viewers}
    turned_up: set[str] = set()
    version = 0
    state: Any = cheat.initial_state(options, True)
    for _, _, _, events, after in match(options, n, seed, rnd):
        for event in events:
            version += 1
            state = cheat.evolve(state, event)
            if isinstance(event, cheat.CheatRoundDealt):
                known = {v: set() for v in viewers}
                turned_up = set()
            if isinstance(event, cheat.CheatCalled):
                turned_up |= set(event.cards)
            if isinstance(state, cheat.CheatRound):
                for v in range(n):
                    known[v] |= set(state.hands[v])
            for viewer in viewers:
                seen = cheat.redact(event, viewer)
                assert type(seen) is type(event)
                _check_structure(seen, viewer)
                if not isinstance(seen, DeckRevealed):
                    assert set(_codes(msgspec.to_builtins(seen))) <= known[viewer] | turned_up
        for viewer in viewers:
            seen_view = cheat.view(after, viewer, "g", version)
            assert set(_codes(msgspec.to_builtins(seen_view))) <= known[viewer] | turned_up
            if viewer is None:
                assert seen_view.me is None and seen_view.legal is None
            elif isinstance(after, cheat.CheatRound):
                assert seen_view.me is not None and seen_view.me.hand == list(after.hands[viewer])


def _check_structure(event: Any, viewer: int | None) -> None:
    match event:
        case cheat.CheatRoundDealt():
            assert all(hand is None for s, hand in enumerate(event.hands) if s != viewer)
            assert (event.deck, event.salt, event.set_aside_cards) == (None, None, None)
        case cheat.CheatCardsPlayed() | cheat.CheatPileTaken() | cheat.CheatPenaltyTaken():
            assert (event.cards is None) == (event.seat != viewer)
        case DeckRevealed():
            assert event.deck is not None and event.salt is not None
        case _:
            pass
