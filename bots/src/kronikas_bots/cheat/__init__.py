"""Cheat bots: a random legal one, and one that counts cards."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from math import comb
from typing import Any, TypeAlias

from kronikas_client.events import GameEvent
from kronikas_client.models import (
    Accept,
    Call,
    CheatCardsPlayedEvent,
    CheatCheatCalledEvent,
    CheatGameView,
    CheatMatchEndedEvent,
    CheatOptions,
    CheatPenaltyTakenEvent,
    CheatPileTakenEvent,
    CheatRoundDealtEvent,
    CheatRoundEndedEvent,
    CreateCheatGame,
    Play,
)
from kronikas_client.types import Unset

from ..base import Game
from ..cards import COLOURED, PALE, RANKS, rank
from .live import search_bot

CheatCommand: TypeAlias = Play | Call | Accept


def next_rank(r: str, steps: int = 1) -> str:
    """The rank announced `steps` plays after `r` (after A comes 7 again)."""
    return RANKS[(RANKS.index(r) + steps) % len(RANKS)]


def rank_distance(start: str, target: str) -> int:
    """How many ranks after `start` comes `target` (0 when equal)."""
    return (RANKS.index(target) - RANKS.index(start)) % len(RANKS)


class RandomCheatBot:
    """Legal moves at random: 1–max_play random cards; calls a quarter of the times it may."""

    name = "random"

    def __init__(self, rng: random.Random | None = None, call_rate: float = 0.25) -> None:
        self.rng = rng or random.Random()
        self.call_rate = call_rate

    def observe(self, event: GameEvent) -> None:
        pass

    def act(self, view: CheatGameView) -> CheatCommand | None:
        legal = view.legal or []
        if "call" in legal and self.rng.random() < self.call_rate:
            return Call()
        if "play" in legal and view.me is not None:
            hand = view.me.hand
            count = self.rng.randint(1, min(view.options.max_play, len(hand)))
            return Play(cards=self.rng.sample(hand, count))
        if "accept" in legal:
            return Accept()
        return None


def p_at_least(need: int, known: int, pool: int, copies: int, draws: int) -> float:
    """P(known + X >= need) for X ~ Hypergeometric(pool cards, `copies` of them good, `draws`)."""
    need -= known
    if need <= 0:
        return 1.0
    draws = max(0, min(draws, pool))
    copies = max(0, min(copies, pool))
    total = comb(pool, draws)
    if total == 0:
        return 0.0
    hits = sum(
        comb(copies, k) * comb(pool - copies, draws - k)
        for k in range(need, min(copies, draws) + 1)
    )
    return hits / total


def _true_count(cards: Counter[str], announced: str) -> int:
    """How many of the cards would be true for the announced rank (XC always is)."""
    return sum(n for c, n in cards.items() if rank(c) == announced or c == COLOURED)


class GoodCheatBot:
    """Plays true cards when it can, bluffs with the cards it can least use, calls from what it
    holds and what calls have turned up, and knows the Chroniclers.

    What it remembers within a round: `known[seat]`, the cards it knows a seat holds (its own
    cards that went into a pile the seat took, and turned-up cards that seat took); `in_pile`, its
    own cards and turned-up cards lying in the current pile. Across rounds: how often each seat
    was caught lying when called, and how often each seat calls.
    """

    name = "good"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()
        self.me: int | None = None
        self.known: dict[int, Counter[str]] = {}
        self.in_pile: Counter[str] = Counter()
        self.lies: Counter[int] = Counter()
        self.called: Counter[int] = Counter()
        self.calls_made: Counter[int] = Counter()
        self.windows: Counter[int] = Counter()
        self.players = 0

    # --- memory ------------------------------------------------------------------------------

    def observe(self, event: GameEvent) -> None:
        match event:
            case CheatRoundDealtEvent(data=dealt):
                self.known = {}
                self.in_pile = Counter()
                self.players = len(dealt.hands)
                for seat, hand in enumerate(dealt.hands):
                    if hand is not None:
                        self.me = seat
            case CheatCardsPlayedEvent(data=played):
                seat = played.seat
                for other in range(self.players):
                    if other != seat:
                        self.windows[other] += 1
                if isinstance(played.cards, list) and seat == self.me:
                    self.in_pile.update(played.cards)
                else:
                    self._forget_played(seat, played.count, played.rank)
            case CheatCheatCalledEvent(data=called):
                seat, caller = called.seat, called.caller
                self.calls_made[caller] += 1
                self.called[seat] += 1
                if not called.honest:
                    self.lies[seat] += 1
                if seat != self.me:
                    self.in_pile.update(called.cards)
                    held = self.known.get(seat)
                    if held is not None:
                        held -= Counter(called.cards)
            case CheatPileTakenEvent(data=taken) | CheatPenaltyTakenEvent(data=taken):
                taker = taken.seat
                if taker != self.me:
                    self.known.setdefault(taker, Counter()).update(self.in_pile)
                self.in_pile = Counter()
            case _:
                pass

    def _forget_played(self, seat: int, count: int, announced: str) -> None:
        # A seat that plays probably put down the cards we know it holds of the announced rank.
        held = self.known.get(seat)
        if not held:
            return
        for card in [c for c in held if rank(c) == announced or c == COLOURED]:
            while held[card] and count:
                held[card] -= 1
                count -= 1
        held += Counter()

    def _tidy(self, hand: Counter[str], decks: int) -> None:
        """Forget known cards that cannot be there: a code exists `decks` times (a Chronicler
        once), and we may have seen a copy come back to us or land in the pile."""
        for card in {c for held in self.known.values() for c in held}:
            room = (1 if card in (COLOURED, PALE) else decks) - hand[card] - self.in_pile[card]
            for held in self.known.values():
                take = min(held[card], max(0, room))
                room -= take
                held[card] = take
        for seat in self.known:
            self.known[seat] += Counter()

    # --- judging a play ----------------------------------------------------------------------

    def lie_probability(self, view: CheatGameView) -> float:
        """How likely the play now open to a call is a lie, from the cards we can account for."""
        assert view.cheat is not None and view.cheat.last_play is not None and view.me is not None
        play = view.cheat.last_play
        announced, count, seat = play.rank, play.count, play.seat
        hand = Counter(view.me.hand)
        self._tidy(hand, view.options.decks)
        copies = 4 * view.options.decks
        universe = 32 * view.options.decks + (2 if view.options.chroniclers else 0)
        truthful = [c for c in hand if rank(c) == announced]
        true_total = copies + (1 if view.options.chroniclers else 0)
        accounted = sum(hand[c] for c in truthful) + hand[COLOURED]
        for who, cards in self.known.items():
            if who != seat:
                accounted += sum(
                    n for c, n in cards.items() if rank(c) == announced or c == COLOURED
                )
        accounted += sum(
            n for c, n in self.in_pile.items() if rank(c) == announced or c == COLOURED
        )
        theirs = self.known.get(seat, Counter())
        known_true = sum(n for c, n in theirs.items() if rank(c) == announced or c == COLOURED)
        before = view.players[seat].hand_size + count
        pool = (
            universe
            - sum(hand.values())
            - sum(sum(c.values()) for c in self.known.values())
            - sum(self.in_pile.values())
        )
        available = max(0, true_total - accounted - known_true)
        draws = before - sum(theirs.values())
        pool = max(pool, draws, available)
        if known_true + available < count:
            return 1.0
        could = p_at_least(count, known_true, pool, available, draws)
        # Even a seat that could be honest sometimes lies: learn how often it is caught lying.
        habit = (self.lies[seat] + 1) / (self.called[seat] + 4)
        return 1 - could * (1 - habit)

    def should_call(self, view: CheatGameView) -> bool:
        assert view.cheat is not None and view.cheat.last_play is not None
        play = view.cheat.last_play
        p = self.lie_probability(view)
        if p >= 0.999:
            return True
        left = view.players[play.seat].hand_size
        pile = view.cheat.pile_size
        if left == 0:
            # They finish unless someone calls: with two players, always try.
            return len(view.players) == 2 or p > 0.2
        threshold = 0.5 + min(0.15, 0.01 * pile)
        if left <= 2:
            threshold -= 0.15
        return p > threshold

    # --- choosing a play ---------------------------------------------------------------------

    def _turns_until(self, view: CheatGameView, target: str) -> float:
        """How many of my turns until I announce `target` (inf if never, with no calls)."""
        n = len(view.players)
        assert view.cheat is not None
        now = view.cheat.rank
        for k in range(1, len(RANKS) + 1):
            if next_rank(now, k * n) == target:
                return k
        return float("inf")

    def choose_play(self, view: CheatGameView) -> Play:
        assert view.cheat is not None and view.me is not None
        hand = list(view.me.hand)
        announced = view.cheat.rank
        limit = view.options.max_play
        true = [c for c in hand if rank(c) == announced]
        if true:
            cards = true[:limit]
            # Going out: add the Coloured Chronicler if it is all that would be left.
            if COLOURED in hand and len(cards) < limit and len(hand) == len(cards) + 1:
                cards.append(COLOURED)
            return Play(cards=cards)
        if COLOURED in hand:
            return Play(cards=[COLOURED])
        if PALE in hand and self._pale_now(view, hand):
            return Play(cards=[PALE])
        bluffable = [c for c in hand if c != PALE] or hand
        worst = max(
            bluffable,
            key=lambda c: (
                self._turns_until(view, rank(c)),
                -sum(1 for h in hand if rank(h) == rank(c)),
                rank_distance(announced, rank(c)),
            ),
        )
        return Play(cards=[worst])

    def _pale_now(self, view: CheatGameView, hand: list[str]) -> bool:
        """Play the Pale Chronicler while the pile is small, or if the next seat calls often."""
        assert view.cheat is not None and self.me is not None
        if len(hand) == 1:
            return True
        nxt = (self.me + 1) % len(view.players)
        call_rate = (self.calls_made[nxt] + 1) / (self.windows[nxt] + 4)
        return view.cheat.pile_size <= 2 or call_rate > 0.4

    def act(self, view: CheatGameView) -> CheatCommand | None:
        legal = view.legal or []
        if view.me is not None:
            self.me = view.me.seat
        if "call" in legal and self.should_call(view):
            return Call()
        if "play" in legal:
            return self.choose_play(view)
        if "accept" in legal:
            return Accept()
        return None


# --- the game, as the shared code finds it (games.py) ---------------------------------------


def _create(options: dict[str, Any], seed: int | Unset) -> CreateCheatGame:
    return CreateCheatGame(options=CheatOptions.from_dict(options), seed=seed)


def _plainest(view: CheatGameView) -> CheatCommand:
    """The first card of the hand, never a call."""
    legal = view.legal or []
    return Play(cards=view.me.hand[:1]) if "play" in legal and view.me else Accept()


def _ends_round(event: GameEvent) -> bool:
    return isinstance(event, CheatRoundEndedEvent)


def _describe(event: GameEvent, names: Sequence[str]) -> str | None:
    match event:
        case CheatRoundEndedEvent(data=ended):
            how = (
                "reached its most plays"
                if ended.reason == "max_plays"
                else f"{names[ended.winner]} went out"
            )
            return (
                f"round {ended.round_}: {how}; cards left "
                f"{ended.hand_sizes}, points {ended.points}, totals {ended.totals}"
            )
        case CheatMatchEndedEvent(data=won):
            return "match over: " + ", ".join(names[s] for s in won.winners) + " won"
        case _:
            return None


def _seen(event: GameEvent) -> list[list[str]]:
    """A seat's dealt hand, its own cards played, cards a call turns up, a pile it takes."""
    match event:
        case CheatRoundDealtEvent(data=dealt):
            return [hand for hand in dealt.hands if hand is not None]
        case CheatCheatCalledEvent(data=called):
            return [called.cards]
        case (
            CheatCardsPlayedEvent(data=shown)
            | CheatPileTakenEvent(data=shown)
            | CheatPenaltyTakenEvent(data=shown)
        ):
            return [shown.cards] if isinstance(shown.cards, list) else []
        case _:
            return []


GAME: Game[CheatGameView, CheatCommand, CreateCheatGame] = Game(
    kind="cheat",
    view=CheatGameView,
    bots={"good": GoodCheatBot, "random": RandomCheatBot, "search": search_bot},
    create=_create,
    races=(Call,),
    plainest=_plainest,
    ends_round=_ends_round,
    describe=_describe,
    seen=_seen,
    examples=(
        "--game cheat --bots good,random",
        "--game cheat --bots good,random --games 200 --seed 1",
        "--game cheat --bots house,random --games 20 --quiet",
        "--game cheat --bots search,house --seed 7",
    ),
    note="In Cheat the house waits house_pause_seconds (default 3) before it plays while another "
    "seat may still call: with three seats or more, --options '{\"house_pause_seconds\": 0}' "
    "runs faster, but the bots then never call the play before it.",
)
