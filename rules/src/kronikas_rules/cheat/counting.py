"""What the house remembers of a Cheat round for a seat it plays: where the seat's cards are and
how each other seat plays, read from that seat's view and its redacted events alone
(`strategy.py` plays from it). A reading is kept every few events, keyed by a digest of the
round's events so far, so a later question folds only the events since."""

from __future__ import annotations

import copy
import functools
import hashlib
import math
import weakref
from collections import Counter
from collections.abc import Sequence
from typing import Final, NamedTuple, assert_never

import msgspec

import kronikas_rules.cheat.events as ev
from kronikas_rules.cards import COLOURED, PALE, Card, make_deck
from kronikas_rules.cheat.events import Event
from kronikas_rules.cheat.states import ANNOUNCED
from kronikas_rules.cheat.view import CheatGameView
from kronikas_rules.common import DealsOpened, DeckRevealed
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack

BLUFF_COUNTS: Final = {1: 0.85, 2: 0.1, 3: 0.03, 4: 0.02}
"""How many cards a truthful player bluffs with when it holds no true card."""
_SLIP: Final = 0.05
"""How often a truthful player does what it otherwise would not: no model is ever certain."""
_SURE: Final = 8.0
"""The most log-odds evidence gives a seat's way of playing: it never makes us certain."""


def is_true(card: Card, rank: str) -> bool:
    """Whether the card is true when called as `rank` (XC always; a called XP counts as true)."""
    return card[0] == "X" or card[:-1] == rank


def true_count(cards: Counter[Card], rank: str) -> int:
    """How many of `cards` are true for `rank`."""
    return sum(n for card, n in cards.items() if is_true(card, rank))


def hypergeometric(good: int, pool: int, draws: int) -> list[float]:
    """P(X = x) for the good cards among `draws` taken from `pool`, `good` of them good."""
    pool = max(pool, 0)
    draws, good = max(0, min(draws, pool)), max(0, min(good, pool))
    total = math.comb(pool, draws)
    return [
        math.comb(good, x) * math.comb(pool - good, draws - x) / total
        for x in range(min(good, draws) + 1)
    ]


class Vantage(NamedTuple):
    """Where a seat reads a round from: the table's size and cards, and the seat."""

    n: int
    me: int
    decks: int
    chroniclers: bool
    max_play: int

    @classmethod
    def of(cls, view: CheatGameView, me: int) -> Vantage:
        options = view.options
        return cls(len(view.players), me, options.decks, options.chroniclers, options.max_play)


