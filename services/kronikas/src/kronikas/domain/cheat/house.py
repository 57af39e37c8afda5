"""The house player of Cheat: a seat's move from that seat's view and redacted history alone.

Fair by construction: `house_command` never sees the state, only what the API shows the seat (its
`view`, and the match's events `redact`ed for it): its own hand, the cards it put on the pile,
what calls turned up, and the cards it saw go into another hand. Its randomness is the `rng` it is
given, so a seeded table replays the same moves.

How it plays: it counts cards. For the open play it weighs how many true cards the player could
have held against two ways of playing (truthfully when possible, or at random, learnt from what
that player did), and calls when the pile is likelier to go to the player than to itself. For its
own play it reckons, as a counting opponent would, how believable each candidate is: a play of
more cards of the announced rank than the others cannot place anywhere else but its hand and its
own face-down cards is a sure lie; within that, it pads true cards with the ones it can least use,
and bluffs when the expected cards shed outweigh the pile it risks.
"""

from __future__ import annotations

import copy
import math
import random
from collections import Counter
from collections.abc import Sequence
from typing import Final, assert_never

from kronikas.domain.cards import COLOURED, PALE, RANKS, Card, make_deck
from kronikas.domain.cheat.commands import Accept, Call, Command, Play
from kronikas.domain.cheat.events import (
    CheatCalled,
    CheatCardsPlayed,
    CheatGameCreated,
    CheatMatchEnded,
    CheatPenaltyTaken,
    CheatPileTaken,
    CheatPlayAccepted,
    CheatRoundDealt,
    CheatRoundEnded,
    Event,
)
from kronikas.domain.cheat.view import CheatGameView
from kronikas.domain.common import DeckRevealed, PlayerJoined, PlayerLeft, SeatAway, SeatBack

_BLUFF_COUNTS: Final = {1: 0.85, 2: 0.1, 3: 0.03, 4: 0.02}
"""How many cards a truthful player bluffs with when it holds no true card."""
_SLIP: Final = 0.05
"""How often a truthful player does what it otherwise would not: no model is ever certain."""
_PATIENCE: Final = 150
"""Plays in a round after which the house stops calling, so that a table of counters who call
every sure lie (and so shed nothing more) still ends."""
_STALL: Final = 5.0
"""What a turn with no card of the rank due costs, in turns: any play is then a sure lie to a
counting caller, so it sheds nothing and brings the pile (with the caller's cards) to us."""
_PER_CARD: Final = 0.9
"""What each card of a pile we are made to take costs, in turns."""
_GROWTH: Final = 3.0
"""How many cards a pile grows by between two of our turns, when nobody calls."""
_PILE_CAP: Final = 16.0
_RISK: Final = 0.8
"""What a bluff costs in a plan, in turns: even a safe-looking one is sometimes called."""
_CAUGHT: Final = 0.7
"""What being caught lying costs beyond the pile: callers who count call us more afterwards."""
_OUT: Final = 1000.0
"""The worth of going out with a true play: nothing else compares."""
_FLOOR: Final = 0.25
"""The least each card of a pile we take costs us, in turns."""
_EVIDENCE_CAP: Final = 8.0
_LOOKAHEAD = True


def _true_for(card: Card, rank: str) -> bool:
    """Whether the card is true when called as `rank` (XC always; a called XP counts as true)."""
    return card[0] == "X" or card[:-1] == rank


def _hypergeometric(good: int, pool: int, draws: int) -> list[float]:
    """P(X = x) for the good cards among `draws` taken from `pool`, `good` of them good."""
    pool = max(pool, 0)
    draws, good = max(0, min(draws, pool)), max(0, min(good, pool))
    total = math.comb(pool, draws)
    return [
        math.comb(good, x) * math.comb(pool - good, draws - x) / total
        for x in range(min(good, draws) + 1)
    ]


