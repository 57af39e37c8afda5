"""The house player of Cheat: a seat's move from that seat's view and redacted history alone.

Fair by construction: `house_command` never sees the state, only what the API shows the seat (its
`view`, and the round's events `redact`ed for it): its own hand, the cards it put on the pile,
what calls turned up, and the cards it saw go into another hand. Its randomness is the `rng` it is
given (only to break ties), so a seeded table replays the same moves.

How it plays: it counts cards. A counting caller can be sure a play is a lie only when it is of
more cards than the true cards it cannot place elsewhere (in our hand, or face down on the pile).
So the house keeps a card of each rank it will announce while it holds cards it never will, and
bluffs those under that cover; a turn with no card of the rank due is a sure lie, which brings
the pile back, and it plans its hand to meet few. Each play is weighed in turns (ours saved, the
others' added) against how likely a counting caller, who learns how often we lie, calls it. It
calls the open play when the pile is likelier to go to its player than to itself, judging the
player's honesty from the cards it could hold and how it has played (truthfully, or at random).
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Final

import kronikas_rules.cheat.events as ev
from kronikas_rules.cards import COLOURED, PALE, Card
from kronikas_rules.cheat.commands import Accept, Call, Command, Play
from kronikas_rules.cheat.counting import (
    Learnt,
    Vantage,
    hypergeometric,
    is_true,
    read,
    true_count,
)
from kronikas_rules.cheat.events import Event
from kronikas_rules.cheat.states import ANNOUNCED, FIRST_RANK, next_rank
from kronikas_rules.cheat.view import CheatGameView

_PATIENCE: Final = 150
"""Plays in a round after which the house stops calling, so that a table of counters who call
every sure lie (and so shed nothing more) still ends."""
# What plans weigh, in turns (of ours to go out, or of another seat's):
_STALL: Final = 5.0  # a turn with none of the rank due: its sure lie sheds nothing
_PER_CARD: Final = 0.9  # each card of the pile such a turn brings us
_GROWTH: Final = 3.0  # cards a pile grows by between two of our turns, if nobody calls
_PILE_CAP: Final = 16.0  # the largest pile a stall is reckoned to meet
_RISK: Final = 0.8  # a bluff: even a safe-looking one is sometimes called
_CAUGHT: Final = 0.7  # being caught, beyond the pile: counters call us more afterwards
_FLOOR: Final = 0.25  # the least each card of a pile we take costs us
_OUT: Final = 1000.0
"""The worth of going out with a true play: nothing else compares."""


class _Plan:
    """The seat's table as it plans: how many turns a hand needs, and what plays are worth."""

    def __init__(self, view: CheatGameView, seen: Learnt) -> None:
        table = view.cheat
        self.seen, self.n, self.me = seen, seen.n, seen.me
        self.rank = table.rank if table is not None else FIRST_RANK
        self.turn = view.turn if view.turn is not None else seen.me
        self.pile = table.pile_size if table is not None else 0
        self.plays, self.on_pile = list(seen.pile_plays), Counter(seen.on_pile)
        self._turns: dict[tuple[int, ...], float] = {}
        self.soon = [self._soonest(seat) for seat in range(self.n)]
        """By seat: in how many of its turns from now it announces each rank (calls aside)."""
        self.cycle = [self._due(self.me, j) for j in range(1, 1 + len(ANNOUNCED))]
        """The ranks of our turns after this one."""
        self.ours = sorted(set(self.cycle), key=self.cycle.index)
        self._index = {rank: i for i, rank in enumerate(self.ours)}
        self._shape = [0] * (2 + len(self.ours))
        for card, k in seen.mine.items():
            self._shape[self._slot(card)] += k

    def _due(self, seat: int, j: int) -> str:
        """The rank `seat` announces on its j-th turn from now (0: its next), calls aside."""
        offset = (seat - self.turn) % self.n + self.n * j
        return next_rank(self.rank, offset)

    def _soonest(self, seat: int) -> dict[str, int]:
        """In how many of its turns from now `seat` announces each rank."""
        soon: dict[str, int] = {}
        for j in range(len(ANNOUNCED)):
            soon.setdefault(self._due(seat, j), j)
        return soon

    def emptied(self) -> _Plan:
        """The same table with the pile taken away (after a call)."""
        other = copy.copy(self)
        other.pile, other.plays, other.on_pile, other._turns = 0, [], Counter(), {}
        return other

    def _slot(self, card: Card) -> int:
        """Where a card counts in a hand's shape: 0 if we never announce it, 1 the Coloured
        Chronicler, then our ranks in the order we announce them."""
        if card == COLOURED:
            return 1
        index = self._index.get(card[:-1]) if card[0] != "X" else None
        return 0 if index is None else 2 + index

    def turns(self, less: Sequence[Card] = (), more: Counter[Card] | None = None) -> float:
        """About how many turns our hand (less `less`, and with `more`) needs to go out after
        this one, if nobody called; remembered by shape, as plans weigh the same ones again."""
        shape = list(self._shape)
        for card in less:
            shape[self._slot(card)] -= 1
        for card, k in (more or Counter()).items():
            shape[self._slot(card)] += k
        key = tuple(shape)
        if key not in self._turns:
            live = dict(zip(self.ours, shape[2:], strict=True))
            self._turns[key] = self._plan_turns(live, shape[0], shape[1] > 0)
        return self._turns[key]

    def _plan_turns(self, live: dict[str, int], dead: int, wild: bool) -> float:
        """Each turn bluffs as many cards we never announce as we hold of the rank due (a
        counting caller cannot tell), keeping one of that rank while any are left; then plays
        the rest truly. A turn with none of the rank due stalls: its sure lie brings the pile."""
        total = 0.0
        for j in range(4 * len(ANNOUNCED)):
            if dead + sum(live.values()) == 0:
                return total
            rank = self.cycle[j % len(self.cycle)]
            total += 1
            held = live[rank]
            if held == 0 and not wild:
                # The pile grows by a play or two of each seat until then, unless called.
                total += _STALL + _PER_CARD * min(self.pile + _GROWTH * j, _PILE_CAP)
                continue
            room = min(max(held, 1), self.seen.max_play)
            shed = min(dead, room)
            dead -= shed
            total += _RISK * (shed > 0)
            live[rank] -= min(room - shed, held - (1 if dead else 0))
        return total + 2 * (dead + sum(live.values()))

    def worth(self, card: Card, seat: int) -> float:
        """What one more `card` costs another seat, in turns: little if it announces that rank
        soon, a whole bluff if never."""
        j = self.soon[seat].get(card[:-1]) if card[0] != "X" else None
        if card == COLOURED:
            return 0.3
        return 1.0 if j is None else 0.25 + 0.75 * min(j, 4) / 5

    def take_cost(self, seat: int, extra: Sequence[Card] = ()) -> float:
        """What taking the pile (and `extra`, our cards just played) would cost `seat`."""
        known = self.on_pile + Counter(extra)
        unknown = 0.0
        for player, count, rank, honest in self.plays:
            if player != self.me:
                # An honest play is of its rank; a bluff is of a rank its player cannot use.
                lie = 1.0 if player == seat else 0.5
                unknown += count * (honest * self.worth(rank + "H", seat) + (1 - honest) * lie)
        if seat == self.me:
            # More cards can fill a rank we lack, but a pile never saves us turns.
            grown = self.turns(more=known) - self.turns()
            return max(grown, _FLOOR * known.total()) + unknown
        return sum(self.worth(c, seat) * k for c, k in known.items()) + unknown

    def believed(self, caller: int, cards: Sequence[Card]) -> tuple[bool, float]:
        """Whether `caller`, counting as well as it can, knows our play of `cards` is a lie, and
        else how likely it finds that we hold that many true cards."""
        seen, k, rank = self.seen, len(cards), self.rank
        free, pool = seen.unplaced(rank)
        # Of the cards we cannot place, `caller` holds its unknown hand and its face-down cards.
        face_down = sum(c for p, c, _, _ in self.plays if p == caller)
        unknown_theirs = max(0, seen.sizes[caller] + face_down - seen.known[caller].total())
        share = min(1.0, unknown_theirs / max(1, pool))
        open_ = true_count(seen.mine, rank) + true_count(self.on_pile, rank) + free * (1 - share)
        if k > open_ + 1e-9:
            return True, 0.0
        told = seen.told[caller]
        told_true = true_count(told, rank)
        draws = seen.mine.total() - told.total()
        hidden = draws + self.on_pile.total() + round(free * (1 - share))
        dist = hypergeometric(round(open_) - told_true, hidden, draws)
        return False, sum(p for x, p in enumerate(dist) if told_true + x >= k)

    def call_chance(self, cards: Sequence[Card]) -> float:
        """How likely some other seat calls our play of `cards`: surely when it can tell a lie,
        else as a caller who weighs our odds against how often we were caught lying."""
        habit = (self.seen.caught_me + 1) / (self.seen.called_me + 4)
        chance = 0.0
        for caller in range(self.n):
            if caller == self.me or self.seen.sizes[caller] == 0:
                continue
            certain, could = self.believed(caller, cards)
            if certain:
                return 1.0
            suspicion = 1 - could * (1 - habit)
            chance = max(chance, 1 / (1 + math.exp(-14 * (suspicion - 0.55))))
        return chance

    def score(self, cards: Sequence[Card]) -> float:
        """What playing `cards` now is worth, in turns: ours saved and theirs added."""
        honest = all(is_true(c, self.rank) and c != PALE for c in cards)
        out = len(cards) == self.seen.mine.total()
        if out and honest:
            return _OUT
        called = 1.0 if out and self.n == 2 else self.call_chance(cards)
        after = -self.turns(less=cards)
        if honest:
            return after + called * self.take_cost((self.me + 1) % self.n, cards)
        caught = -self.turns() - self.take_cost(self.me) - _CAUGHT
        return (1 - called) * after + called * caught

    def best(self, rng: random.Random) -> tuple[float, list[Card]]:
        """The best play we could make now (ties broken at random), and what it is worth."""
        # A play of no cards is never made (it is weighed, as the tie-breaking draws stay
        # those of seeded tables already played).
        weighed = [(self.score(c), rng.random(), c) for c in self.candidates()]
        value, _, cards = max(weighed, key=lambda w: (bool(w[2]), w[0], w[1]))
        return value, cards

    def candidates(self) -> list[list[Card]]:
        """Plays worth weighing: some of the true cards (the others kept, so that a counting
        caller cannot be sure of a later bluff of this rank) and some of the costliest others."""
        base = self.turns()
        gain = {c: base - self.turns(less=[c]) for c in self.seen.mine}
        hand = sorted(self.seen.mine.elements(), key=lambda c: (gain[c], c), reverse=True)
        true = [c for c in hand if c[0] != "X" and c[:-1] == self.rank]
        spare = [c for c in hand if c not in true and c not in (COLOURED, PALE)]
        most = self.seen.max_play
        plays = [
            true[:t] + spare[:extra]
            for t in range(min(len(true), most) + 1)
            for extra in range(most - t + 1)
            if t + extra > 0
        ]
        if COLOURED in hand and len(hand) <= most and len(true) == len(hand) - 1:
            plays.append([*true, COLOURED])  # XC is true whatever is announced: go out
        if PALE in hand and (self.pile <= 2 or not any(plays)):
            plays.append([PALE])  # uncalled, XP costs its player the pile; called, it is true
        return plays if any(plays) else [hand[:1]]