class Learnt:
    """What the seat has learnt in the round: where its cards are, and how each seat plays."""

    def __init__(self, table: Vantage) -> None:
        self.n, self.me, self.max_play = table.n, table.me, table.max_play
        deck = Counter(make_deck(table.decks, (COLOURED, PALE) if table.chroniclers else ()))
        self.deck_size = deck.total()
        self.deck_true = {rank: true_count(deck, rank) for rank in ANNOUNCED}
        self.truthful = [0.0] * self.n
        """Log-odds, by seat, that it plays truthfully rather than at random."""
        self.called_me = self.caught_me = 0
        self.deal([])

    def deal(self, hand: list[Card]) -> None:
        """Forget the last round: a new one is dealt, `hand` ours."""
        self.mine: Counter[Card] = Counter(hand)
        self.known = [Counter[Card]() for _ in range(self.n)]
        """Cards each other seat holds, in hand or face down on the pile, that we saw go there."""
        self.told = [Counter[Card]() for _ in range(self.n)]
        """Cards each other seat saw go into our hand and not come out again."""
        self.on_pile: Counter[Card] = Counter()
        self.turned: Counter[Card] = Counter()
        self.pile_plays: list[tuple[int, int, str, float]] = []
        """The plays on the pile: seat, count, rank announced, how likely it was honest."""
        self.sizes = [0] * self.n

    def copy(self) -> Learnt:
        """An independent copy, to fold more events into."""
        other = copy.copy(self)
        other.truthful, other.sizes = list(self.truthful), list(self.sizes)
        other.mine, other.on_pile = Counter(self.mine), Counter(self.on_pile)
        other.known = [Counter(held) for held in self.known]
        other.told = [Counter(held) for held in self.told]
        other.turned, other.pile_plays = Counter(self.turned), list(self.pile_plays)
        return other

    def unplaced(self, rank: str) -> tuple[int, int]:
        """The cards whose place we do not know (other hands, their face-down cards, set aside):
        how many of them are true for `rank`, and how many in all."""
        true, cards = self.deck_true[rank], self.deck_size
        for held in (self.mine, self.on_pile, *self.known):
            true -= true_count(held, rank)
            cards -= held.total()
        return max(0, true), max(0, cards)

    def honesty(self, seat: int, k: int, rank: str, before: int) -> tuple[float, float, float]:
        """P(count k | truthful), P(count k | random) and P(honest | count k) of a play by `seat`
        from a hand of `before` cards."""
        theirs = self.known[seat]
        known_count = min(theirs.total(), before)
        known_true = min(known_count, true_count(theirs, rank))
        free_true, pool = self.unplaced(rank)
        most = max(1, min(self.max_play, before))
        true_k = rand_k = honest = 0.0
        weight = 1 / (1 + math.exp(-self.truthful[seat]))
        for x, p in enumerate(hypergeometric(free_true, pool, before - known_count)):
            h = known_true + x
            t_honest = (1 - _SLIP) if h >= 1 and k == min(h, self.max_play) else 0.0
            t_honest += _SLIP * 0.25 if 0 < k <= h else 0.0
            t_lie = BLUFF_COUNTS.get(k, _SLIP) * (1.0 if h == 0 else _SLIP)
            r_honest = math.comb(h, k) / math.comb(before, k) / most if k <= before else 0.0
            true_k += p * (t_honest + t_lie)
            rand_k += p / most
            honest += p * (weight * t_honest + (1 - weight) * r_honest)
        total = weight * true_k + (1 - weight) * rand_k
        return true_k, rand_k, (honest / total if total > 0 else 0.0)

    def _weigh(self, seat: int, truthful: float, random_: float) -> None:
        """Add the likelihoods of one thing `seat` did, truthful or random, to what we think."""
        step = math.log(max(truthful, 1e-9) / max(random_, 1e-9))
        self.truthful[seat] = max(-_SURE, min(_SURE, self.truthful[seat] + step))

    def fold(self, event: Event) -> None:
        """Take note of one event."""
        match event:
            case ev.CheatRoundDealt():
                self.deal(event.hands[self.me] or [])
                self.sizes = [(self.deck_size - event.set_aside) // self.n] * self.n
            case ev.CheatCardsPlayed(seat=seat, count=k):
                before = self.sizes[seat]
                self.sizes[seat] = max(0, before - k)
                if seat == self.me:
                    cards = Counter(event.cards or ())
                    honest = float(true_count(cards, event.rank) == k)
                    self.pile_plays.append((seat, k, event.rank, honest))
                    self.mine -= cards
                    self.on_pile += cards
                    for told in self.told:
                        told -= cards
                    return
                true_k, rand_k, honest_p = self.honesty(seat, k, event.rank, before)
                self._weigh(seat, true_k, rand_k)
                self.pile_plays.append((seat, k, event.rank, honest_p))
                held = self.known[seat]
                room = self.sizes[seat] + sum(c for p, c, _, _ in self.pile_plays if p == seat)
                while held.total() > room:
                    # It cannot hold all we knew: forget first what it would not have kept.
                    gone = next((c for c in held if not is_true(c, event.rank)), min(held))
                    held[gone] -= 1
                    held += Counter()
            case ev.CheatCalled(seat=seat):
                self.turned = Counter(event.cards)
                if seat == self.me:
                    self.called_me += 1
                    self.caught_me += not event.honest
                    return
                self.known[seat] -= self.turned
                # Turned-up cards are the best evidence: a truthful player seldom lies with more
                # than one card, a random one is seldom honest.
                one = len(event.cards) == 1
                if event.honest:
                    self._weigh(seat, 1.0 if one else 1 - _SLIP, 0.15 if one else 0.02)
                else:
                    self._weigh(seat, 1.0 if one else _SLIP, 0.85 if one else 0.98)
            case ev.CheatPileTaken(seat=seat) | ev.CheatPenaltyTaken(seat=seat):
                self.sizes[seat] += event.count
                if seat == self.me:
                    taken = Counter(event.cards or ())
                    self.mine += taken
                    for held in self.known:
                        held -= taken
                    # What another seat put on the pile, and what calls turned up, it knows.
                    shown = taken - self.on_pile if self.n == 2 else self.turned - self.on_pile
                    for other in range(self.n):
                        if other != self.me:
                            self.told[other] += shown
                else:
                    self.known[seat] += self.on_pile + self.turned
                self.on_pile, self.turned, self.pile_plays = Counter(), Counter(), []
            case (
                ev.CheatGameCreated()
                | PlayerJoined()
                | ev.CheatPlayAccepted()
                | ev.CheatRoundEnded()
                | DeckRevealed()
                | ev.CheatMatchEnded()
                | DealsOpened()
                | PlayerLeft()
                | SeatAway()
                | SeatBack()
            ):
                pass
            case _:
                assert_never(event)


_STRIDE: Final = 8
"""The house's reading of a round is kept after every `_STRIDE` events (`_reading`): a later
question folds at most `_STRIDE - 1` events more."""
_ENCODER: Final = msgspec.json.Encoder()
_DECODER: Final = msgspec.json.Decoder(Event)


class _Lines:
    """A round's first events as JSON lines, held by whoever asks for their reading."""

    __slots__ = ("__weakref__", "data")

    def __init__(self, data: bytes) -> None:
        self.data = data


class _Prefix:
    """A round's first events as the memo's key: equal when the events are (a BLAKE2 digest of
    their JSON lines). It holds the lines weakly, so the memo keeps only the digest."""

    __slots__ = ("_lines", "digest")

    def __init__(self, lines: _Lines) -> None:
        self.digest = hashlib.blake2b(lines.data, digest_size=16).digest()
        self._lines = weakref.ref(lines)

    def lines(self) -> bytes:
        held = self._lines()
        if held is None:
            raise RuntimeError("The events of a reading are read while their asker holds them.")
        return held.data

    def __hash__(self) -> int:
        return hash(self.digest)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Prefix) and other.digest == self.digest


