"""What a bot is, what the shared code reads of a view, and what it needs of a game.

A game's module (found by the table's kind in `games.py`) offers one `Game`: its view class, its
bots, its create request, its sentences. The shared modules (`table`, `runner`, `__main__`,
`sample`) read only what every game's view has, and reach a game only through its `Game`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from kronikas_client.events import GameEvent
from kronikas_client.types import Unset

PRESENCE = ("leave", "back")
"""Commands a seat may send about itself at any time (`legal` lists them too); not game moves."""


class Player(Protocol):
    """What the shared code reads of a seat in any game's view."""

    @property
    def house(self) -> bool: ...

    @property
    def away(self) -> bool: ...


class Me(Protocol):
    """What the shared code reads of a seat's own `me` in any game's view (each game's adds
    what its cards are worth)."""

    @property
    def seat(self) -> int: ...

    @property
    def hand(self) -> list[str]: ...


class View(Protocol):
    """What the shared code reads of any game's view; the game's own block is its bots' to read."""

    @property
    def id(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def version(self) -> int: ...

    @property
    def status(self) -> str: ...

    @property
    def turn(self) -> int | None: ...

    @property
    def legal(self) -> list[str] | None: ...

    @property
    def winners(self) -> list[int]: ...

    @property
    def players(self) -> Sequence[Player]: ...

    @property
    def me(self) -> Me | None: ...


def moves(view: View) -> list[str]:
    """The game's command types the seat may send now: `legal` less `leave` and `back`."""
    return [kind for kind in view.legal or [] if kind not in PRESENCE]


V_contra = TypeVar("V_contra", contravariant=True)
C_co = TypeVar("C_co", covariant=True)


class Bot(Protocol[V_contra, C_co]):
    """A player's brain. The driver feeds it every event its seat may see, in order, then asks
    `act` whenever the seat's view lists moves of the game (`moves`); `None` means "nothing
    now" (only a move any seat may make out of turn may be declined that way)."""

    name: str

    def observe(self, event: GameEvent) -> None:
        """Take note of one event (as this seat sees it)."""
        ...

    def act(self, view: V_contra) -> C_co | None:
        """The command to send now, or None to let the moment pass."""
        ...


V = TypeVar("V")
C = TypeVar("C")
B = TypeVar("B")


@dataclass(frozen=True)
class Game(Generic[V, C, B]):
    """One game as the bots know it: `V` its view, `C` its commands, `B` its create request."""

    kind: str
    """The table's `kind` on the wire."""
    view: type[V]
    bots: Mapping[str, Callable[[random.Random], Bot[V, C]]]
    """The bots that play it, by the name `--bots` gives them ("good", "random")."""
    create: Callable[[dict[str, Any], int | Unset], B]
    """The create request for these options (a JSON object) and seed."""
    races: tuple[type[C], ...]
    """Commands any seat may send out of turn: when several bots want to, the first one wins."""
    plainest: Callable[[V], C]
    """The plainest legal move of the seat on turn: what the sample bot sends."""
    ends_round: Callable[[GameEvent], bool]
    describe: Callable[[GameEvent, Sequence[str]], str | None]
    """A progress line for a round's or the match's end (seats named by `names`), else None."""
    seen: Callable[[GameEvent], list[list[str]]] = lambda event: []
    """The groups of cards an event shows its viewer face up, each group seen together (a hand
    dealt, cards turned up): each must come with its opening (`proofs.OpeningCheck`)."""
    shown: Callable[[V], list[str]] = lambda view: []
    """The cards a view shows face up besides the viewer's own hand (a table's)."""
    examples: tuple[str, ...] = ()
    """Command lines of `python -m kronikas_bots` for `--help`."""
    note: str = ""
    """What `--help` should say of this game, if anything."""
