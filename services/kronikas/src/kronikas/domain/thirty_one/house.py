"""The house player of Thirty-One: a seat's move from that seat's view and redacted history alone.

Fair by construction: `house_command` never sees the state, only what the API shows the seat (its
`view`, and the round's events `redact`ed for it). Play reveals much: a card taken from the table
is known to be in its taker's hand until given back, and a hand that took the whole table, or was
shown, is known outright. The rest of the other hands is unseen.

How it plays: it plays the round out from each move it may make, many times, each time with the
unseen cards dealt at random to the other hands (from the seat's own `rng`, so a seeded table
replays the same moves), everyone then following a plain sound policy (take what builds the best
suit most, show once the hand is good), and makes the move that costs it the fewest lives.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, TypeAlias

from kronikas.domain.cards import COLOURED, STANDARD, VALUES, Card
from kronikas.domain.thirty_one.commands import Command, Exchange, Keep, Pass, Show, Swap, SwapAll
from kronikas.domain.thirty_one.events import (
    Event,
    ThirtyOneCardSwapped,
    ThirtyOneHandExchanged,
    ThirtyOneHandShown,
    ThirtyOneHandsSwapped,
    ThirtyOneRoundDealt,
)
from kronikas.domain.thirty_one.scoring import MIN_SCORE, THREE_ACES, score, swapped
from kronikas.domain.thirty_one.view_types import ThirtyOneGameView

_SAMPLES: Final = 24
"""Deals of the unseen cards each move is played out against."""
_HORIZON: Final = 30
"""Turns a played-out round may take before whoever is on turn shows."""
_SHOW_AT: Final = {2: 54, 3: 52, 4: 50}
"""The doubled score at which the played-out players show, by players in the round."""
_SHOW_AT_MANY: Final = 48
_LONG: Final = 8
"""From this circuit on the house shows when it may: a table where nobody shows (all of it the
house, say) must still end its rounds."""
_OUT: Final = 3.0
"""How much worse than losing a life it is to go out of the match."""

Move: TypeAlias = tuple[str, ...]
"""A move of a played-out round: ("keep",), ("swap", give, take), ("show",), …"""

_POTENTIALS: dict[tuple[Card, ...], float] = {}


def _potential(hand: tuple[Card, ...]) -> float:
    """How good a hand is on the way: its doubled score, else its best suit (a pair counts)."""
    cached = _POTENTIALS.get(hand)
    if cached is not None:
        return cached
    value = float(score(hand))
    if not value:
        sums: Counter[str] = Counter()
        ranks: Counter[str] = Counter()
        for card in hand:
            if card != COLOURED:
                sums[card[-1]] += VALUES[card[:-1]]
                ranks[card[:-1]] += 1
        best = max(sums.values(), default=0) + (11 if COLOURED in hand else 0)
        # Two of a rank are on the way to 30.5: worth a suit of 16 (two Aces, of 20).
        pairs = [40.0 if rank == "A" else 32.0 for rank, n in ranks.items() if n == 2]
        value = max([1.8 * best, *pairs])
    _POTENTIALS[hand] = value
    return value


class _Round:
    """A round as the seat knows it: its hand, the table, and the cards seen go into others."""

    def __init__(self, view: ThirtyOneGameView, history: Sequence[Event], me: int) -> None:
        table = view.thirty_one
        self.me = me
        n = len(view.players)
        dealer = view.dealer if view.dealer is not None else me
        self.order = [s % n for s in range(dealer + 1, dealer + n + 1) if not view.players[s % n].out]
        self.known: dict[int, Counter[Card]] = {}
        self.unknown: dict[int, int] = {}
        self._follow(history)
        self.hand = tuple(view.me.hand) if view.me is not None else ()
        self.table = tuple(table.table) if table is not None else ()
        for seat in self.order:
            self.known.setdefault(seat, Counter())
            self.unknown.setdefault(seat, 3)
        if table is not None:
            for seat, shown in enumerate(table.shown):
                if shown is not None:
                    self.known[seat], self.unknown[seat] = Counter(shown), 0
        self.deck = (*STANDARD, COLOURED) if view.options.chronicler else STANDARD
        self.lives = {p.seat: p.lives for p in view.players}
        self.show_at = _SHOW_AT.get(len(self.order), _SHOW_AT_MANY)

    def _follow(self, history: Sequence[Event]) -> None:
        """What the round's events tell of the other hands."""
        table: tuple[Card, ...] = ()
        for event in history:
            match event:
                case ThirtyOneRoundDealt():
                    self.order = list(event.seats) or self.order
                    self.known, self.unknown = {}, {}
                    table = tuple(event.table)
                case ThirtyOneCardSwapped(seat=seat, give=give, take=take) if take in table:
                    table = swapped(table, take, give)
                    self._swap(seat, give, take)
                case ThirtyOneHandExchanged(seat=seat) | ThirtyOneHandsSwapped(seat=seat):
                    self.known[seat], self.unknown[seat] = Counter(table), 0
                    table = tuple(event.table)
                case ThirtyOneHandShown(seat=seat, hand=hand):
                    self.known[seat], self.unknown[seat] = Counter(hand), 0
                case _:
                    pass  # the other events move no card

    def _swap(self, seat: int, give: Card, take: Card) -> None:
        known = self.known.setdefault(seat, Counter())
        known[take] += 1
        if known[give]:
            known[give] -= 1
        else:  # one of the cards it was dealt, unseen until now
            self.unknown[seat] = max(0, self.unknown.get(seat, 3) - 1)
        known += Counter()

    def deal(self, rng: random.Random) -> dict[int, tuple[Card, ...]]:
        """Every hand of the round, the unseen cards dealt at random from those nobody saw."""
        seen = Counter(self.hand) + Counter(self.table)
        for seat in self.order:
            if seat != self.me:
                seen += self.known[seat]
        pool = [card for card in self.deck if not seen[card]]
        rng.shuffle(pool)
        hands = {self.me: self.hand}
        for seat in self.order:
            if seat != self.me:
                dealt = (*self.known[seat].elements(), *pool[: self.unknown[seat]])
                del pool[: self.unknown[seat]]
                hands[seat] = (*dealt, *pool[: 3 - len(dealt)])[:3]
        return hands

    def cost(self, losers: Sequence[int]) -> float:
        """What a round's losers cost us: a life of ours, less the lives of the others."""
        others = len(self.order) - 1

        def weight(seat: int) -> float:
            return _OUT if self.lives.get(seat, 1) == 0 else 1.0

        mine = weight(self.me) if self.me in losers else 0.0
        theirs = sum(weight(s) for s in losers if s != self.me) / max(1, others)
        return mine - theirs