@functools.lru_cache(maxsize=1024)
def _reading(table: Vantage, history: _Prefix) -> Learnt:
    """What the seat knows after a round's first events, a multiple of `_STRIDE` of them: the
    reading `_STRIDE` events before, with those folded in. A memo of a pure function: what it
    returns is shared, and only ever copied. A reading is about 5 KiB; each seat the house
    plays needs its latest one kept, so 1,024 serve some 900 such seats at once."""
    lines = history.lines()
    if not lines:
        return Learnt(table)
    cut = len(lines) - 1  # the newline that ends the last event
    for _ in range(_STRIDE):
        cut = lines.rfind(b"\n", 0, cut)
    before = _Lines(lines[: cut + 1])
    seen = _reading(table, _Prefix(before)).copy()
    for event in _DECODER.decode_lines(lines[cut + 1 :]):
        seen.fold(event)
    return seen


def read(view: CheatGameView, history: Sequence[Event], me: int) -> Learnt:
    """What the seat knows, folded from the round's history; the view is the truth about our
    hand and every hand's size."""
    kept = len(history) - len(history) % _STRIDE
    lines = _Lines(_ENCODER.encode_lines(history[:kept]))
    seen = _reading(Vantage.of(view, me), _Prefix(lines)).copy()
    for event in history[kept:]:
        seen.fold(event)
    seen.mine = Counter(view.me.hand if view.me is not None else ())
    seen.sizes = [p.hand_size for p in view.players]
    return seen
