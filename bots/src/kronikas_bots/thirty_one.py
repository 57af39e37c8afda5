"""Thirty-One bots: a random legal one, and one that builds its best suit and shows in time."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

from kronikas_client.events import GameEvent
from kronikas_client.models import (
    CreateThirtyOneGame,
    Exchange,
    Keep,
    Pass,
    Show,
    Swap,
    SwapAll,
    ThirtyOneCardSwappedEvent,
    ThirtyOneGameView,
    ThirtyOneHandExchangedEvent,
    ThirtyOneHandShownEvent,
    ThirtyOneHandsSwappedEvent,
    ThirtyOneMatchEndedEvent,
    ThirtyOneOptions,
    ThirtyOneRoundDealtEvent,
    ThirtyOneRoundEndedEvent,
    ThirtyOneTableViewPhase,
)
from kronikas_client.types import Unset

from .base import Game, moves
from .cards import CHRONICLERS, COLOURED, DECK, SUITS, rank, suit

ThirtyOneCommand: TypeAlias = Keep | Exchange | Swap | SwapAll | Pass | Show

VALUES = {"7": 7, "8": 8, "9": 9, "10": 10, "U": 10, "O": 10, "K": 10, "A": 11}
"""What each rank counts in a suit's sum."""


# --- Thirty-One scores, doubled so that 30.5 is the whole number 61 --------------------------


def _plain_score2(hand: Iterable[str]) -> int:
    cards = list(hand)
    ranks = [rank(c) for c in cards]
    if len(cards) == 3 and ranks.count("A") == 3:
        return 66
    if len(cards) == 3 and len(set(ranks)) == 1:
        return 61
    best = max(suit_sums(cards).values(), default=0)
    return 2 * best if best >= 21 else 0


def suit_sums(hand: Iterable[str]) -> dict[str, int]:
    """The sum of the card values in each suit of the hand (Chroniclers left out)."""
    sums = dict.fromkeys(SUITS, 0)
    for card in hand:
        if card not in CHRONICLERS:
            sums[suit(card)] += VALUES[rank(card)]
    return sums


def score2(hand: Iterable[str]) -> int:
    """Twice the Thirty-One score of a three-card hand (XC stands for its best card)."""
    cards = list(hand)
    if COLOURED not in cards:
        return _plain_score2(cards)
    rest = [c for c in cards if c != COLOURED]
    return max(_plain_score2([*rest, stand_in]) for stand_in in DECK)


def score(hand: Iterable[str]) -> float:
    """The Thirty-One score of a three-card hand: 0, 21–32, 30.5 or 33."""
    return score2(hand) / 2


def potential(hand: Iterable[str]) -> float:
    """How promising a hand is: its score, or below 21 its best one-suit sum (a trip counts)."""
    cards = list(hand)
    real = score(cards)
    if real:
        return real
    plain = [c for c in cards if c not in CHRONICLERS]
    sums = suit_sums(plain)
    best = float(max(sums.values(), default=0))
    if COLOURED in cards:
        best += 11
    ranks = [rank(c) for c in plain]
    for r in set(ranks):
        if ranks.count(r) == 2:
            best = max(best, 20.0 if r == "A" else 16.0)
    return best


def _swapped(hand: list[str], give: str, take: str) -> list[str]:
    out = list(hand)
    out[out.index(give)] = take
    return out


class RandomThirtyOneBot:
    """Legal moves at random: a random legal command type, then random cards for a swap."""

    name = "random"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def observe(self, event: GameEvent) -> None:
        pass

    def act(self, view: ThirtyOneGameView) -> ThirtyOneCommand | None:
        legal = moves(view)
        if not legal or view.me is None or view.thirty_one is None:
            return None
        hand, table = view.me.hand, view.thirty_one.table
        last = view.thirty_one.phase == ThirtyOneTableViewPhase.LAST_CIRCUIT
        for kind in self.rng.sample(legal, len(legal)):
            if kind == "swap":
                pairs = [(g, t) for g in hand for t in table]
                if last:  # in the last circuit a swap must leave at least 21
                    pairs = [(g, t) for g, t in pairs if score(_swapped(hand, g, t)) >= 21]
                if pairs:
                    give, take = self.rng.choice(pairs)
                    return Swap(give=give, take=take)
                continue
            return _simple(kind)
        return None


