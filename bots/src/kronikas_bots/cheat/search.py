"""A Cheat player that searches: determinise what it cannot see, play each move out, keep the best.

For each decision the seat faces — to call the open play or let it go, or what to play — it
draws a few deals of the cards it cannot see that fit everything it saw (`determinise`), and in
each deal plays every candidate move on the rules' own state (`kronikas_rules.cheat.decide` and
`evolve`), then the rest of the round with a quick policy for every seat, itself included. A
round played out gives the seat's place; a rollout cut at `horizon` plays ranks the seats by the
cards they hold, as the rules do at a round's limit. The move with the best mean place wins.

The candidates are few: the house's own choice (`kronikas_rules.cheat.strategy`), the honest
plays (every true card, or one), an honest play with a bluff card added, a bluff of one or two of
the cards the seat will need least, and to call or let go. The deals are not uniform: each play
on the pile is filled with true cards as often as the house's card counting finds it honest
(`kronikas_rules.cheat.counting`), so a seat that has been playing truthfully is believed.

`CheatSearch.choose(view, events, decision)` takes the seat's view and its round's events as the
rules give them, and returns the command; `SearchPolicy` is the same search as a policy of the
environments (`kronikas_rules.envs`: `act(observation, info) -> action`, `info` the seat's
`SeatInfo`), so it plays `cheat_v0`, the decision driver and a live table through the adapter
alike: it searches once at the start of each decision and then gives the actions of its
choice one by one (a play's cards, then `done`).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, cast

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cards import PALE, Card
from kronikas_rules.cheat import counting
from kronikas_rules.cheat.states import ANNOUNCED, next_rank
from kronikas_rules.cheat.strategy import house_command
from kronikas_rules.envs import SeatInfo
from kronikas_rules.envs.cheat import ACCEPT, ENCODING
from kronikas_rules.randomness import SeededRandomness

from .determinise import Impossible, Seen, deck_of, is_true, sample, world

Decision = Literal["call", "play"]
"""What the seat decides now: "call" — call the open play, or let it go (None); "play" — its
play, or `accept` when that is all it may do."""
Move = cheat.Play | cheat.Call | cheat.Accept | None
_SURE_CALL = 0.9
"""How often the rollouts' seats call a play their own hand proves a lie."""
_MARGIN = 0.25
"""What a rollout's margin of cards adds at most to its place's value (0 to 1)."""
_NO_DEALS = SeededRandomness(0)
"""A rollout ends with its round (the match's last in the made-up state): nothing is dealt."""


def round_events(events: Sequence[cheat.Event]) -> list[cheat.Event]:
    """The events of the current round: from its deal on."""
    starts = [i for i, event in enumerate(events) if isinstance(event, cheat.CheatRoundDealt)]
    return list(events[starts[-1] :]) if starts else []


