"""Cheat invariants over random complete matches (hypothesis): cards are conserved, `legal_moves`
(and `legal`, its types) is exactly what `decide` accepts, no viewer sees a card they cannot know,
events refold, matches end — also when players leave, clocks run out and the house plays seats."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kronikas_rules import cheat
from kronikas_rules.cards import ALL_CODES, PALE
from kronikas_rules.cheat import Accept, Call, CheatOptions, Event, Play
from kronikas_rules.cheat.engine import ENGINE
from kronikas_rules.common import (
    DealsOpened,
    DeckRevealed,
    DomainError,
    IllegalMove,
    NotYourTurn,
    Start,
)
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Back, Join, Leave, TimeOut
from tests.conftest import examples

from .helpers import random_command

standing_of = ENGINE.standing

TIRED = 400
"""Commands into a round after which the random players stop calling (except on a last card):
random bluffing and calling need not end, so this checks that the rules always let a round end."""
MAX_COMMANDS = 20_000
"""Far above what such a match needs; reaching it means a match that does not end."""


CHURN = 0.02
"""How often, at a table with churn, a move is instead a player leaving, a clock running out or
an away player coming back."""

Table = tuple[CheatOptions, int, int, bool]
"""Options, players, the seed of the players' choices, whether players come and go."""


@st.composite
def tables(draw: st.DrawFn) -> Table:
    decks = draw(st.sampled_from([1, 2]))
    options = CheatOptions(
        decks=decks,
        max_play=draw(st.integers(1, 4)),
        rounds=draw(st.integers(1, 3)),
        place_points=tuple(draw(st.lists(st.integers(0, 100), min_size=1, max_size=8))),
        chroniclers=draw(st.booleans()),
        reveal=draw(st.sampled_from(["never", "match_end"])),
    )
    n = draw(st.integers(2, cheat.max_players(options)))
    return options, n, draw(st.integers(0, 2**32)), draw(st.booleans())


Step = tuple[Any, int | None, Any, list[Event], Any]


def _churn(state: cheat.InRound, rnd: random.Random) -> tuple[int | None, Any] | None:
    """A player leaving, the clock of the player on turn running out, or an away player coming
    back; None when none of these may happen now."""
    players = state.match.seats
    choices: list[tuple[int | None, Any]] = [
        (s, Leave()) for s, p in enumerate(players) if not p.left
    ]
    choices += [(s, Back()) for s, p in enumerate(players) if p.away]
    turn = players[state.deal.turn]
    if not (turn.house or turn.left or turn.away):
        choices.append((None, TimeOut(seat=state.deal.turn)))
    return rnd.choice(choices) if choices else None


def match(
    options: CheatOptions, n: int, seed: int, rnd: random.Random, churn: bool = False
) -> Iterator[Step]:
    """(state before, seat, command, events, state after) for every decision of a whole match.
    With `churn` a house player sits at the last seat when there is room for one more join and
    leave in the lobby, and now and then a player leaves, times out or comes back; the house
    plays their seats as the others play theirs."""
    rng = SeededRandomness(seed)
    state = cheat.initial_state(options, True)
    for event in cheat.created(options, True):
        state = cheat.evolve(state, event)
    commands: list[tuple[int | None, Any]] = [
        *((None, Join(player_id=f"p{i}", name=f"P{i}")) for i in range(n)),
        (None, Start()),
    ]
    if churn and n < cheat.max_players(options):  # seat 0 leaves the lobby: the seats move down
        commands[n - 1] = (None, Join(player_id=f"p{n - 1}", name="House", house=True))
        commands[n:n] = [(None, Join(player_id=f"p{n}", name=f"P{n}")), (0, Leave())]
    in_round, round_no = 0, 0
    for count in range(MAX_COMMANDS):
        by_house = False
        if commands:
            seat, command = commands.pop(0)
        elif isinstance(state, cheat.InRound):
            house = cheat.house_seats(state)
            on_turn = cheat.legal(state, state.deal.turn, by_house=state.deal.turn in house)
            assert on_turn, "the player on turn can do nothing"
            assert cheat.waiting_for(state) == state.deal.turn
            now = state.match.round
            in_round, round_no = (in_round + 1, round_no) if now == round_no else (0, now)
            odd = _churn(state, rnd) if churn and rnd.random() < CHURN else None
            if odd is not None:
                seat, command = odd
            else:
                seat, command = random_command(state, rnd, 0.2 if in_round < TIRED else 0.0)
                by_house = seat in house
        else:
            return
        before = state
        events = cheat.decide(state, command, seat, rng, by_house=by_house)
        for event in events:
            state = cheat.evolve(state, event)
        yield before, seat, command, events, state
        assert count < MAX_COMMANDS - 1, "the match did not end"


