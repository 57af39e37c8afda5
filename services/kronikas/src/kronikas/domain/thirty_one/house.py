"""The house's Thirty-One: build the best suit from what lies open, show once the hand is good
enough for the seats still in, and in the last circuit keep or take the best score there is.

It reads only the seat's view (its hand, the table, the shown hands, lives): Thirty-One hides
nothing else that play reveals, so the round's events add nothing it needs.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from kronikas.domain.cards import COLOURED
from kronikas.domain.thirty_one.commands import (
    Command,
    Exchange,
    Keep,
    Pass,
    Show,
    Swap,
    SwapAll,
)
from kronikas.domain.thirty_one.events import Event
from kronikas.domain.thirty_one.scoring import score, swapped
from kronikas.domain.thirty_one.view_types import ThirtyOneGameView

_VALUES = {"7": 7, "8": 8, "9": 9, "10": 10, "U": 10, "O": 10, "K": 10, "A": 11}
THREE_ACES = 66
"""Three Aces, doubled as `score` counts: the round is won on the spot."""
SHOW_AT = {2: 50, 3: 54}
"""The doubled score at which the house shows, by the number of players still in."""
SHOW_AT_MANY = 56
LONG = 10
"""After this many circuits the house shows whatever it holds: rounds must end."""


def _potential(hand: Sequence[str]) -> float:
    """How close a hand is to a good one: its doubled score, or under 21 its best suit's sum."""
    scored = score(tuple(hand))
    if scored:
        return float(scored)
    sums: dict[str, int] = {}
    coloured = 0
    for card in hand:
        if card == COLOURED:
            coloured += 1
            continue
        sums[card[-1]] = sums.get(card[-1], 0) + _VALUES[card[:-1]]
    best = max(sums.values(), default=0) + 11 * coloured
    return best * 1.6  # below a real score of the same sum: it scores nothing yet


def house_command(
    view: ThirtyOneGameView, history: Sequence[Event], rng: random.Random
) -> Command | None:
    """The seat's move now (None when it has none)."""
    legal = view.legal or []
    if view.me is None or view.thirty_one is None or not legal:
        return None
    hand, table = tuple(view.me.hand), tuple(view.thirty_one.table)
    if "keep" in legal:
        return Exchange() if _potential(table) > _potential(hand) + 2 else Keep()
    swaps = [(g, t) for g in hand for t in table] if "swap" in legal else []
    now = score(hand)
    if view.thirty_one.phase == "last_circuit":
        best: tuple[int, Command] = (now, Pass())
        for give, take in swaps:
            after = score(swapped(hand, give, take))
            if after > best[0]:
                best = (after, Swap(give=give, take=take))
        if "swap_all" in legal and score(table) > best[0]:
            best = (score(table), SwapAll())
        return best[1] if best[1] is not None else Pass()
    for give, take in swaps:
        if score(swapped(hand, give, take)) == THREE_ACES:
            return Swap(give=give, take=take)
    if "swap_all" in legal and score(table) == THREE_ACES:
        return SwapAll()
    left = sum(1 for p in view.players if not p.out)
    circuit = view.thirty_one.circuit or 1
    if "show" in legal and (now >= SHOW_AT.get(left, SHOW_AT_MANY) or circuit >= LONG):
        return Show()
    options: list[tuple[float, Command]] = [
        (_potential(swapped(hand, g, t)), Swap(give=g, take=t)) for g, t in swaps
    ]
    if "swap_all" in legal:
        options.append((_potential(table), SwapAll()))
    choice = max(options, key=lambda o: o[0], default=None)
    if choice is not None and choice[0] > _potential(hand):
        return choice[1]
    if "pass" in legal:
        return Pass()
    if "show" in legal and now:
        return Show()
    if choice is not None:
        return choice[1]
    return Show() if "show" in legal else None