def _simple(kind: str) -> ThirtyOneCommand:
    match kind:
        case "keep":
            return Keep()
        case "exchange":
            return Exchange()
        case "swap_all":
            return SwapAll()
        case "pass":
            return Pass()
        case "show":
            return Show()
    raise ValueError(f"not a simple command: {kind}")


#: The score at which the good bot shows, by players still in the match: with more players
#: someone else is more likely to be lowest, so a lower hand is safe.
SHOW_AT = {2: 27.0, 3: 26.0, 4: 25.0}
SHOW_AT_MANY = 24.0


class GoodThirtyOneBot:
    """Swaps toward its best suit sum, takes the whole table when it is better, shows above a
    threshold that depends on the players left, and in the last circuit keeps or takes whatever
    scores most. It remembers which suits each seat has taken from the table, and avoids handing
    the next seat a card of those suits."""

    name = "good"

    def __init__(self, rng: random.Random | None = None, show_at: dict[int, float] | None = None):
        self.rng = rng or random.Random()
        self.show_at = show_at or SHOW_AT
        self.wants: dict[int, set[str]] = {}

    def observe(self, event: GameEvent) -> None:
        match event:
            case ThirtyOneRoundDealtEvent():
                self.wants = {}
            case ThirtyOneCardSwappedEvent(data=swapped) if swapped.take not in CHRONICLERS:
                self.wants.setdefault(swapped.seat, set()).add(suit(swapped.take))
            case _:
                pass

    def threshold(self, view: ThirtyOneGameView) -> float:
        left = sum(1 for p in view.players if not p.out)
        return self.show_at.get(left, SHOW_AT_MANY)

    def _next_seat(self, view: ThirtyOneGameView, seat: int) -> int:
        n = len(view.players)
        for step in range(1, n + 1):
            other = (seat + step) % n
            if not view.players[other].out:
                return other
        return seat

    def _gift(self, view: ThirtyOneGameView, seat: int, card: str) -> float:
        """How much a card laid on the table would help the next seat, as far as we can tell."""
        if card in CHRONICLERS:
            return 11.0
        wanted = self.wants.get(self._next_seat(view, seat), set())
        return VALUES[rank(card)] if suit(card) in wanted else VALUES[rank(card)] / 10

    def act(self, view: ThirtyOneGameView) -> ThirtyOneCommand | None:
        legal = moves(view)
        if not legal or view.me is None or view.thirty_one is None:
            return None
        hand, table, seat = list(view.me.hand), list(view.thirty_one.table), view.me.seat
        if legal == ["show"]:
            return Show()
        if "keep" in legal:
            return Exchange() if potential(table) > potential(hand) + 1 else Keep()
        swaps = [(g, t) for g in hand for t in table] if "swap" in legal else []
        if view.thirty_one.phase == ThirtyOneTableViewPhase.LAST_CIRCUIT:
            return self._last_turn(view, hand, table, swaps, legal)
        now = score(hand)
        # Three Aces win on the spot.
        for give, take in swaps:
            if score(_swapped(hand, give, take)) == 33:
                return Swap(give=give, take=take)
        if "swap_all" in legal and score(table) == 33:
            return SwapAll()
        if "show" in legal and now >= self.threshold(view):
            return Show()
        options: list[tuple[float, float, ThirtyOneCommand]] = [
            (potential(_swapped(hand, g, t)), -self._gift(view, seat, g), Swap(give=g, take=t))
            for g, t in swaps
        ]
        if "swap_all" in legal:
            gift = sum(self._gift(view, seat, c) for c in hand)
            options.append((potential(table), -gift, SwapAll()))
        best = max(options, key=lambda o: (o[0], o[1]), default=None)
        if best is not None and best[0] > potential(hand):
            return best[2]
        if "pass" in legal:
            return Pass()
        if "show" in legal and now >= min(21.0, self.threshold(view)):
            return Show()
        if best is not None:
            return best[2]
        return Show()

    def _last_turn(
        self,
        view: ThirtyOneGameView,
        hand: list[str],
        table: list[str],
        swaps: list[tuple[str, str]],
        legal: list[str],
    ) -> ThirtyOneCommand:
        seat = view.me.seat if view.me else 0
        best: tuple[float, float, ThirtyOneCommand] = (score(hand), 1.0, Pass())
        for give, take in swaps:
            after = score(_swapped(hand, give, take))
            if after >= 21:
                best = max(
                    best,
                    (after, -self._gift(view, seat, give), Swap(give=give, take=take)),
                    key=lambda o: (o[0], o[1]),
                )
        if "swap_all" in legal:
            best = max(best, (score(table), -100.0, SwapAll()), key=lambda o: (o[0], o[1]))
        return best[2]