@dataclass
class CheatSearch:
    """The searching seat: `samples` deals per decision, each candidate played out in each;
    `horizon` plays before a rollout is judged by hand sizes; `call_rate` how often the
    rollouts' seats call a play they cannot prove a lie."""

    samples: int = 6
    horizon: int = 24
    call_rate: float = 0.1
    rng: random.Random = field(default_factory=random.Random)
    decisions: int = 0
    rollouts: int = 0
    trace: Callable[[cheat.CheatGameView, list[Move], list[float]], None] | None = None

    def choose(
        self, view: cheat.CheatGameView, events: Sequence[cheat.Event], decision: Decision
    ) -> Move:
        """The seat's move for this decision, from its view and the events it saw (all of them,
        or its round's: only the round's count)."""
        legal = view.legal or []
        if view.me is None or view.cheat is None or view.turn is None:
            return None
        if decision == "call":
            if "call" not in legal:
                return None
            candidates: list[Move] = [None, cheat.Call()]
        else:
            if "accept" in legal:
                return cheat.Accept()
            if "play" not in legal:
                return None
            candidates = self.plays(view, round_events(events))
            if len(candidates) == 1:
                return candidates[0]
        self.decisions += 1
        rates = call_rates(events, len(view.players))
        return self.search(view, round_events(events), candidates, decision, rates)

    def plays(self, view: cheat.CheatGameView, events: Sequence[cheat.Event]) -> list[Move]:
        """The plays worth weighing (each once): the house's, the honest ones, and bluffs."""
        assert view.me is not None and view.cheat is not None
        hand, rank, most = view.me.hand, view.cheat.rank, view.options.max_play
        true = [c for c in hand if is_true(c, rank) and c != PALE]
        if true and len(hand) <= most and len(true) == len(hand):
            return [cheat.Play(cards=list(hand))]  # going out with a true play: nothing better
        order = _need_order(view)
        spare = sorted((c for c in hand if c not in true), key=order)
        options: list[list[Card]] = []
        calm = msgspec.structs.replace(view, legal=[k for k in view.legal or [] if k != "call"])
        house = house_command(calm, list(events), random.Random(self.rng.random()))
        if isinstance(house, cheat.Play):
            options.append(list(house.cards))
        if true:
            options += [true[:most], true[:1]]
            if spare and len(true) < most:
                options.append([*true[: most - 1], spare[0]])
        if spare:
            options.append(spare[:1])
            if len(spare) > 1 and most > 1:
                options.append(spare[:2])
        unique = {tuple(sorted(cards)): cards for cards in options if cards}
        return [cheat.Play(cards=cards) for cards in unique.values()]

    def search(
        self,
        view: cheat.CheatGameView,
        events: Sequence[cheat.Event],
        candidates: list[Move],
        decision: Decision,
        call_rates: Sequence[float],
    ) -> Move:
        """The candidate with the best mean place over the sampled deals."""
        assert view.me is not None
        me = view.me.seat
        seen = Seen.of(me, events)
        learnt = counting.read(view, list(events), me)
        honest = [guess for _, _, _, guess in learnt.pile_plays]
        if len(honest) != len(seen.plays):
            honest = [0.5] * len(seen.plays)
        style = Style(
            truthful=[
                1.0 if seat == me else 1 / (1 + math.exp(-learnt.truthful[seat]))
                for seat in range(len(view.players))
            ],
            calls=[self.call_rate if seat == me else rate for seat, rate in enumerate(call_rates)],
        )
        totals = [0.0] * len(candidates)
        for k in range(self.samples):
            try:
                dealt = sample(view, seen, self.rng, honest)
            except Impossible:
                break
            state = world(view, seen, dealt, rounds_left=False)
            seed = self.rng.random()
            for i, move in enumerate(candidates):
                rollout = Rollout(state, me, self, style, random.Random(seed + k))
                totals[i] += rollout.run(move, decision)
                self.rollouts += 1
        best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
        if self.trace is not None:
            self.trace(view, candidates, totals)
        return candidates[best]


@dataclass
class Style:
    """How each seat plays in the rollouts: how likely it plays truthfully (else at random: any
    cards), and how often it calls a play it cannot prove a lie."""

    truthful: list[float]
    calls: list[float]


def call_rates(events: Sequence[cheat.Event], n: int) -> list[float]:
    """How often each seat called the other seats' plays in the match so far (a prior of a call
    in six plays for a seat not yet seen)."""
    plays, calls = [0] * n, [0] * n
    for event in events:
        if isinstance(event, cheat.CheatCardsPlayed):
            for seat in range(n):
                plays[seat] += seat != event.seat
        elif isinstance(event, cheat.CheatCalled):
            calls[event.caller] += 1
    return [(calls[seat] + 0.5) / (plays[seat] + 3) for seat in range(n)]


def _need_order(view: cheat.CheatGameView) -> Callable[[Card], tuple[int, str]]:
    """A sort key for the seat's cards: the ranks it announces last first (the cheapest bluffs),
    the Coloured Chronicler last of all."""
    assert view.me is not None and view.cheat is not None and view.turn is not None
    n, me = len(view.players), view.me.seat
    ahead = (me - view.turn) % n
    soon: dict[str, int] = {}
    for j in range(len(ANNOUNCED)):
        soon.setdefault(next_rank(view.cheat.rank, ahead + n * j), j)

    def key(card: Card) -> tuple[int, str]:
        if card == PALE:
            return (-2, card)
        if card[0] == "X":
            return (99, card)
        return (-soon.get(card[:-1], 99), card)

    return key


