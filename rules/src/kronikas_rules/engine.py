"""The contract every game keeps, in code (docs/engines.md).

A game is a package that builds one `Engine` from its own functions, typed with its own options,
states, commands, events and view: mypy checks each function of the game against the contract.
The application drives every game through `Rules`, the same `Engine` seen with the shared types
(`rules` hands it over as it is: no wrapper, no second copy of the contract), so no `Any` passes
between the layers and a move costs no more than the game's own functions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Generic, Literal, NamedTuple, Protocol, TypeAlias, TypeVar, cast

import msgspec

from kronikas_rules import seating
from kronikas_rules.common import CapReached, Randomness, Start
from kronikas_rules.seating import Join, TimeOut

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)


class View(Protocol):
    """What the application reads of any game's view (the rest goes to the wire as it is)."""

    @property
    def status(self) -> str: ...

    @property
    def players(self) -> Sequence[object]: ...


ViewT = TypeVar("ViewT", bound=View)


class Timing(NamedTuple):
    """A table's clocks: seconds a person has for a turn (None: no clock), and how long the
    house, next to move, waits while a person may still answer the last play (`may_answer`)
    before its move buries that play."""

    turn_seconds: int | None
    pause_seconds: int


class Seats(NamedTuple):
    """How many may play a game: the fewest a match starts with, and the most any of its
    options allow (`Engine.max_players` says how many the given options allow)."""

    least: int
    most: int


Status: TypeAlias = Literal["open", "playing", "finished"]
"""A table's status, as every game's view and the lobby give it: taking players, started, over."""

STATUS_OF: Final[dict[seating.Stage, Status]] = {
    "lobby": "open",
    "playing": "playing",
    "over": "finished",
}


class Standing(NamedTuple):
    """What the lobby lists of a table, read from its state without making a view: its
    `status` and how many `players` sit at it (both as its views say)."""

    status: Status
    players: int


class Viewer(NamedTuple):
    """Whom a game's view is made for, as the builder hands it over: the `seat` (None: a
    spectator), what that seat may do now (`legal`, None for a spectator), the table's
    `status`, and whether the view carries the viewer's `openings` (a command's answer does
    not: its mover was sent each of them by the events that opened them, docs/api.md)."""

    seat: int | None
    legal: list[str] | None
    status: Status
    openings: bool = True


StateIn = TypeVar("StateIn", contravariant=True)
CommandIn = TypeVar("CommandIn", contravariant=True)
EventOut = TypeVar("EventOut")
CommandOut = TypeVar("CommandOut")
ViewOut = TypeVar("ViewOut", covariant=True)


class Decide(Protocol[StateIn, CommandIn, EventOut]):
    """The events of a command by `seat` (None for Join, Start, TimeOut, CapReached: the
    application's); `by_house`: the house chose it for a seat it plays."""

    def __call__(
        self,
        state: StateIn,
        command: CommandIn | Join | Start | TimeOut | CapReached,
        seat: int | None,
        rng: Randomness,
        by_house: bool = False,
    ) -> list[EventOut]: ...


class Legal(Protocol[StateIn]):
    """The command types a seat may send now (`by_house`: for a seat the house plays)."""

    def __call__(self, state: StateIn, seat: int, by_house: bool = False) -> list[str]: ...


class LegalMoves(Protocol[StateIn, CommandOut]):
    """Every command a seat may send now, in the order of `Legal`."""

    def __call__(self, state: StateIn, seat: int, by_house: bool = False) -> list[CommandOut]: ...


class Viewing(Protocol[StateIn, ViewOut]):
    """The view of a seat (None: a spectator), with the deadline; `by_house`: as the house sees
    a seat it plays (its `legal` then lists the moves the house may make); `openings`: False
    for a command's answer, whose view leaves them out (`Viewer.openings`)."""

    def __call__(
        self,
        state: StateIn,
        viewer: int | None,
        game_id: str,
        version: int,
        deadline: str | None = None,
        by_house: bool = False,
        openings: bool = True,
    ) -> ViewOut: ...


