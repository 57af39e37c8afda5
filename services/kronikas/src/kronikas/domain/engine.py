"""The contract every game keeps, in code (docs/engines.md).

A game is a package that builds one `Engine` from its own functions, typed with its own options,
states, commands, events and view: mypy checks each function of the game against the contract.
The application drives every game through `Rules`, the same contract with the game's types
checked at run time where they cross into it, so no `Any` passes between the layers.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, NamedTuple, Protocol, TypeVar

import msgspec

from kronikas.domain.common import CapReached, EventOutOfPlace, Join, Randomness, Start, TimeOut

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


class Standing(NamedTuple):
    """What the lobby lists of a table, read from its state without making a view: its
    `status` and how many `players` sit at it (both as its views say)."""

    status: str
    players: int


@dataclass(frozen=True, slots=True)
class Engine(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    """One game: its types, and the functions of the Decider with its views and legal moves."""

    kind: str
    """The game's name on the wire (`cheat`), also the tag of its create request and its view."""
    title: str
    """How the game is named to people (`Cheat`)."""
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
    decide: Callable[
        [StateT, CommandT | Join | Start | TimeOut | CapReached, int | None, Randomness, bool],
        list[EventT],
    ]
    """The events of a command by `seat` (None for Join, Start, TimeOut, CapReached: the
    application's); the last argument says
    the house chose it for a seat it plays."""
    evolve: Callable[[StateT, EventT], StateT]
    legal: Callable[[StateT, int, bool], list[str]]
    """The command types a seat may send now (the house: for a seat it plays)."""
    legal_moves: Callable[[StateT, int, bool], list[CommandT]]
    view: Callable[[StateT, int | None, str, int, str | None, bool], ViewT]
    """The view of a seat (None: a spectator), with the deadline; the last argument: as the
    house sees a seat it plays (its `legal` then lists the moves the house may make)."""
    redact: Callable[[EventT, int | None], EventT]
    is_terminal: Callable[[StateT], bool]
    waiting_for: Callable[[StateT], int | None]
    """The seat whose clock runs: the one the table waits for."""
    house_seats: Callable[[StateT], frozenset[int]]
    """The seats the house plays now: house players', those whose player left, those away."""
    seat_of: Callable[[StateT, str], int | None]
    timing: Callable[[StateT], Timing]
    standing: Callable[[StateT], Standing]
    house: Callable[[ViewT, Sequence[EventT], random.Random], CommandT | None]
    """The house's move for a seat it plays, from that seat's view and its round's events as the
    seat saw them: a move when the seat is to act, an answer to the last play (`answers`) when
    it decides to, else None."""
    answers: tuple[type[CommandT], ...] = ()
    """Its commands that answer the last play out of turn (Cheat's `call`); none by default."""
    may_answer: Callable[[StateT], frozenset[int]] = lambda state: frozenset()
    """The seats that may answer the last play now, out of turn (`answers`): while a person
    among them may, the house, next to move, waits `Timing.pause_seconds` before its move
    buries that play. None by default: the house never waits."""


class Rules(Protocol):
    """A game as the application drives it, whichever it is: the `Engine` contract, with the
    game's own types checked where they come in (a foreign state, command or event is refused)."""

    @property
    def kind(self) -> str: ...

    @property
    def title(self) -> str: ...

    @property
    def options(self) -> type[msgspec.Struct]: ...

    @property
    def commands(self) -> tuple[type[msgspec.Struct], ...]: ...

    @property
    def events(self) -> tuple[type[msgspec.Struct], ...]: ...

    @property
    def view_type(self) -> type[View]: ...

    @property
    def deal_event(self) -> type[msgspec.Struct]: ...

    @property
    def end_event(self) -> type[msgspec.Struct]: ...

    @property
    def seats(self) -> Seats: ...

    @property
    def answers(self) -> tuple[type[msgspec.Struct], ...]: ...

    @property
    def event_cap(self) -> int: ...

    def max_players(self, options: msgspec.Struct) -> int: ...

    def validate_options(self, options: msgspec.Struct) -> None: ...

    def created(self, options: msgspec.Struct, seeded: bool) -> list[msgspec.Struct]: ...

    def initial_state(self, options: msgspec.Struct, seeded: bool) -> object: ...

    def accepts(self, command: msgspec.Struct) -> bool: ...

    def decide(
        self,
        state: object,
        command: msgspec.Struct,
        seat: int | None,
        rng: Randomness,
        by_house: bool = False,
    ) -> list[msgspec.Struct]: ...

    def evolve(self, state: object, event: msgspec.Struct) -> object: ...

    def legal(self, state: object, seat: int, by_house: bool = False) -> list[str]: ...

    def legal_moves(
        self, state: object, seat: int, by_house: bool = False
    ) -> list[msgspec.Struct]: ...

    def view(
        self,
        state: object,
        viewer: int | None,
        game_id: str,
        version: int,
        deadline: str | None = None,
        by_house: bool = False,
    ) -> View: ...

    def redact(self, event: msgspec.Struct, viewer: int | None) -> msgspec.Struct: ...

    def is_terminal(self, state: object) -> bool: ...

    def waiting_for(self, state: object) -> int | None: ...

    def house_seats(self, state: object) -> frozenset[int]: ...

    def seat_of(self, state: object, player_id: str) -> int | None: ...

    def may_answer(self, state: object) -> frozenset[int]: ...

    def timing(self, state: object) -> Timing: ...

    def standing(self, state: object) -> Standing: ...

    def house(
        self,
        state: object,
        seat: int,
        game_id: str,
        version: int,
        seen: Sequence[msgspec.Struct],
        rng: random.Random,
    ) -> msgspec.Struct | None: ...