class _Play:
    """One round played out with every hand dealt: the rules of docs/rules.md, briefly."""

    def __init__(self, rnd: _Round, view: ThirtyOneGameView, hands: dict[int, tuple[Card, ...]]):
        table = view.thirty_one
        self.rnd, self.hands, self.table = rnd, hands, rnd.table
        self.order = rnd.order
        self.after = {s: rnd.order[(i + 1) % len(rnd.order)] for i, s in enumerate(rnd.order)}
        self.phase = table.phase if table is not None else "turns"
        self.turn = view.turn if view.turn is not None else rnd.me
        self.passed = set(table.passed) if table is not None else set()
        self.shower = table.shown_by if table is not None else None
        circuit = (table.circuit if table is not None else None) or 1
        self.turns = (circuit - 1) * len(rnd.order)
        self.limit = view.options.max_circuits
        self.losers: list[int] | None = None

    def run(self, first: Move) -> list[int]:
        """The losers of the round, our `first` move made and everyone's after it by policy."""
        self.apply(self.turn, first)
        for _ in range(_HORIZON * len(self.order)):
            if self.losers is not None:
                return self.losers
            self.apply(self.turn, self.policy(self.turn))
        return self.losers if self.losers is not None else self._scored()

    def apply(self, seat: int, move: Move) -> None:
        """Make `seat`'s move, as `decide` would."""
        kind, hand = move[0], self.hands[seat]
        if kind in ("keep", "exchange"):
            if kind == "exchange":
                self.hands[seat], self.table = self.table, hand
            self.phase, self.turn = "turns", self.order[0]
            self._aces(seat)
            return
        if kind == "show":
            self.phase, self.shower, self.turn = "last_circuit", seat, self.after[seat]
            return
        if kind == "swap":
            self.hands[seat] = swapped(hand, move[1], move[2])
            self.table = swapped(self.table, move[2], move[1])
        elif kind == "swap_all":
            self.hands[seat], self.table = self.table, hand
        if self.phase == "turns":
            self.turns += 1
            if kind == "pass":
                self.passed.add(seat)
            else:
                self.passed.discard(seat)
        self.turn = self.after[seat]
        self._aces(seat)
        if self.losers is None and self.phase == "last_circuit" and self.turn == self.shower:
            self.losers = self._scored()

    def _aces(self, seat: int) -> None:
        if score(self.hands[seat]) == THREE_ACES:
            self.losers = [s for s in self.order if s != seat]

    def _scored(self) -> list[int]:
        scores = {s: score(self.hands[s]) for s in self.order}
        low = min(scores.values())
        return [s for s, doubled in scores.items() if doubled == low]

    def policy(self, seat: int) -> Move:
        """A plain sound move: build the best suit, show once the hand is good."""
        hand, table = self.hands[seat], self.table
        if self.phase == "dealer_choice":
            return ("exchange",) if _potential(table) > _potential(hand) + 2 else ("keep",)
        swaps = [(swapped(hand, g, t), ("swap", g, t)) for g in hand for t in table]
        if score(table) >= MIN_SCORE:
            swaps.append((table, ("swap_all",)))
        now = score(hand)
        if self.phase == "last_circuit":
            best = max(((score(h), m) for h, m in swaps), default=(0, ("pass",)))
            return best[1] if best[0] > now and best[0] >= MIN_SCORE else ("pass",)
        if self.limit is not None and self.turns >= self.limit * len(self.order):
            return ("show",)
        for after, move in swaps:
            if score(after) == THREE_ACES:
                return move
        if now >= self.rnd.show_at or self.turns >= _HORIZON:
            return ("show",)
        value, move = max(((_potential(h), m) for h, m in swaps), key=lambda o: o[0])
        if value > _potential(hand):
            return move
        if seat not in self.passed:
            return ("pass",)
        return ("show",) if now else move


