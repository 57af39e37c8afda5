"""The house player of Thirty-One: a seat's move from that seat's view and redacted history alone.

Fair by construction: `house_command` never sees the state, only what the API shows the seat (its
`view`, and the round's events `redact`ed for it). Play reveals much: a card taken from the table
is known to be in its taker's hand until given back, and a hand that took the whole table, or was
shown, is known outright. The rest of the other hands is unseen.

How it plays: it deals the unseen cards at random to the other hands a few dozen times (from the
seat's own `rng`, so a seeded table replays the same moves), weighing each deal by how well it
explains the choices those hands made this round. Against those deals it shows when the others'
best last turns leave it well ahead; else it takes the swap that builds its best suit most, less
what the table it leaves would let the next hand build, and above all never a table that lets
that hand show or make three Aces at once.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, TypeAlias, assert_never

import kronikas_rules.thirty_one.events as ev
from kronikas_rules.cards import COLOURED, STANDARD, Card
from kronikas_rules.common import DealsOpened, DeckRevealed
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack
from kronikas_rules.thirty_one.commands import Command, Exchange, Keep, Pass, Show, Swap, SwapAll
from kronikas_rules.thirty_one.scoring import MIN_SCORE, THREE_ACES, VALUES, score, swapped
from kronikas_rules.thirty_one.view_types import ThirtyOneGameView

_SAMPLES: Final = 32
"""Deals of the unseen cards a decision is weighed against."""
_SHOW_AT: Final = {2: 54, 3: 52, 4: 50}
"""The doubled score at which we expect the others to show, by players in the round (48 for more
than four)."""
_THETA: Final = 0.5
"""Show when showing now is worth this much (lives the others lose, less ours, per round)."""
_EXCHANGE: Final = 2.0
"""How much more the table must promise than the hand for the dealer to exchange."""
_DENY: Final = 1.0
"""How much what the next hand can build from the table we leave counts against what we build."""
_AGAINST_SHOW: Final = 30.0
"""How much worse a table is that lets the next hand reach a score it would show."""
_AGAINST_ACES: Final = 60.0
"""How much worse a table is that lets the next hand make three Aces."""
_LONG: Final = 8
"""From this circuit on the house shows when it may: a table where nobody shows (all of it the
house, say) must still end its rounds."""
_SLIP: Final = 0.15
"""How likely a sound player makes a choice its hand does not call for."""
_OUT: Final = 3.0
"""How much worse than losing a life it is to go out of the match."""

Move: TypeAlias = tuple[str, ...]
"""A move of a played-out round: ("keep",), ("swap", give, take), ("show",), …"""
Cards: TypeAlias = tuple[Card, ...]
"""A hand, or the table: three cards in their places."""
Deal: TypeAlias = tuple[dict[int, Cards], float]
"""Every hand of the round, the unseen cards dealt at random, and how likely that deal is."""


@functools.cache
def _potential(hand: Cards) -> float:
    """How good a hand is on the way: its doubled score, else its best suit (a pair counts).
    Memoised: a hand is three cards of one deck, so there are few."""
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
    return value


Slot: TypeAlias = Card | int
"""A card of another hand: known, or the index of one it was dealt and we have not seen."""


class _Hand:
    """What the seat knows of another hand, and of the choices that hand made this round."""

    def __init__(self) -> None:
        self.slots: list[Slot] = [0, 1, 2]
        self.seen: dict[int, Card] = {}
        """Cards it was dealt that we saw later (given to the table, or shown)."""
        self.choices: list[tuple[str, tuple[Slot, ...], Cards, bool, Move]] = []
        """Its choices: what, from which hand, with which table, after a pass of its own."""
        self.passed = False

    def choose(self, kind: str, table: Cards, move: Move = ()) -> None:
        """Note a choice it made, from the hand it held then."""
        self.choices.append((kind, tuple(self.slots), table, self.passed, move))
        self.passed = kind == "pass"

    def swap(self, give: Card, take: Card) -> None:
        """It gave `give` to the table for `take`."""
        if give in self.slots:
            self.slots[self.slots.index(give)] = take
            return
        dealt = next((s for s in self.slots if isinstance(s, int)), None)
        if dealt is not None:
            self.seen[dealt] = give
            self.slots[self.slots.index(dealt)] = take

    def reveal(self, hand: Sequence[Card]) -> None:
        """The whole hand is seen: its unseen dealt cards are the ones not known before."""
        rest = Counter(hand) - Counter(s for s in self.slots if isinstance(s, str))
        unseen = [s for s in self.slots if isinstance(s, int)]
        self.seen.update(zip(unseen, rest.elements(), strict=False))
        self.slots = list(hand)

    def unseen(self) -> list[int]:
        """The cards it was dealt that it still holds and we have not seen."""
        return [s for s in self.slots if isinstance(s, int)]


class _Round:
    """A round as the seat knows it: its hand, the table, what it saw of the others."""

    def __init__(self, view: ThirtyOneGameView, history: Sequence[ev.Event], me: int) -> None:
        table = view.thirty_one
        self.me = me
        n = len(view.players)
        dealer = view.dealer if view.dealer is not None else me
        self.order = [
            s % n for s in range(dealer + 1, dealer + n + 1) if not view.players[s % n].out
        ]
        self.others: dict[int, _Hand] = {}
        self._follow(history)
        self.hand = tuple(view.me.hand) if view.me is not None else ()
        self.table = tuple(table.table) if table is not None else ()
        for seat in self.order:
            if seat != me:
                self.others.setdefault(seat, _Hand())
        if table is not None:
            for seat, shown in enumerate(table.shown):
                if shown is not None and seat in self.others:
                    self.others[seat].reveal(shown)
        self.deck = (*STANDARD, COLOURED) if view.options.chronicler else STANDARD
        self.lives = {p.seat: p.lives for p in view.players}
        self.show_at = _SHOW_AT.get(len(self.order), 48)
        start = self.order.index(me) if me in self.order else 0
        self.after = self.order[start + 1 :] + self.order[:start]
        """The others, in the order they play after us."""

    def _follow(self, history: Sequence[ev.Event]) -> None:
        """What the round's events tell of the other hands and how they were played."""
        table: Cards = ()
        shown = False  # the last circuit has begun
        for event in history:
            match event:
                case ev.ThirtyOneRoundDealt():
                    self.order = list(event.seats) or self.order
                    self.others = {s: _Hand() for s in self.order if s != self.me}
                    table, shown = tuple(event.table), False
                case ev.ThirtyOneHandKept(seat=seat):
                    if seat in self.others:
                        self.others[seat].choose("keep", table)
                case ev.ThirtyOnePassed(seat=seat):
                    if seat in self.others and not shown:
                        self.others[seat].choose("pass", table)
                case ev.ThirtyOneCardSwapped(seat=seat, give=give, take=take):
                    if seat in self.others and take in table:
                        self.others[seat].choose("last" if shown else "swap", table, (give, take))
                        self.others[seat].swap(give, take)
                    table = swapped(table, take, give) if take in table else table
                case ev.ThirtyOneHandExchanged(seat=seat) | ev.ThirtyOneHandsSwapped(seat=seat):
                    other = self.others.get(seat)
                    if other is not None and len(table) == len(event.table):
                        kind = "exchange" if isinstance(event, ev.ThirtyOneHandExchanged) else "all"
                        other.choose("last" if shown else kind, table)
                        other.reveal(event.table)
                        other.slots = list(table)
                    table = tuple(event.table)
                case ev.ThirtyOneHandShown(seat=seat, hand=hand):
                    if seat in self.others:
                        if not shown:
                            self.others[seat].choose("show", table)
                        self.others[seat].reveal(hand)
                    shown = True
                case (
                    ev.ThirtyOneGameCreated()
                    | PlayerJoined()
                    | ev.ThirtyOneRoundEnded()
                    | DeckRevealed()
                    | ev.ThirtyOneMatchEnded()
                    | DealsOpened()
                    | PlayerLeft()
                    | SeatAway()
                    | SeatBack()
                ):
                    pass  # they move no card
                case _:
                    assert_never(event)

    def deal(self, rng: random.Random) -> Deal:
        """Every hand of the round, the unseen cards dealt at random from those nobody saw, and
        how well that deal explains the choices the other hands made."""
        seen = Counter(self.hand) + Counter(self.table)
        for other in self.others.values():
            seen.update(s for s in other.slots if isinstance(s, str))
            seen.update(other.seen.values())
        pool = [card for card in self.deck if not seen[card]]
        rng.shuffle(pool)
        hands = {self.me: self.hand}
        weight = 1.0
        for seat, other in self.others.items():
            dealt = dict(other.seen)
            for slot in other.unseen():
                dealt[slot] = pool.pop() if pool else STANDARD[0]
            cards = [s if isinstance(s, str) else dealt[s] for s in other.slots]
            while len(cards) < 3 and pool:  # a history that missed some moves
                cards.append(pool.pop())
            hands[seat] = tuple(cards[:3])
            for kind, slots, table, passed, move in other.choices:
                hand = tuple(s if isinstance(s, str) else dealt[s] for s in slots)
                weight *= _likely(kind, hand, table, passed, move, self.show_at)
        return hands, weight

    def show_value(self, deals: Sequence[Deal]) -> float:
        """What showing now is worth (lives the others lose, less ours): the others' last turns
        played against `deals` of the unseen cards."""
        total = weights = 0.0
        for dealt, weight in deals:
            hands, table = dict(dealt), self.table
            for seat in self.after:
                hands[seat], table = _last_turn(hands[seat], table)
            scores = {s: score(hands[s]) for s in self.order}
            low = min(scores.values())
            total -= weight * self.cost([s for s, doubled in scores.items() if doubled == low])
            weights += weight
        return total / weights if weights else 0.0

    def threats(self, moves: Sequence[Move], deals: Sequence[Deal]) -> list[float]:
        """What the next hand can build from the table each of our `moves` leaves it, over
        `deals`: its best swap's potential, and more when that would win or let it show."""
        totals = [0.0] * len(moves)
        if not self.after:
            return totals
        seat, hand, table = self.after[0], self.hand, self.table
        weights = 0.0
        for dealt, weight in deals:
            theirs = dealt[seat]
            # Its best with each card that may lie on the table: those there, and ours.
            best = {
                c: max(_potential(swapped(theirs, g, c)) for g in theirs) for c in {*table, *hand}
            }
            for i, move in enumerate(moves):
                left = _play(hand, table, move)[1]
                value = max(best[c] for c in left)
                if score(left) >= MIN_SCORE:
                    value = max(value, _potential(left))
                if value >= THREE_ACES:
                    value += _AGAINST_ACES
                elif value >= self.show_at:
                    value += _AGAINST_SHOW
                totals[i] += weight * value
            weights += weight
        return [t / weights for t in totals] if weights else totals

    def cost(self, losers: Sequence[int]) -> float:
        """What a round's losers cost us: a life of ours, less the lives of the others."""
        others = len(self.order) - 1

        def weight(seat: int) -> float:
            """A life, or more when it is the seat's last."""
            return _OUT if self.lives.get(seat, 1) == 0 else 1.0

        mine = weight(self.me) if self.me in losers else 0.0
        theirs = sum(weight(s) for s in losers if s != self.me) / max(1, others)
        return mine - theirs


