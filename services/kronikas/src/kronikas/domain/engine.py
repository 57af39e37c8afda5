"""The contract every game keeps, in code (docs/engines.md).

A game is a package that builds one `Engine` from its own functions, typed with its own options,
states, commands, events and view: mypy checks each function of the game against the contract.
The application drives every game through `Rules`, the same contract with the game's types
checked at run time where they cross into it, so no `Any` passes between the layers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

import msgspec

from kronikas.domain.common import EventOutOfPlace, Join, Randomness, Start

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
    min_players: int
    max_players: Callable[[OptionsT], int]
    validate_options: Callable[[OptionsT], None]
    """Raises `InvalidOptions` outside the limits of docs/rules.md."""
    created: Callable[[OptionsT, bool], list[EventT]]
    """The first events of every table, from its options and whether it is seeded."""
    initial_state: Callable[[OptionsT, bool], StateT]
    decide: Callable[[StateT, CommandT | Join | Start, int | None, Randomness], list[EventT]]
    evolve: Callable[[StateT, EventT], StateT]
    legal: Callable[[StateT, int], list[str]]
    legal_moves: Callable[[StateT, int], list[CommandT]]
    view: Callable[[StateT, int | None, str, int], ViewT]
    redact: Callable[[EventT, int | None], EventT]
    is_terminal: Callable[[StateT], bool]


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
    def min_players(self) -> int: ...

    def max_players(self, options: msgspec.Struct) -> int: ...

    def validate_options(self, options: msgspec.Struct) -> None: ...

    def created(self, options: msgspec.Struct, seeded: bool) -> list[msgspec.Struct]: ...

    def initial_state(self, options: msgspec.Struct, seeded: bool) -> object: ...

    def accepts(self, command: msgspec.Struct) -> bool: ...

    def decide(
        self, state: object, command: msgspec.Struct, seat: int | None, rng: Randomness
    ) -> list[msgspec.Struct]: ...

    def evolve(self, state: object, event: msgspec.Struct) -> object: ...

    def legal(self, state: object, seat: int) -> list[str]: ...

    def legal_moves(self, state: object, seat: int) -> list[msgspec.Struct]: ...

    def view(self, state: object, viewer: int | None, game_id: str, version: int) -> View: ...

    def redact(self, event: msgspec.Struct, viewer: int | None) -> msgspec.Struct: ...

    def is_terminal(self, state: object) -> bool: ...


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
    def min_players(self) -> int:
        return self._engine.min_players

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
        self, state: object, command: msgspec.Struct, seat: int | None, rng: Randomness
    ) -> list[msgspec.Struct]:
        if isinstance(command, self._engine.commands) or isinstance(command, Join | Start):  # noqa: SIM101 - each narrows
            return [*self._engine.decide(self._state(state), command, seat, rng)]
        raise ForeignInput(f"{type(command).__name__} is not a command of {self._engine.title}.")

    def evolve(self, state: object, event: msgspec.Struct) -> StateT:
        return self._engine.evolve(self._state(state), self._event(event))

    def legal(self, state: object, seat: int) -> list[str]:
        return self._engine.legal(self._state(state), seat)

    def legal_moves(self, state: object, seat: int) -> list[msgspec.Struct]:
        return [*self._engine.legal_moves(self._state(state), seat)]

    def view(self, state: object, viewer: int | None, game_id: str, version: int) -> ViewT:
        return self._engine.view(self._state(state), viewer, game_id, version)

    def redact(self, event: msgspec.Struct, viewer: int | None) -> EventT:
        return self._engine.redact(self._event(event), viewer)

    def is_terminal(self, state: object) -> bool:
        return self._engine.is_terminal(self._state(state))


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
