"""Each seat checks every opening it receives (`kronikas_client.proofs`); it says when one fails.

A seat's checker takes every event its seat sees, in order (the deals' commitments and the
openings the events carry), and each view it reads (the openings it holds, the hand it shows);
the cards its game shows face up in an event or a view (`Game.seen`, `Game.shown`) must be
opened too. Each problem is printed once, on standard error, naming the seat.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, TextIO

from kronikas_client.events import GameEvent
from kronikas_client.proofs import Openings

from .base import View


@dataclass
class OpeningCheck:
    """The openings one seat (or a spectator) received, checked as they come."""

    who: str
    seen: Callable[[GameEvent], list[list[str]]]
    """The groups of cards an event shows its viewer face up (each group seen together)."""
    shown: Callable[[Any], list[str]]
    """The cards a view shows face up besides the viewer's hand (a table's)."""
    out: TextIO = field(default_factory=lambda: sys.stderr)
    openings: Openings = field(default_factory=Openings)
    said: int = 0

    def events(self, events: Iterable[GameEvent]) -> None:
        for event in events:
            self.openings.observe(event)
            round = self.openings.round
            for cards in self.seen(event):
                if round is not None and cards:
                    self.openings.saw(round, cards)
        self._say()

    def view(self, view: View) -> None:
        self.openings.view(view)
        round, cards = getattr(view, "round_", None), self.shown(view)
        if isinstance(round, int) and round > 0 and cards:
            self.openings.saw(round, cards)
        self._say()

    @property
    def problems(self) -> list[str]:
        return self.openings.problems

    def _say(self) -> None:
        for problem in self.problems[self.said :]:
            print(f"{self.who}: an opening does not check: {problem}", file=self.out)
        self.said = len(self.problems)