@lru_cache(maxsize=1 << 16)
def _likely(
    kind: str,
    hand: Cards,
    table: Cards,
    passed: bool,
    move: Move,
    show_at: int,
) -> float:
    """How likely a sound player holding `hand` made this choice (a little even if not).

    Kept for the next deals: the same choices are weighed against the same hands again and
    again (nine times in ten in a long round), and a pure function's answer does not change."""
    if kind in ("keep", "exchange"):
        wanted = "exchange" if _potential(table) > _potential(hand) + _EXCHANGE else "keep"
        return 1.0 if kind == wanted else _SLIP
    if kind == "last":
        return 1.0
    now = score(hand)
    if kind == "show":
        return 1.0 if now >= show_at or (passed and now) else _SLIP
    fit = 1.0 if now < show_at else _SLIP  # it did not show
    if kind == "swap" and len(move) == 2 and move[0] in hand:
        # For the card it took, it gave the one it could spare best.
        kept = _potential(swapped(hand, move[0], move[1]))
        spare = max(_potential(swapped(hand, give, move[1])) for give in hand)
        return fit * (1.0 if kept >= spare else _SLIP)
    if kind in ("pass", "all"):
        best = max(_potential(swapped(hand, g, t)) for g in hand for t in table)
        mine = _potential(table if kind == "all" else hand)
        return fit * (1.0 if mine >= best else _SLIP)
    return fit


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
    """The wire command of a move."""
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