def _cards_in_play(state: Any) -> Counter[str]:
    deal = state.deal  # every phase after the lobby keeps the round's cards
    held = Counter(c for hand in deal.hands for c in hand)
    return held + Counter(deal.pile) + Counter(deal.set_aside)


def _expected_code(error: DomainError, state: Any, seat: int, kind: str) -> str:
    if state.match.seats[seat].left:  # whatever its player sends
        return "illegal_move"
    allowed = [k for k in cheat.legal(state, seat) if k not in ("leave", "back")]
    own_call = kind == "call" and isinstance(state, cheat.Window) and state.top.seat == seat
    return "illegal_move" if allowed or own_call else "not_your_turn"


SETTINGS = settings(
    max_examples=examples(50), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
"""A match is long: the strategy draws only the table and a seed for the players' choices."""


@SETTINGS
@given(tables())
def test_cards_are_conserved_events_refold_and_every_match_ends(
    table: Table,
) -> None:
    options, n, seed, churn = table
    rnd = random.Random(seed)
    log: list[Event] = [*cheat.created(options, True)]
    dealers: list[int] = []
    probe: Any = cheat.initial_state(options, True)
    final: Any = None
    for _, _, _, events, after in match(options, n, seed, rnd, churn):
        log += events
        final = after
        for event in events:
            probe = cheat.evolve(probe, event)
            if not isinstance(probe, cheat.Lobby):
                deck = probe.deal.deck
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
    assert len(ended) == 1 and ended[0].points == list(probe.match.points)
    assert ended[0].winners == [
        s for s, p in enumerate(ended[0].points) if p == max(ended[0].points)
    ]


SMALL_HAND = 10
"""Up to this many cards in the hand on turn (at most 385 plays) the test enumerates every legal
move in every state, and counts the plays again the slow way; with a bigger hand (a 33-card one has
46,937 plays) only in a few states of each match, drawn at random."""
BIG_HANDS = 3
"""States a match enumerates with a bigger hand on turn."""


def _tries(state: cheat.InRound, seat: int, rnd: random.Random) -> list[Any]:
    """Commands of every type to send: call, accept, plays drawn from the hand in any order, and
    plays that break a rule (none, a card not held, a copy more than held, too many cards)."""
    hand = list(state.deal.hands[seat])
    most = state.match.options.max_play
    missing = [c for c in sorted(ALL_CODES) if c not in hand]
    # A card not held, or (a hand of two decks may hold every code) one more copy than held.
    unheld = [missing[0]] if missing else [hand[0]] * (hand.count(hand[0]) + 1)
    tries: list[Any] = [Call(), Accept(), Play(cards=[]), Play(cards=unheld)]
    if hand:
        tries += [
            Play(cards=rnd.sample(hand, rnd.randint(1, min(most, len(hand))))) for _ in range(3)
        ]
        tries.append(Play(cards=[hand[-1]] * (hand.count(hand[-1]) + 1)))
        if len(hand) > most:
            tries.append(Play(cards=rnd.sample(hand, most + 1)))
    return tries


def _check_the_house(state: cheat.InRound, n: int, rng: SeededRandomness) -> None:
    """The house may choose for the seats it plays what their player could, never leave or
    back, and nothing for the others."""
    house = cheat.house_seats(state)
    for seat in range(n):
        flags = state.match.seats[seat]
        assert (seat in house) == (flags.house or flags.left or flags.away)
        kinds = cheat.legal(state, seat, by_house=True)
        moves = cheat.legal_moves(state, seat, by_house=True)
        assert "leave" not in kinds and "back" not in kinds
        if seat not in house:
            assert kinds == [] and moves == []
            continue
        assert kinds == [k for k in cheat.legal(state, seat) if k not in ("leave", "back")] or (
            flags.left and cheat.legal(state, seat) == []
        )
        for move in moves[-3:]:  # accept and call, or a few plays
            assert cheat.decide(state, move, seat, rng, by_house=True)


def _all_plays(hand: tuple[str, ...], most: int) -> set[tuple[str, ...]]:
    """Every play of `hand` counted the slow way: each choice of cards, duplicates merged."""
    return {
        cheat.sort_cards(list(chosen))
        for size in range(1, most + 1)
        for chosen in itertools.combinations(hand, size)
    }


@SETTINGS
@given(tables())
def test_legal_moves_are_exactly_what_decide_accepts(
    table: Table,
) -> None:
    options, n, seed, churn = table
    rnd, probe = random.Random(seed), random.Random(seed + 2)
    rng = SeededRandomness(seed + 1)
    big = 0
    for before, *_ in match(options, n, seed, rnd, churn):
        if not isinstance(before, cheat.InRound):  # the lobby: a player may only leave
            seated = len(before.match.seats) if isinstance(before, cheat.Lobby) else 0
            for seat in range(n + 1):
                may_leave = seat < seated
                assert cheat.legal(before, seat) == (["leave"] if may_leave else [])
                assert cheat.legal_moves(before, seat) == ([Leave()] if may_leave else [])
            continue
        _check_the_house(before, n, rng)
        if len(before.deal.hands[before.deal.turn]) > SMALL_HAND:
            if big == BIG_HANDS or probe.random() > 0.05:
                for seat in range(n):
                    assert cheat.view(before, seat, "g", 0).legal == cheat.legal(before, seat)
                continue
            big += 1
        for seat in [*range(n), -1, n]:
            allowed = cheat.legal(before, seat)
            moves = cheat.legal_moves(before, seat)
            plays = [move for move in moves if isinstance(move, Play)]
            others = [type(move).__struct_config__.tag for move in moves[len(plays) :]]
            assert (["play"] if plays else []) + others == allowed  # plays first, as `legal`
            if 0 <= seat < n:
                assert cheat.view(before, seat, "g", 0).legal == allowed
            listed = {tuple(play.cards) for play in plays}
            assert len(listed) == len(plays)
            sample = probe.sample(plays, min(len(plays), 8))
            hand = before.deal.hands[seat] if plays else ()
            if plays and len(hand) <= SMALL_HAND:  # every play listed, each once, in hand order
                assert listed == _all_plays(hand, options.max_play)
            for play in sample:
                assert tuple(play.cards) == cheat.sort_cards(play.cards)
                assert 1 <= len(play.cards) <= options.max_play
                assert not Counter(play.cards) - Counter(hand)
            for move in [*sample, *moves[len(plays) :]]:
                assert cheat.decide(before, move, seat, rng)  # each listed move is accepted
            if not 0 <= seat < n:
                continue
            for command in _tries(before, seat, probe):  # and nothing else of these is
                kind = command.__struct_config__.tag
                if isinstance(command, Play):
                    is_listed = cheat.sort_cards(command.cards) in listed
                else:
                    is_listed = kind in others
                try:
                    cheat.decide(before, command, seat, rng)
                except (NotYourTurn, IllegalMove) as error:
                    assert not is_listed, (command, seat, error.detail)
                    expected = (
                        _expected_code(error, before, seat, kind)
                        if kind not in allowed
                        else "illegal_move"
                    )
                    assert error.code == expected, (kind, seat, allowed, error.detail)
                else:
                    assert is_listed, (command, seat, allowed)


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
    table: Table,
) -> None:
    options, n, seed, churn = table
    rnd = random.Random(seed)
    viewers: list[int | None] = [None, *range(n)]
    known: dict[int | None, set[str]] = {v: set() for v in viewers}
    turned_up: set[str] = set()
    version = 0
    state: Any = cheat.initial_state(options, True)
    for _, _, _, events, after in match(options, n, seed, rnd, churn):
        for event in events:
            version += 1
            state = cheat.evolve(state, event)
            if isinstance(event, cheat.CheatRoundDealt):
                known = {v: set() for v in viewers}
                turned_up = set()
            if isinstance(event, cheat.CheatCalled):
                turned_up |= set(event.cards)
            if isinstance(event, cheat.CheatPenaltyTaken):
                turned_up.add(PALE)  # everyone learns the play held it (docs/rules.md)
            if isinstance(state, cheat.InRound):
                for v in range(n):
                    known[v] |= set(state.deal.hands[v])
            for viewer in viewers:
                seen = cheat.redact(event, viewer)
                assert type(seen) is type(event)
                _check_structure(seen, viewer)
                if not isinstance(seen, DeckRevealed | DealsOpened):
                    assert set(_codes(msgspec.to_builtins(seen))) <= known[viewer] | turned_up
        # What the lobby lists is read from the state alone: it agrees with every view.
        standing = standing_of(after)
        for viewer in viewers:
            seen_view = cheat.view(after, viewer, "g", version)
            assert (seen_view.status, len(seen_view.players)) == standing
            assert set(_codes(msgspec.to_builtins(seen_view))) <= known[viewer] | turned_up
            if viewer is None:
                assert seen_view.me is None and seen_view.legal is None
            elif isinstance(after, cheat.InRound):
                hand = list(after.deal.hands[viewer])
                assert seen_view.me is not None and seen_view.me.hand == hand


def _check_structure(event: Any, viewer: int | None) -> None:
    match event:
        case cheat.CheatRoundDealt():
            assert all(hand is None for s, hand in enumerate(event.hands) if s != viewer)
            assert (event.deck, event.salt, event.salts, event.set_aside_cards) == (None,) * 4
        case cheat.CheatCardsPlayed() | cheat.CheatPileTaken() | cheat.CheatPenaltyTaken():
            assert (event.cards is None) == (event.seat != viewer)
        case DeckRevealed():
            raise AssertionError("a deal committed card by card is never revealed whole")
        case _:
            pass