@dataclass(frozen=True, slots=True)
class Engine(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    """One game: its types, and the functions of the Decider with its views and legal moves."""

    kind: str
    """The game's name on the wire (its kind), also the tag of its create request and its view."""
    title: str
    """How the game is named to people (its title)."""
    options: type[OptionsT]
    """Its table options: every field has a default, and limits the kinds listing shows."""
    states: tuple[type[StateT], ...]
    commands: tuple[type[CommandT], ...]
    """Its wire commands, tagged on `type` (tags unique across every game)."""
    events: tuple[type[EventT], ...]
    """Its stored events, tagged on `type`; the wire names them `<kind>.<tag>`."""
    view_type: type[ViewT]
    deal_event: type[EventT]
    """Its event that deals a round: what the house remembers starts there."""
    end_event: type[EventT]
    """Its event that ends the match, the last of a finished table's log: the wire marks it
    `final`, so a client following any game's events knows when to stop."""
    seats: Seats
    event_cap: int
    """The most events a table's log holds: the decision that takes it there is followed by the
    match's end (`decide` of `CapReached`), far beyond the longest match the game's bots play."""
    max_players: Callable[[OptionsT], int]
    """The most seats a table with these options has (at most `seats.most`)."""
    validate_options: Callable[[OptionsT], None]
    """Raises `InvalidOptions` outside the limits of docs/rules.md."""
    created: Callable[[OptionsT, bool], list[EventT]]
    """The first events of every table, from its options and whether it is seeded."""
    initial_state: Callable[[OptionsT, bool], StateT]
    decide: Decide[StateT, CommandT, EventT]
    evolve: Callable[[StateT, EventT], StateT]
    legal: Legal[StateT]
    legal_moves: LegalMoves[StateT, CommandT]
    view: Viewing[StateT, ViewT]
    redact: Callable[[EventT, int | None], EventT]
    is_terminal: Callable[[StateT], bool]
    waiting_for: Callable[[StateT], int | None]
    """The seat whose clock runs: the one the table waits for."""
    house_seats: Callable[[StateT], frozenset[int]]
    """The seats the house plays now: house players', those whose player left, those away."""
    seat_of: Callable[[StateT, str], int | None]
    timing: Callable[[StateT], Timing]
    standing: Callable[[StateT], Standing]
    house_command: Callable[[ViewT, Sequence[EventT], random.Random], CommandT | None]
    """The house's move for a seat it plays, from that seat's view and its round's events as the
    seat saw them: a move when the seat is to act, an answer to the last play (`answers`) when
    it decides to, else None."""
    account: Callable[[Sequence[EventT], int | None, Sequence[str]], str]
    """A table's events in words for one viewer (docs/api.md, "Records"): the events as that
    viewer's events page holds them (redacted, in order), its seat (None: a spectator) and the
    seats' names; round by round, naming only cards those events show it."""
    places: Callable[[Sequence[EventT]], list[float]]
    """Each seat's place at a finished table, from its events as the table's log holds them
    (unredacted, in order): 1 the best, seats tied sharing the average of the places they span
    (`places.shared_places`). ValueError when the log holds no end of the match."""
    answers: tuple[type[CommandT], ...] = ()
    """Its commands that answer the last play out of turn (a call of a bluff); none by default."""
    may_answer: Callable[[StateT], frozenset[int]] = lambda state: frozenset()
    """The seats that may answer the last play now, out of turn (`answers`): while a person
    among them may, the house, next to move, waits `Timing.pause_seconds` before its move
    buries that play. None by default: the house never waits."""
    rules_text: str | None = None
    """The game's rules as people and agents read them (`rules.md` in its package: what `/mcp`
    serves); None when the package has none."""

    def accepts(self, command: msgspec.Struct) -> bool:
        """Whether a command is one of this game's (the wire's union carries every game's)."""
        return isinstance(command, self.commands)

    def house(
        self,
        state: StateT,
        seat: int,
        game_id: str,
        version: int,
        seen: Sequence[EventT],
        rng: random.Random,
        by_house: bool = True,
    ) -> CommandT | None:
        """The house's command for `seat`, decided from what that seat has seen alone: its view
        (as the house plays it; `by_house=False`: as the seat's own player sees it, for a seat
        the house does not play) and `seen`, its round's events redacted for it."""
        view = self.view(state, seat, game_id, version, by_house=by_house)
        return self.house_command(view, [self.redact(e, seat) for e in seen], rng)


Rules: TypeAlias = "Engine[msgspec.Struct, object, msgspec.Struct, msgspec.Struct, View]"
"""A game as the application drives it, whichever it is: its `Engine`, seen with the types all
games share. A table's engine is found by the table's kind, so its state, commands and events
are the game's own; the application asks `accepts` before it decides a command from the wire."""


def tag_of(cls: type[msgspec.Struct]) -> str:
    """The `type` tag of a command or event class."""
    tag = cls.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{cls.__name__} has no text tag")
    return tag


def rules(engine: Engine[OptionsT, StateT, CommandT, EventT, ViewT]) -> Rules:
    """The engine as the application drives it: the same object, seen with the shared types
    (an `Engine` is invariant in its types, so this is the one place that widens them)."""
    return cast(Rules, engine)


def registry(*games: Rules) -> dict[str, Rules]:
    """The games by kind. A kind named twice is refused, and so is a command tag that two games
    use for two classes: one wire union carries every game's commands. (A command class that
    two games share, such as `leave`, is one command.)"""
    found: dict[str, Rules] = {}
    classes: dict[str, type[msgspec.Struct]] = {}
    for game in games:
        if game.kind in found:
            raise ValueError(f"two games are named {game.kind!r}")
        for command in game.commands:
            tag = tag_of(command)
            if classes.setdefault(tag, command) is not command:
                raise ValueError(f"two commands are tagged {tag!r}")
        found[game.kind] = game
    return found
