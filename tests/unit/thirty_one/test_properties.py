"""Invariants of whole random matches (hypothesis): conservation, legality, secrecy, replay —
also when players leave, clocks run out and the house plays seats."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import event as label
from hypothesis import strategies as st

from kronikas_rules import thirty_one as t
from kronikas_rules.cards import ALL_CODES
from kronikas_rules.common import (
    DeckRevealed,
    DomainError,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Start,
)
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Back, Join, Leave, TimeOut
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.conftest import examples
from tests.unit.thirty_one.test_facts import check_facts

standing_of = THIRTY_ONE.standing

COMMAND_TYPES = ("keep", "exchange", "swap", "swap_all", "pass", "show")
PRESENCE_TYPES = ("leave", "back")
CHURN = 0.03
"""How often, in a match with churn, a move is instead a player leaving, a clock running out or
an away player coming back."""
SIMPLE: tuple[t.Command, ...] = (t.Keep(), t.Exchange(), t.SwapAll(), t.Pass(), t.Show())
NO_SWAP = t.Swap(give="7H", take="8H")
MAX_STEPS = 3000


def tag(command: t.Command) -> str:
    return str(command.__struct_config__.tag)


def game_kinds(state: t.State, seat: int, by_house: bool = False) -> list[str]:
    """The game's command types this seat may send (or the house choose for it): not leave or
    back."""
    return [k for k in t.legal(state, seat, by_house=by_house) if k not in PRESENCE_TYPES]


def candidates(state: t.State, seat: int) -> list[t.Command]:
    """Concrete commands to try. For the seat that may act: the simple ones, and a swap of every
    card it holds or sees (and one it does not) for every one of those, wrong ways round and
    repeats included; a seat that may not act is refused before its command is read."""
    deal = t.deal_of(state)
    if deal is None:
        return [*SIMPLE, NO_SWAP]
    if not game_kinds(state, seat):
        give = deal.hands[seat][0] if deal.hands[seat] else deal.table[1]
        return [*SIMPLE, t.Swap(give=give, take=deal.table[0])]
    seen = [*deal.hands[seat], *deal.table]
    seen.append(next(card for card in t.deck_of(state.match.options) if card not in seen))
    return [*SIMPLE, *(t.Swap(give=give, take=take) for give in seen for take in seen)]


def accepts(state: t.State, command: t.Command, seat: int) -> list[t.Event] | None:
    try:
        return t.decide(state, command, seat, SeededRandomness(0))
    except DomainError:
        return None


def check_legal(state: t.State) -> None:
    """`legal_moves` lists each command at most once, in the types and order of `legal`; `decide`
    accepts every one and refuses every other concrete command, rightly."""
    for seat in range(len(state.match.seats)):
        allowed = t.legal(state, seat)
        moves = t.legal_moves(state, seat)
        assert len(set(moves)) == len(moves)
        assert list(dict.fromkeys(map(tag, moves))) == allowed, (allowed, moves)
        assert set(allowed) <= {*COMMAND_TYPES, *PRESENCE_TYPES}
        for move in moves:
            assert accepts(state, move, seat), (move, seat)
        left = state.match.seats[seat].left
        expected = (
            GameOver
            if t.is_terminal(state)
            else IllegalMove
            if left or game_kinds(state, seat)
            else NotYourTurn
        )
        for command in candidates(state, seat):
            if command in moves:
                continue
            try:
                t.decide(state, command, seat, SeededRandomness(0))
            except DomainError as refused:
                assert type(refused) is expected, (command, seat, refused)
            else:
                raise AssertionError(f"{command} by seat {seat} accepted; legal: {moves}")
        check_the_house(state, seat)


def check_the_house(state: t.State, seat: int) -> None:
    """The house may choose for a seat it plays what its player could, never leave or back, and
    nothing for another seat."""
    flags = state.match.seats[seat]
    house = seat in t.house_seats(state)
    assert house == (flags.house or flags.left or flags.away)
    kinds = t.legal(state, seat, by_house=True)
    moves = t.legal_moves(state, seat, by_house=True)
    assert list(dict.fromkeys(map(tag, moves))) == kinds
    if not house:
        assert kinds == []
        return
    assert set(kinds) <= set(COMMAND_TYPES)
    if not flags.left:
        assert kinds == game_kinds(state, seat)
    for move in moves:
        assert t.decide(state, move, seat, SeededRandomness(0), by_house=True), (move, seat)


def check_cards(state: t.State) -> None:
    """Hands + table + unused cards are exactly the deck, which is the whole pack."""
    deal = t.deal_of(state)
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
    deal = t.deal_of(state)
    standing = standing_of(state)  # what the lobby lists, from the state alone
    for viewer in [None, *range(len(state.match.seats))]:
        view = t.view(state, viewer, "g", version)
        assert (view.status, len(view.players)) == standing
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
            check_facts(state, viewer, view)
        if last_round is not None and last_round["three_aces"] is not None:
            hands = last_round["hands"]
            assert [s for s, hand in enumerate(hands) if hand] == [last_round["three_aces"]]


def check_redaction(before: t.State, event: t.Event, after: t.State) -> None:
    """A redacted event shows a viewer only what they may know at that moment."""
    n = len(after.match.seats)
    tables: set[str] = set()
    for state in (before, after):
        deal = t.deal_of(state)
        if deal is not None:
            tables |= set(deal.table)
    for viewer in [None, *range(n)]:
        seen = t.redact(event, viewer)
        assert type(seen) is type(event)
        cards = cards_in(msgspec.json.decode(msgspec.json.encode(seen)))
        own: set[str] = set()
        for state in (before, after):
            deal = t.deal_of(state)
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
                deal = t.deal_of(after)
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

    def choose(self, state: t.State, seat: int, by_house: bool) -> t.Command:
        moves = t.legal_moves(state, seat, by_house=by_house)
        if t.Show() in moves and self.random.random() < 0.15:
            return t.Show()
        kind = self.random.choice(game_kinds(state, seat, by_house))
        return self.random.choice([move for move in moves if tag(move) == kind])

    def churn(self, state: t.State) -> tuple[int | None, t.Command | TimeOut] | None:
        """A player leaving, the clock of the seat waited for running out, or an away player
        coming back; None when none of these may happen now."""
        seats = state.match.seats
        choices: list[tuple[int | None, t.Command | TimeOut]] = [
            (s, Leave()) for s, flags in enumerate(seats) if not flags.left
        ]
        choices += [(s, Back()) for s, flags in enumerate(seats) if flags.away]
        waited = t.waiting_for(state)
        if waited is not None and waited not in t.house_seats(state):
            choices.append((None, TimeOut(seat=waited)))
        return self.random.choice(choices) if choices else None


def on_turn(state: t.State) -> int:
    """The seat the match waits for: the only one with a move of the game, whoever plays it."""
    house = t.house_seats(state)
    movers = [s for s in range(len(state.match.seats)) if game_kinds(state, s, s in house)]
    assert movers == [t.waiting_for(state)], (movers, type(state).__name__)
    return movers[0]


@settings(
    max_examples=examples(150),
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
    churn=st.booleans(),
)
def test_random_matches_keep_every_invariant(
    players: int, lives: int, max_circuits: int | None, chronicler: bool, seed: int, churn: bool
) -> None:
    options = t.ThirtyOneOptions(lives=lives, max_circuits=max_circuits, chronicler=chronicler)
    THIRTY_ONE.validate_options(options)
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
        house = churn and seat == players - 1
        apply(t.decide(state, Join(player_id=f"p{seat}", name=f"P{seat}", house=house), None, rng))
        check_legal(state)
    if churn and players < t.MAX_PLAYERS:  # seat 0 leaves the lobby: the seats move down
        apply(t.decide(state, Join(player_id="late", name="Late"), None, rng))
        apply(t.decide(state, Leave(), 0, rng))
        assert t.seat_of(state, "p0") is None and t.seat_of(state, "late") == players - 1
        check_legal(state)
    apply(t.decide(state, Start(), None, rng))
    steps = 0
    while not t.is_terminal(state):
        steps += 1
        assert steps < MAX_STEPS, "the match does not end"
        check_legal(state)
        check_views(state, shown_now(state), len(log))
        odd = bot.churn(state) if churn and bot.random.random() < CHURN else None
        if odd is not None:
            apply(t.decide(state, odd[1], odd[0], rng))
            continue
        seat = on_turn(state)
        by_house = seat in t.house_seats(state)
        apply(t.decide(state, bot.choose(state, seat, by_house), seat, rng, by_house=by_house))
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
