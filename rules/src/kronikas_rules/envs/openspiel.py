"""The games as OpenSpiel games (issue 44): `python_kronikas_<kind>`, one per game of the rules,
registered with `pyspiel.register_game` by `register()` (README, "OpenSpiel").

A state drives a `Table` of the rules, one decision at a time (the decision driver: the same
actions and observations as the PettingZoo environments), so every rule is the service's own.
The deals are chance nodes: the table deals through a `Dealing` that has no outcome to give, so
a decision that deals (the start, a round's end) stops with `Draw`; the state is then a chance
node that draws the first dealer (one of `players` seats, uniform) or the deck card by card
(each card left equally likely, outcome = the card's number in `dealing.CODES`), and once the
draw is complete decides the same thing again with those outcomes.

What each seat knows is the rules' own redaction: the information state is the seat's account
of the match in words (`Engine.account` of its redacted events) and the decision it is in; the
observation is its view and its tensor the driver's encoding. The game gives no information
state tensor: OpenSpiel asks it to remember the whole match in a fixed size, and a round may
run to hundreds of plays.
"""

from __future__ import annotations

import copy
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Protocol

import msgspec
import numpy as np
import numpy.typing as npt
import pyspiel

from kronikas_rules.cards import Card, card_name
from kronikas_rules.envs.dealing import CODE_INDEX, CODES, Dealing, Draw
from kronikas_rules.games import games
from kronikas_rules.table import Table

PREFIX: Final = "python_kronikas_"
"""Each game's OpenSpiel name is this and its kind: `python_kronikas_cheat`."""

Params = Mapping[str, Any]


class Decisions(Protocol):
    """One match as a sequence of single decisions (the decision driver)."""

    def seat(self) -> int | None:
        """The seat that decides now; None when the match is over."""
        ...

    def legal_actions(self) -> list[int]:
        """The actions the deciding seat may take, ascending."""
        ...

    def step(self, action: int) -> None:
        """Take the deciding seat's action (its command reaches the table when complete)."""
        ...

    def action_name(self, action: int) -> str:
        """The action in words."""
        ...

    def observation(self, seat: int) -> npt.NDArray[np.float32]:
        """What `seat` observes, encoded (a fixed size)."""
        ...

    def decision(self, seat: int) -> str:
        """The decision `seat` is in, in words (its picks so far), or ''."""
        ...

    def returns(self) -> list[float]:
        """Each seat's return once the match is over."""
        ...

    def copy(self, table: Table) -> Decisions:
        """The same driver, over `table` (a copy of its own)."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """What OpenSpiel needs of one game besides the rules (its `openspiel_<kind>` module)."""

    long_name: str
    parameters: Params
    """Its parameters with their defaults: `players` and the table options that change play."""
    options: Callable[[Params], dict[str, Any]]
    """The table options of the parameters."""
    num_actions: int
    utility: tuple[float, float]
    """The least and the most a seat's return may be."""
    zero_sum: bool
    max_game_length: Callable[[msgspec.Struct, int], int]
    """The most decisions a match of these options and players takes."""
    driver: Callable[[Table], Decisions]
    observation_size: Callable[[msgspec.Struct, int], int]


def spec_of(kind: str) -> GameSpec:
    """The game's spec, from its module (`kronikas_rules.envs.openspiel_<kind>`)."""
    spec: GameSpec = importlib.import_module(f"kronikas_rules.envs.openspiel_{kind}").SPEC
    return spec


def game_type(kind: str, spec: GameSpec) -> pyspiel.GameType:
    """The game's OpenSpiel type: sequential, dealt by chance, imperfect information."""
    utility = pyspiel.GameType.Utility
    return pyspiel.GameType(
        short_name=PREFIX + kind,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility.ZERO_SUM if spec.zero_sum else utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=games()[kind].seats.most,
        min_num_players=games()[kind].seats.least,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=dict(spec.parameters),
    )


def register() -> None:
    """Register every game with OpenSpiel (`pyspiel.load_game("python_kronikas_cheat")`);
    again, it does nothing."""
    known = set(pyspiel.registered_names())
    for kind in games():
        if PREFIX + kind in known:
            continue
        spec = spec_of(kind)
        pyspiel.register_game(game_type(kind, spec), game_class(kind, spec))