def _moves(view: ThirtyOneGameView) -> list[Move]:
    """The moves the seat may make now, as played-out moves (commands it does not know left out:
    `leave`, `back`)."""
    legal, me, table = view.legal or [], view.me, view.thirty_one
    if me is None or table is None:
        return []
    hand, cards = tuple(me.hand), tuple(table.table)
    moves: list[Move] = []
    for kind in legal:
        if kind == "swap":
            last = table.phase == "last_circuit"
            moves += [
                ("swap", g, t)
                for g in hand
                for t in cards
                if not last or score(swapped(hand, g, t)) >= MIN_SCORE
            ]
        elif kind in ("keep", "exchange", "swap_all", "pass", "show"):
            moves.append((kind,))
    return moves


def _command(move: Move) -> Command:
    match move:
        case ("swap", give, take):
            return Swap(give=give, take=take)
        case ("keep",):
            return Keep()
        case ("exchange",):
            return Exchange()
        case ("swap_all",):
            return SwapAll()
        case ("pass",):
            return Pass()
        case _:
            return Show()


def house_command(
    view: ThirtyOneGameView, history: Sequence[Event], rng: random.Random
) -> Command | None:
    """The house's move for the seat whose `view` and redacted `history` these are, or None when
    it has none to make."""
    moves = _moves(view)
    if view.me is None or view.thirty_one is None or not moves:
        return None
    if len(moves) == 1:
        return _command(moves[0])
    if ("show",) in moves and (view.thirty_one.circuit or 1) >= _LONG:
        return Show()
    rnd = _Round(view, history, view.me.seat)
    deals = [rnd.deal(rng) for _ in range(_SAMPLES)]
    best: tuple[float, Move] | None = None
    for move in moves:
        total = 0.0
        for hands in deals:
            total -= rnd.cost(_Play(rnd, view, dict(hands)).run(move))
        if best is None or total > best[0]:
            best = (total, move)
    return _command(best[1]) if best is not None else None