def _should_call(
    view: CheatGameView, plan: _Plan, now: tuple[float, list[Card]] | None, rng: random.Random
) -> bool:
    """Whether calling the open play is worth more than letting it stand (`now`: our best play
    if we are to play)."""
    play = view.cheat.last_play if view.cheat is not None else None
    if play is None:
        return False
    before = view.players[play.seat].hand_size + play.count
    p_lie = 1 - plan.seen.honesty(play.seat, play.count, play.rank, before)[2]
    if view.players[play.seat].hand_size == 0:
        # Uncalled, that seat finishes: with two players nothing is worse, so always try.
        return plan.n == 2 or p_lie > 0.3
    gain = p_lie * plan.take_cost(play.seat) - (1 - p_lie) * plan.take_cost(plan.me)
    if now is None:
        return gain > 0
    # On turn, the call decides which pile our play lands on (none, if it goes out).
    return now[0] < _OUT and gain + plan.emptied().best(rng)[0] > now[0]


def house_command(
    view: CheatGameView, history: Sequence[Event], rng: random.Random
) -> Command | None:
    """The house's move for the seat whose `view` and redacted `history` these are: a play or an
    accept when it is to play, a call when it calls the open play, else None."""
    legal = view.legal or []
    if view.me is None or view.cheat is None or not legal:
        return None
    playing = "play" in legal and bool(view.me.hand)
    dealt = max((i for i, e in enumerate(history) if isinstance(e, ev.CheatRoundDealt)), default=0)
    if sum(isinstance(e, ev.CheatCardsPlayed) for e in history[dealt:]) > _PATIENCE:
        # The round is not ending: stop fighting it (see `_PATIENCE`); never call, shed a card.
        plan = _Plan(view, Learnt(Vantage.of(view, view.me.seat)))
        if playing:
            return Play(cards=[max(view.me.hand, key=lambda c: (plan.worth(c, plan.me), c))])
        return Accept() if "accept" in legal else None
    plan = _Plan(view, read(view, history[dealt:], view.me.seat))
    now = plan.best(rng) if playing else None
    if "call" in legal and _should_call(view, plan, now, rng):
        return Call()
    if now is not None:
        return Play(cards=now[1])
    return Accept() if "accept" in legal else None