class Rollout:
    """One deal played from a candidate move to the round's end (or `horizon` plays)."""

    def __init__(
        self,
        state: cheat.InRound,
        me: int,
        search: CheatSearch,
        style: Style,
        rng: random.Random,
    ) -> None:
        self.state: cheat.State = state
        self.me, self.search, self.style, self.rng = me, search, style, rng
        self.n = len(state.match.seats)
        deck = deck_of(state.match.options)
        self.true_in_deck = {
            rank: sum(k for card, k in deck.items() if is_true(card, rank)) for rank in ANNOUNCED
        }
        self.places: list[int] | None = None

    def apply(self, seat: int, command: cheat.Play | cheat.Call | cheat.Accept) -> None:
        for event in cheat.decide(self.state, command, seat, _NO_DEALS):
            self.state = cheat.evolve(self.state, event)
            if isinstance(event, cheat.CheatRoundEnded):
                self.places = event.places

    def run(self, move: Move, decision: Decision) -> float:
        """Play `move` for the seat, then the round out; the seat's place, 1 best, as a value
        from 0 (last) to 1 (first)."""
        plays = 0
        if decision == "call":
            if move is not None:
                self.apply(self.me, move)
            else:
                self.window(after=self.me)
        elif move is not None:
            self.apply(self.me, move)
            plays += 1
        while self.places is None and plays < self.search.horizon:
            state = self.state
            if isinstance(state, cheat.Window):
                if self.window(after=state.top.seat):
                    continue
                state = self.state
            if not isinstance(state, cheat.ToPlay | cheat.Window):
                break
            turn = state.deal.turn
            if isinstance(state, cheat.Window) and state.closes_round:
                self.apply(turn, cheat.Accept())
            else:
                self.apply(turn, cheat.Play(cards=self.cards(state, turn)))
                plays += 1
        return self.value()

    def value(self) -> float:
        """The seat's place as a value from 0 (last) to 1 (first), and a little for each card
        the others hold more than the seat: a round won is won, but by how much tells the moves
        apart when most rollouts agree on the place."""
        state = self.state
        assert isinstance(state, cheat.ToPlay | cheat.Window | cheat.RoundOver | cheat.Finished)
        assert state.deal is not None
        sizes = [len(hand) for hand in state.deal.hands]
        places = self.places or cheat.places_of(sizes)
        others = (sum(sizes) - sizes[self.me]) / max(1, self.n - 1)
        margin = (others - sizes[self.me]) / max(1, sum(sizes))
        return 1.0 - (places[self.me] - 1) / max(1, self.n - 1) + _MARGIN * margin

    def window(self, after: int) -> bool:
        """The seats after `after` round the table (never the play's own) decide in turn whether
        to call the open play; True when one called."""
        state = self.state
        assert isinstance(state, cheat.Window)
        top = state.top
        for step in range(1, self.n):
            seat = (after + step) % self.n
            if seat == top.seat:
                break
            if self.calls(state, seat):
                self.apply(seat, cheat.Call())
                return True
        return False

    def calls(self, state: cheat.Window, seat: int) -> bool:
        """The quick policy's call: always on a play that goes out, mostly on a play its own
        hand proves a lie (not always: two seats that always do never end a round), and as
        often as the seat calls on any other; the searching seat itself also calls a play of
        several cards from a seat that plays at random."""
        top, hands = state.top, state.deal.hands
        if not hands[top.seat]:
            return True
        rate = self.style.calls[seat]
        mine = sum(1 for card in hands[seat] if is_true(card, top.rank))
        if len(top.cards) > self.true_in_deck[top.rank] - mine:
            rate = max(rate, _SURE_CALL)
        elif seat == self.me and len(top.cards) > 1:
            rate = max(rate, _SURE_CALL * (1 - self.style.truthful[top.seat]))
        return self.rng.random() < rate

    def cards(self, state: cheat.ToPlay | cheat.Window, seat: int) -> list[Card]:
        """The quick policy's play: every true card it holds (as many as a play takes), else
        one card at random."""
        hand, rank = state.deal.hands[seat], state.deal.rank
        most = state.match.options.max_play
        if self.rng.random() >= self.style.truthful[seat]:
            return self.rng.sample(hand, self.rng.randint(1, min(most, len(hand))))
        true = [card for card in hand if is_true(card, rank) and card != PALE]
        if true:
            return true[:most]
        return [self.rng.choice(hand)]


class SearchPolicy:
    """`CheatSearch` as a policy of the environments: `policy(observation, info)` → an action.
    The search runs once per decision (its choice kept in the decision's `scratch`)."""

    def __init__(self, search: CheatSearch | None = None) -> None:
        self.search = search or CheatSearch()

    def __call__(self, observation: dict[str, Any], info: SeatInfo) -> int:
        if info.kind == "accept":
            return ACCEPT
        if "search" not in info.scratch:
            view = info.view
            assert isinstance(view, cheat.CheatGameView)
            decision: Decision = "call" if info.kind == "answer" else "play"
            events = cast(list[cheat.Event], list(info.events))
            info.scratch["search"] = self.search.choose(view, events, decision)
        return ENCODING.action_for(info, info.scratch["search"])