def _last_turn(hand: Cards, table: Cards) -> tuple[Cards, Cards]:
    """A last-circuit turn played for the best score: the hand and the table after it."""
    best, rest = hand, table
    for give in hand:
        for take in table:
            after = swapped(hand, give, take)
            if score(after) > score(best) and score(after) >= MIN_SCORE:
                best, rest = after, swapped(table, take, give)
    if score(table) > score(best) and score(table) >= MIN_SCORE:
        best, rest = table, hand
    return best, rest


def _play(hand: Cards, table: Cards, move: Move) -> tuple[Cards, Cards]:
    """Our hand and the table after our `move`."""
    if move[0] == "swap":
        return swapped(hand, move[1], move[2]), swapped(table, move[2], move[1])
    if move[0] in ("swap_all", "exchange"):
        return table, hand
    return hand, table


def house_command(
    view: ThirtyOneGameView, history: Sequence[ev.Event], rng: random.Random
) -> Command | None:
    """The house's move for the seat whose `view` and redacted `history` these are, or None when
    it has none to make."""
    moves = _moves(view)
    me, open_ = view.me, view.thirty_one
    if me is None or open_ is None or not moves:
        return None
    if len(moves) == 1:
        return _command(moves[0])
    hand, table = tuple(me.hand), tuple(open_.table)
    for move in moves:
        if move[0] != "keep" and score(_play(hand, table, move)[0]) == THREE_ACES:
            return _command(move)  # three Aces win the round on the spot
    if open_.phase == "last_circuit":
        # The last turn: the best score there is (a pass keeps it when equal).
        return _command(max(moves, key=lambda m: (score(_play(hand, table, m)[0]), m == ("pass",))))
    now = score(hand)
    if ("show",) in moves and (open_.circuit or 1) >= _LONG:
        return Show()
    rnd = _Round(view, history, me.seat)
    deals = [rnd.deal(rng) for _ in range(_SAMPLES)]
    if ("show",) in moves and now >= MIN_SCORE and rnd.show_value(deals) >= _THETA:
        return Show()
    # Build our best suit, but mind what the table we leave lets the next hand build.
    options = [m for m in moves if m[0] in ("swap", "swap_all", "pass", "keep", "exchange")]
    if not options:
        return Show()
    threats = rnd.threats(options, deals)
    worth = [
        _potential(_play(hand, table, m)[0]) - _DENY * t
        for m, t in zip(options, threats, strict=True)
    ]
    return _command(options[worth.index(max(worth))])