# --- the game, as the shared code finds it (games.py) ---------------------------------------


def _create(options: dict[str, Any], seed: int | Unset) -> CreateThirtyOneGame:
    return CreateThirtyOneGame(options=ThirtyOneOptions.from_dict(options), seed=seed)


def _plainest(view: ThirtyOneGameView) -> ThirtyOneCommand:
    """Keep the dealt hand, then pass; show when nothing else is left."""
    legal = view.legal or []
    return Keep() if "keep" in legal else Pass() if "pass" in legal else Show()


def _ends_round(event: GameEvent) -> bool:
    return isinstance(event, ThirtyOneRoundEndedEvent)


def _describe(event: GameEvent, names: Sequence[str]) -> str | None:
    match event:
        case ThirtyOneRoundEndedEvent(data=ended):
            lost = ", ".join(names[s] for s in ended.lost_life) or "nobody"
            out = ", ".join(names[s] for s in ended.out) or "nobody"
            scores = ["-" if s is None else f"{s:g}" for s in ended.scores]
            aces = "" if ended.three_aces is None else f", three Aces: {names[ended.three_aces]}"
            return (
                f"round {ended.round_}: scores [{', '.join(scores)}]{aces}; lost a life: {lost}; "
                f"out: {out}; lives {ended.lives}"
            )
        case ThirtyOneMatchEndedEvent(data=won):
            return "match over: " + ", ".join(names[s] for s in won.winners) + " won"
        case _:
            return None


def _seen(event: GameEvent) -> list[list[str]]:
    """Cards laid face up (the table dealt, a hand laid down, shown or scored) and a seat's own."""
    match event:
        case ThirtyOneRoundDealtEvent(data=dealt):
            return [[*(c for hand in dealt.hands if hand is not None for c in hand), *dealt.table]]
        case ThirtyOneHandExchangedEvent(data=laid) | ThirtyOneHandsSwappedEvent(data=laid):
            return [laid.table]
        case ThirtyOneCardSwappedEvent(data=swapped):
            return [[swapped.give, swapped.take]]
        case ThirtyOneHandShownEvent(data=shown):
            return [shown.hand]
        case ThirtyOneRoundEndedEvent(data=ended):
            return [[c for hand in ended.hands if hand is not None for c in hand]]
        case _:
            return []


def _shown(view: ThirtyOneGameView) -> list[str]:
    """The table's cards."""
    return list(view.thirty_one.table) if view.thirty_one else []


GAME: Game[ThirtyOneGameView, ThirtyOneCommand, CreateThirtyOneGame] = Game(
    kind="thirty_one",
    view=ThirtyOneGameView,
    bots={"good": GoodThirtyOneBot, "random": RandomThirtyOneBot},
    create=_create,
    races=(),
    plainest=_plainest,
    ends_round=_ends_round,
    describe=_describe,
    seen=_seen,
    shown=_shown,
    examples=(
        """--game thirty_one --bots good,random,random --options '{"lives": 1}'""",
        "--url http://localhost:8000 --game thirty_one",
    ),
)