def game_class(kind: str, spec: GameSpec) -> type[KronikasGame]:
    """The game's class, made from its params alone, as OpenSpiel creates a game (a class, not
    a closure: OpenSpiel frees a registered function at exit without the GIL)."""
    return type(f"KronikasGame_{kind}", (KronikasGame,), {"kind": kind, "spec": spec})


@dataclass(frozen=True)
class Setup:
    """A game's kind, spec, players and table options: what its states need of it (a state
    that held its Python game would tie the two in a cycle through OpenSpiel's C++ objects,
    which the interpreter's exit then frees without the GIL)."""

    kind: str
    spec: GameSpec
    players: int
    options: msgspec.Struct

    def __reduce__(self) -> tuple[object, ...]:
        return (_setup, (self.kind, self.players, self.options))


def _setup(kind: str, players: int, options: msgspec.Struct) -> Setup:
    return Setup(kind, spec_of(kind), players, options)


class KronikasGame(pyspiel.Game):  # type: ignore[misc]
    """One game of the rules with its parameters (players and table options); `game_class`
    makes each game's own class."""

    kind: str
    spec: GameSpec

    def __init__(self, params: Params | None = None) -> None:
        kind, spec = self.kind, self.spec
        given = {**spec.parameters, **(params or {})}
        players: int = given["players"]
        engine = games()[kind]
        options = msgspec.convert(spec.options(given), engine.options)
        engine.validate_options(options)
        if not engine.seats.least <= players <= engine.max_players(options):
            raise ValueError(f"{players} players cannot sit at this table")
        self.setup = Setup(kind, spec, players, options)
        low, high = spec.utility
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions,
            max_chance_outcomes=max(len(CODES), players),
            num_players=players,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if spec.zero_sum else None,
            max_game_length=spec.max_game_length(options, players),
        )
        super().__init__(game_type(kind, spec), info, dict(params or {}))

    def new_initial_state(self) -> KronikasState:
        """A table before its first deal: a chance node."""
        return KronikasState(self, self.setup)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: Params | None = None
    ) -> Observer:
        """The observer: the information state (perfect recall) in words, or the observation
        (its string the seat's view, its tensor the driver's encoding)."""
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        setup = self.setup
        size = setup.spec.observation_size(setup.options, setup.players)
        return Observer(None if recall else size)


class _Match:
    """The mutable part of a state: the table, its driver and the draw in progress. A clone
    copies it alone (`__deepcopy__`): the rules' states and events are never changed."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.table: Table | None = None
        self.driver: Decisions | None = None
        self.draw: Draw | None = None
        self.drawn: list[Card] = []
        self.picks: list[int] = []
        self.decks: list[list[Card]] = []
        self.pending: int | None = None
        """The action that dealt (None: the start), decided again once the draw is done."""
        self.actions: list[int] = []
        """Every action and chance outcome so far: what a serialized state keeps."""
        self.attempt()

    def __reduce__(self) -> tuple[object, ...]:
        return (_replayed, (self.setup, tuple(self.actions)))

    def __deepcopy__(self, memo: dict[int, object]) -> _Match:
        copied = copy.copy(self)
        copied.actions = list(self.actions)
        if self.table is not None and self.driver is not None:
            copied.table = self.table.copy()
            copied.driver = self.driver.copy(copied.table)
        copied.drawn, copied.picks = list(self.drawn), list(self.picks)
        copied.decks = [list(deck) for deck in self.decks]
        return copied

    def attempt(self) -> None:
        """Start the match, or take the pending action, with the outcomes drawn so far; a
        `Draw` makes the state a chance node."""
        dealing = Dealing(self.picks, self.decks)
        try:
            if self.table is None:
                setup = self.setup
                table = Table(setup.kind, setup.players, options=setup.options, randomness=dealing)
                self.table, self.driver = table, setup.spec.driver(table)
            else:
                assert self.driver is not None and self.pending is not None
                self.table.random = dealing
                self.driver.step(self.pending)
        except Draw as draw:
            self.draw, self.drawn = draw, []
            return
        self.draw, self.picks, self.decks, self.pending = None, [], [], None
        self.table.random = Dealing()

    def apply(self, action: int) -> None:
        """A chance outcome at a chance node, else the deciding seat's action."""
        self.actions.append(action)
        if self.draw is not None:
            self.deal(action)
        else:
            self.pending = action
            self.attempt()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        draw = self.draw
        assert draw is not None
        if not draw.cards:
            return [(seat, 1.0 / draw.n) for seat in range(draw.n)]
        left = draw.left(self.drawn)
        total = sum(left.values())
        return sorted((CODE_INDEX[card], count / total) for card, count in left.items())

    def deal(self, outcome: int) -> None:
        """Take one chance outcome; once the draw is complete, decide again with it."""
        draw = self.draw
        assert draw is not None
        if not draw.cards:
            self.picks.append(outcome)
        else:
            self.drawn.append(CODES[outcome])
            if len(self.drawn) < len(draw.cards):
                return
            self.decks.append(self.drawn)
        self.attempt()