def tag_of(cls: type[msgspec.Struct]) -> str:
    """The `type` tag of a command or event class."""
    tag = cls.__struct_config__.tag
    if not isinstance(tag, str):
        raise TypeError(f"{cls.__name__} has no text tag")
    return tag


class ForeignInput(TypeError):
    """Options or a command of another game: the caller chose the wrong engine (a bug)."""


class _Checked(Generic[OptionsT, StateT, CommandT, EventT, ViewT]):
    """An `Engine` offered as `Rules`: each value that comes in is checked to be the game's own."""

    __slots__ = ("_engine",)

    def __init__(self, engine: Engine[OptionsT, StateT, CommandT, EventT, ViewT]) -> None:
        self._engine = engine

    @property
    def kind(self) -> str:
        return self._engine.kind

    @property
    def title(self) -> str:
        return self._engine.title

    @property
    def options(self) -> type[OptionsT]:
        return self._engine.options

    @property
    def commands(self) -> tuple[type[CommandT], ...]:
        return self._engine.commands

    @property
    def events(self) -> tuple[type[EventT], ...]:
        return self._engine.events

    @property
    def view_type(self) -> type[ViewT]:
        return self._engine.view_type

    @property
    def deal_event(self) -> type[EventT]:
        return self._engine.deal_event

    @property
    def end_event(self) -> type[EventT]:
        return self._engine.end_event

    @property
    def seats(self) -> Seats:
        return self._engine.seats

    @property
    def answers(self) -> tuple[type[CommandT], ...]:
        return self._engine.answers

    @property
    def event_cap(self) -> int:
        return self._engine.event_cap

    def _options(self, options: msgspec.Struct) -> OptionsT:
        if isinstance(options, self._engine.options):
            return options
        raise ForeignInput(f"{type(options).__name__} are not {self._engine.title}'s options.")

    def _state(self, state: object) -> StateT:
        if isinstance(state, self._engine.states):
            return state
        raise EventOutOfPlace(f"{type(state).__name__} is not a state of {self._engine.title}.")

    def _event(self, event: msgspec.Struct) -> EventT:
        if isinstance(event, self._engine.events):
            return event
        raise EventOutOfPlace(f"{type(event).__name__} is not an event of {self._engine.title}.")

    def max_players(self, options: msgspec.Struct) -> int:
        return self._engine.max_players(self._options(options))

    def validate_options(self, options: msgspec.Struct) -> None:
        self._engine.validate_options(self._options(options))

    def created(self, options: msgspec.Struct, seeded: bool) -> list[msgspec.Struct]:
        return [*self._engine.created(self._options(options), seeded)]

    def initial_state(self, options: msgspec.Struct, seeded: bool) -> StateT:
        return self._engine.initial_state(self._options(options), seeded)

    def accepts(self, command: msgspec.Struct) -> bool:
        return isinstance(command, self._engine.commands)

    def decide(
        self,
        state: object,
        command: msgspec.Struct,
        seat: int | None,
        rng: Randomness,
        by_house: bool = False,
    ) -> list[msgspec.Struct]:
        own = self._engine.commands
        if isinstance(command, own) or isinstance(command, Join | Start | TimeOut | CapReached):  # noqa: SIM101
            return [*self._engine.decide(self._state(state), command, seat, rng, by_house)]
        raise ForeignInput(f"{type(command).__name__} is not a command of {self._engine.title}.")

    def evolve(self, state: object, event: msgspec.Struct) -> StateT:
        return self._engine.evolve(self._state(state), self._event(event))

    def legal(self, state: object, seat: int, by_house: bool = False) -> list[str]:
        return self._engine.legal(self._state(state), seat, by_house)

    def legal_moves(self, state: object, seat: int, by_house: bool = False) -> list[msgspec.Struct]:
        return [*self._engine.legal_moves(self._state(state), seat, by_house)]

    def view(
        self,
        state: object,
        viewer: int | None,
        game_id: str,
        version: int,
        deadline: str | None = None,
        by_house: bool = False,
    ) -> ViewT:
        return self._engine.view(self._state(state), viewer, game_id, version, deadline, by_house)

    def redact(self, event: msgspec.Struct, viewer: int | None) -> EventT:
        return self._engine.redact(self._event(event), viewer)

    def is_terminal(self, state: object) -> bool:
        return self._engine.is_terminal(self._state(state))

    def waiting_for(self, state: object) -> int | None:
        return self._engine.waiting_for(self._state(state))

    def house_seats(self, state: object) -> frozenset[int]:
        return self._engine.house_seats(self._state(state))

    def seat_of(self, state: object, player_id: str) -> int | None:
        return self._engine.seat_of(self._state(state), player_id)

    def may_answer(self, state: object) -> frozenset[int]:
        return self._engine.may_answer(self._state(state))

    def timing(self, state: object) -> Timing:
        return self._engine.timing(self._state(state))

    def standing(self, state: object) -> Standing:
        return self._engine.standing(self._state(state))

    def house(
        self,
        state: object,
        seat: int,
        game_id: str,
        version: int,
        seen: Sequence[msgspec.Struct],
        rng: random.Random,
    ) -> msgspec.Struct | None:
        """The house's command for `seat`, decided from what that seat has seen alone: its view
        (as the house plays it) and `seen`, its round's events redacted for it."""
        mine = self._state(state)
        view = self._engine.view(mine, seat, game_id, version, None, True)
        history = [self._engine.redact(self._event(e), seat) for e in seen]
        return self._engine.house(view, history, rng)


def rules(engine: Engine[OptionsT, StateT, CommandT, EventT, ViewT]) -> Rules:
    """The engine as the application drives it."""
    checked = _Checked(engine)
    return checked


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