class _Seen:
    """What the seat has learnt: where the round's cards are, and how each seat plays."""

    def __init__(self, view: CheatGameView, me: int) -> None:
        options = view.options
        self.n, self.me, self.max_play = len(view.players), me, options.max_play
        self.deck = Counter(
            make_deck(options.decks, (COLOURED, PALE) if options.chroniclers else ())
        )
        self.truthful = [0.0] * self.n
        """Log-odds, by seat, that it plays truthfully rather than at random."""
        self.called_me = self.caught_me = 0
        self.plays = 0
        self._reset([])

    def _reset(self, hand: list[Card]) -> None:
        self.mine: Counter[Card] = Counter(hand)
        self.known: list[Counter[Card]] = [Counter() for _ in range(self.n)]
        """Cards each other seat surely holds: piles it took with cards we had seen."""
        self.told: list[Counter[Card]] = [Counter() for _ in range(self.n)]
        """Cards each other seat has seen go into our hand and not come out again."""
        self.on_pile: Counter[Card] = Counter()
        self.pile_plays: list[tuple[int, int, str, float]] = []
        """The plays on the pile: seat, count, rank announced, how likely it was honest."""
        self.turned: Counter[Card] = Counter()
        self.sizes = [0] * self.n
        self.plays = 0

    def pool(self) -> Counter[Card]:
        """The cards whose place we do not know (other hands, their face-down cards, set aside)."""
        located = self.mine + self.on_pile
        for seat in range(self.n):
            located += self.known[seat]
        return self.deck - located

    def honesty(self, seat: int, k: int, rank: str, before: int) -> tuple[float, float, float]:
        """P(count k | truthful), P(count k | random) and P(honest | count k) of a play by `seat`
        from a hand of `before` cards."""
        theirs = self.known[seat]
        known_count = min(sum(theirs.values()), before)
        known_true = min(known_count, sum(n for c, n in theirs.items() if _true_for(c, rank)))
        pool = self.pool()
        free_true = sum(n for c, n in pool.items() if _true_for(c, rank))
        most = max(1, min(self.max_play, before))
        true_k = rand_k = honest = 0.0
        weight = 1 / (1 + math.exp(-self.truthful[seat]))
        for x, p in enumerate(_hypergeometric(free_true, sum(pool.values()), before - known_count)):
            h = known_true + x
            t_honest = (1 - _SLIP) if h >= 1 and k == min(h, self.max_play) else 0.0
            t_honest += _SLIP * 0.25 if 0 < k <= h else 0.0
            t_lie = _BLUFF_COUNTS.get(k, _SLIP) * (1.0 if h == 0 else _SLIP)
            r_honest = math.comb(h, k) / math.comb(before, k) / most if k <= before else 0.0
            true_k += p * (t_honest + t_lie)
            rand_k += p * (1 / most)
            honest += p * (weight * t_honest + (1 - weight) * r_honest)
        total = weight * true_k + (1 - weight) * rand_k
        return true_k, rand_k, (honest / total if total > 0 else 0.0)

    def _weigh(self, seat: int, truthful: float, random_: float) -> None:
        step = math.log(max(truthful, 1e-9) / max(random_, 1e-9))
        self.truthful[seat] = max(-_EVIDENCE_CAP, min(_EVIDENCE_CAP, self.truthful[seat] + step))

    def fold(self, event: Event) -> None:
        """Take note of one event."""
        match event:
            case CheatRoundDealt():
                self._reset(event.hands[self.me] or [])
                self.sizes = [(sum(self.deck.values()) - event.set_aside) // self.n] * self.n
            case CheatCardsPlayed(seat=seat, count=k):
                self.plays += 1
                before = self.sizes[seat]
                self.sizes[seat] = max(0, before - k)
                if seat == self.me:
                    cards = Counter(event.cards or ())
                    honest = all(_true_for(c, event.rank) for c in cards)
                    self.pile_plays.append((seat, k, event.rank, float(honest)))
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
                while sum(held.values()) > room:
                    # Cards we knew it had that can no longer all be in its hand or its face-down
                    # cards: forget first those of ranks it is least likely to have kept.
                    gone = next((c for c in held if not _true_for(c, event.rank)), min(held))
                    held[gone] -= 1
                    held += Counter()
            case CheatCalled(seat=seat):
                self.turned = Counter(event.cards)
                if seat == self.me:
                    self.called_me += 1
                    self.caught_me += not event.honest
                    return
                self.known[seat] -= self.turned
                # Turned-up cards are the best evidence: a truthful player seldom lies with more
                # than one card, a random one is seldom honest.
                k = len(event.cards)
                if event.honest:
                    self._weigh(seat, 1.0 if k == 1 else 1 - _SLIP, 0.15 if k == 1 else 0.02)
                else:
                    self._weigh(seat, 1.0 if k == 1 else _SLIP, 0.85 if k == 1 else 0.98)
            case CheatPileTaken(seat=seat) | CheatPenaltyTaken(seat=seat):
                self.sizes[seat] += event.count
                seen = self.on_pile + self.turned
                if seat == self.me:
                    taken = Counter(event.cards or ())
                    self.mine += taken
                    for held in self.known:
                        held -= taken
                    for other in range(self.n):
                        # What another seat put on the pile, and what calls turned up, it knows.
                        if other != self.me and self.n == 2:
                            self.told[other] += taken - self.on_pile
                        elif other != self.me:
                            self.told[other] += self.turned - self.on_pile
                else:
                    self.known[seat] += seen
                self.on_pile, self.turned = Counter(), Counter()
                self.pile_plays = []
            case (
                CheatGameCreated()
                | PlayerJoined()
                | CheatPlayAccepted()
                | CheatRoundEnded()
                | DeckRevealed()
                | CheatMatchEnded()
                | PlayerLeft()
                | SeatAway()
                | SeatBack()
            ):
                pass
            case _:
                assert_never(event)


def _read(view: CheatGameView, history: Sequence[Event], me: int) -> _Seen:
    """What the seat knows, folded from its history; the view corrects what the history lacks."""
    seen = _Seen(view, me)
    for event in history:
        seen.fold(event)
    if view.me is not None:
        seen.mine = Counter(view.me.hand)
    seen.sizes = [p.hand_size for p in view.players]
    return seen


class _Plan:
    """The seat's table as it plans: how many turns a hand needs, and what plays are worth."""

    def __init__(self, view: CheatGameView, seen: _Seen) -> None:
        table = view.cheat
        self.seen, self.n, self.me = seen, seen.n, seen.me
        self.rank = table.rank if table is not None else RANKS[0]
        self.turn = view.turn if view.turn is not None else seen.me
        self.pile = table.pile_size if table is not None else 0
        self.plays = list(seen.pile_plays)
        self.on_pile = Counter(seen.on_pile)

    def _due(self, seat: int, j: int) -> str:
        """The rank `seat` announces on its j-th turn from now (0: its next), calls aside."""
        offset = (seat - self.turn) % self.n + self.n * j
        return RANKS[(RANKS.index(self.rank) + offset) % len(RANKS)]

    def emptied(self) -> _Plan:
        """The same table with the pile taken away (after a call)."""
        other = copy.copy(self)
        other.pile, other.plays, other.on_pile = 0, [], Counter()
        return other

    def turns(self, hand: Counter[Card], first: int = 1) -> float:
        """About how many turns a hand of ours needs to go out, if nobody called: each turn
        bluffs as many cards we cannot announce as we hold of the rank due (a counting caller
        cannot tell), keeping one of that rank while any are left; then plays the rest truly."""
        if not hand:
            return 0.0
        cycle = [self._due(self.me, j) for j in range(first, first + len(RANKS))]
        live = Counter({r: 0 for r in cycle})
        dead = 0
        for card, k in hand.items():
            if card[0] != "X" and card[:-1] in live:
                live[card[:-1]] += k
            elif card != COLOURED:
                dead += k
        wild = COLOURED in hand
        most = self.seen.max_play
        total = 0.0
        for j in range(4 * len(RANKS)):
            if dead + sum(live.values()) == 0:
                return total
            rank = cycle[j % len(cycle)]
            total += 1
            held = live[rank]
            if held == 0 and not wild:
                # The pile grows by a play or two of each seat until then, unless called.
                total += _STALL + _PER_CARD * min(self.pile + _GROWTH * j, _PILE_CAP)
                continue
            room = min(max(held, 1), most)
            shed = min(dead, room)
            dead -= shed
            total += _RISK * (shed > 0)
            live[rank] -= min(room - shed, held - (1 if dead else 0))
        return total + 2 * (dead + sum(live.values()))

    def worth(self, card: Card, seat: int) -> float:
        """What holding one more `card` costs another seat, in turns: little if it announces
        that rank soon, a whole bluff if never."""
        if card[0] == "X":
            return 0.3 if card == COLOURED else 1.0
        for j in range(len(RANKS)):
            if self._due(seat, j) == card[:-1]:
                return 0.25 + 0.75 * min(j, 4) / 5
        return 1.0

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
            mine = self.seen.mine
            # More cards can fill a rank we lack, but a pile never saves us turns.
            grown = self.turns(mine + known) - self.turns(mine)
            return max(grown, _FLOOR * sum(known.values())) + unknown
        return sum(self.worth(c, seat) * k for c, k in known.items()) + unknown

    def believed(self, caller: int, cards: Sequence[Card]) -> tuple[bool, float]:
        """Whether `caller`, counting as well as it can, knows our play of `cards` is a lie, and
        else how likely it finds that we hold that many true cards."""
        seen, k, rank = self.seen, len(cards), self.rank
        hand = sum(seen.mine.values())
        pool = seen.pool()
        free = sum(n for c, n in pool.items() if _true_for(c, rank))
        # Of the cards we cannot place, `caller` holds its unknown hand and its face-down cards.
        face_down = sum(c for p, c, _, _ in self.plays if p == caller)
        unknown_theirs = max(0, seen.sizes[caller] + face_down - sum(seen.known[caller].values()))
        share = min(1.0, unknown_theirs / max(1, sum(pool.values())))
        mine = seen.mine + self.on_pile
        open_ = sum(n for c, n in mine.items() if _true_for(c, rank)) + free * (1 - share)
        if k > open_ + 1e-9:
            return True, 0.0
        told = seen.told[caller]
        told_true = sum(n for c, n in told.items() if _true_for(c, rank))
        draws = hand - sum(told.values())
        hidden = draws + sum(self.on_pile.values()) + round(free * (1 - share))
        dist = _hypergeometric(round(open_) - told_true, hidden, draws)
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
        mine = self.seen.mine
        honest = all(_true_for(c, self.rank) and c != PALE for c in cards)
        left = mine - Counter(cards)
        if not left and honest:
            return _OUT
        called = 1.0 if not left and self.n == 2 else self.call_chance(cards)
        after = -self.turns(left)
        if honest:
            return after + called * self.take_cost((self.me + 1) % self.n, cards)
        caught = -self.turns(mine) - self.take_cost(self.me) - _CAUGHT
        return (1 - called) * after + called * caught

    def best(self, rng: random.Random) -> tuple[float, list[Card]]:
        """The best play we could make now, and what it is worth."""
        scored = [(self.score(c), rng.random(), c) for c in self.candidates()]
        value, _, cards = max(scored)
        return value, cards

    def candidates(self) -> list[list[Card]]:
        """Plays worth weighing: some of the true cards (the others kept, so that a counting
        caller cannot be sure of a later bluff of this rank) and some of the costliest others."""
        mine = self.seen.mine
        hand = sorted(mine.elements(), key=lambda c: (self._shed_gain(c), c), reverse=True)
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
        if PALE in hand and (self.pile <= 2 or not plays):
            # Uncalled, XP costs its player the pile; called, it counts as true.
            plays.append([PALE])
        return [p for p in plays if p] or [hand[:1]]

    def _shed_gain(self, card: Card) -> float:
        mine = self.seen.mine
        return self.turns(mine) - self.turns(mine - Counter([card]))


def _p_lie(view: CheatGameView, seen: _Seen) -> float:
    table = view.cheat
    if table is None or table.last_play is None:
        return 0.0
    play = table.last_play
    before = view.players[play.seat].hand_size + play.count
    return 1 - seen.honesty(play.seat, play.count, play.rank, before)[2]


def _should_call(view: CheatGameView, plan: _Plan, rng: random.Random) -> bool:
    """Whether calling the open play is worth more than letting it stand."""
    table = view.cheat
    if table is None or table.last_play is None or plan.seen.plays > _PATIENCE:
        return False
    seat = table.last_play.seat
    p_lie = _p_lie(view, plan.seen)
    if view.players[seat].hand_size == 0:
        # Uncalled, that seat finishes: with two players nothing is worse, so always try.
        return plan.n == 2 or p_lie > 0.3
    gain = p_lie * plan.take_cost(seat) - (1 - p_lie) * plan.take_cost(plan.me)
    if "play" not in (view.legal or []) or not _LOOKAHEAD:
        return gain > 0
    # On turn, the call decides which pile our play lands on.
    now = plan.best(rng)[0]
    return now < _OUT and gain + plan.emptied().best(rng)[0] > now


def house_command(
    view: CheatGameView, history: Sequence[Event], rng: random.Random
) -> Command | None:
    """The house's move for the seat whose `view` and redacted `history` these are: a play or an
    accept when it is to play, a call when it calls the open play, else None."""
    legal = view.legal or []
    if view.me is None or view.cheat is None or not legal:
        return None
    seen = _read(view, history, view.me.seat)
    plan = _Plan(view, seen)
    if "call" in legal and _should_call(view, plan, rng):
        return Call()
    if "play" in legal and view.me.hand:
        if seen.plays > _PATIENCE:
            # The round is not ending: stop fighting it (see `_PATIENCE`).
            return Play(cards=[max(view.me.hand, key=lambda c: (plan.worth(c, seen.me), c))])
        return Play(cards=plan.best(rng)[1])
    if "accept" in legal:
        return Accept()
    return None