class KronikasState(pyspiel.State):  # type: ignore[misc]
    """A match of one game: a chance node while a deal is drawn, else one seat's decision."""

    def __init__(self, game: KronikasGame, setup: Setup) -> None:
        super().__init__(game)
        self._match = _Match(setup)

    @property
    def table(self) -> Table | None:
        """The rules' table this state plays (None before the first deal is drawn)."""
        return self._match.table

    def current_player(self) -> int:
        match = self._match
        if match.draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert match.driver is not None
        seat = match.driver.seat()
        return int(pyspiel.PlayerId.TERMINAL) if seat is None else seat

    def _legal_actions(self, player: int) -> list[int]:
        driver = self._match.driver
        assert driver is not None and player == driver.seat()
        return driver.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._match.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            draw = self._match.draw
            if draw is not None and not draw.cards:
                return f"Seat {action} deals first"
            return f"Deal the {card_name(CODES[action])}"
        driver = self._match.driver
        assert driver is not None
        return driver.action_name(action)

    def is_terminal(self) -> bool:
        match = self._match
        return match.draw is None and match.driver is not None and match.driver.seat() is None

    def returns(self) -> list[float]:
        driver = self._match.driver
        if not self.is_terminal() or driver is None:
            return [0.0] * self.num_players()
        return driver.returns()

    def __str__(self) -> str:
        match = self._match
        table = match.table
        lines = []
        if table is not None:
            for seat in range(self.num_players()):
                hand = msgspec.to_builtins(table.view(seat)).get("me", {}).get("hand", [])
                lines.append(f"Seat {seat}: {' '.join(hand)}")
        if match.draw is not None:
            lines.append(f"Dealing {match.draw}: {' '.join(match.drawn)}")
        elif match.driver is not None and (seat := match.driver.seat()) is not None:
            lines.append(f"Seat {seat} to act. {match.driver.decision(seat)}".strip())
        else:
            lines.append("The match is over.")
        return "\n".join(lines)


def _replayed(setup: Setup, actions: tuple[int, ...]) -> _Match:
    """A match from its setup and actions (a serialized state's)."""
    match = _Match(setup)
    for action in actions:
        match.apply(action)
    return match


class Observer:
    """A seat's information state in words (`tensor` None), or its observation: the view in
    JSON, and the driver's encoding as the tensor `observation`."""

    def __init__(self, size: int | None) -> None:
        self.tensor: npt.NDArray[np.float32] | None = None
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        if size is not None:
            self.tensor = np.zeros(size, np.float32)
            self.dict["observation"] = self.tensor

    def set_from(self, state: KronikasState, player: int) -> None:
        """Write `player`'s observation of `state` into `tensor`."""
        assert self.tensor is not None
        match = state._match
        if match.driver is None:
            self.tensor.fill(0)
            return
        self.tensor[:] = match.driver.observation(player)

    def string_from(self, state: KronikasState, player: int) -> str:
        """`player`'s information state (its account and decision) or observation (its view)."""
        match = state._match
        table, driver = match.table, match.driver
        if table is None or driver is None:
            return f"Seat {player}: the first deal is being drawn."
        decision = driver.decision(player) if driver.seat() == player else ""
        if self.tensor is not None:
            view = msgspec.json.encode(table.view(player)).decode()
            return f"{view}\n{decision}".rstrip()
        names = [f"Player {seat + 1}" for seat in range(state.num_players())]
        account = table.engine.account(table.events_for(player), player, names)
        return f"{account}\n{decision}".rstrip()
