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

import dataclasses
import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final

import msgspec
import numpy as np
import numpy.typing as npt
import pyspiel

from kronikas_rules.cards import Card, card_name
from kronikas_rules.envs.dealing import CODE_INDEX, CODES, Dealing, Draw
from kronikas_rules.envs.decisions import Driver
from kronikas_rules.envs.games import encoding_of
from kronikas_rules.games import games
from kronikas_rules.table import Table

PREFIX: Final = "python_kronikas_"
"""Each game's OpenSpiel name is this and its kind: `python_kronikas_cheat`."""

Params = Mapping[str, Any]


@dataclass(frozen=True)
class GameSpec:
    """What OpenSpiel needs of one game besides the rules (its `openspiel_<kind>` module)."""

    long_name: str
    parameters: Params
    """Its parameters with their defaults: `players` and the table options that change play."""
    options: Callable[[Params], dict[str, Any]]
    """The table options of the parameters."""
    max_game_length: Callable[[msgspec.Struct, int], int]
    """The most decisions a match of these options and players takes."""


def game_class(kind: str) -> type[KronikasGame]:
    """The game's class, made from its parameters alone as OpenSpiel makes a game: its
    module's (`kronikas_rules.envs.openspiel_<kind>`), where pickle finds it. (A class, not a
    closure: OpenSpiel frees a registered function at exit without the GIL.)"""
    module = importlib.import_module(f"kronikas_rules.envs.openspiel_{kind}")
    game: type[KronikasGame] = module.OpenSpielGame
    return game


def spec_of(kind: str) -> GameSpec:
    """The game's spec (its class's)."""
    return game_class(kind).spec


def game_type(kind: str, spec: GameSpec) -> pyspiel.GameType:
    """The game's OpenSpiel type: sequential, dealt by chance, imperfect information."""
    return pyspiel.GameType(
        short_name=PREFIX + kind,
        long_name=spec.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,  # rewards by places sum to 0
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
        game = game_class(kind)
        pyspiel.register_game(game_type(kind, game.spec), game)


@dataclass(frozen=True)
class Setup:
    """A game's kind, spec, players and table options: what its states need of it, and what
    a pickled state keeps of it (its kind, players and options)."""

    kind: str
    spec: GameSpec
    players: int
    options: msgspec.Struct
    first: Draw | None = None
    """What the first deal needs (the same for every match): a new state starts with it
    rather than trying the start again."""

    def __reduce__(self) -> tuple[object, ...]:
        return (_setup, (self.kind, self.players, self.options))


def _setup(kind: str, players: int, options: msgspec.Struct) -> Setup:
    return Setup(kind, spec_of(kind), players, options)


class KronikasGame(pyspiel.Game):  # type: ignore[misc]
    """One game of the rules with its parameters (players and table options); each game's
    module makes its own class of it (`game_class`), naming its `kind` and `spec`."""

    kind: ClassVar[str]
    spec: ClassVar[GameSpec]

    def __init__(self, params: Params | None = None) -> None:
        kind, spec = self.kind, self.spec
        given = {**spec.parameters, **(params or {})}
        players: int = given["players"]
        engine = games()[kind]
        options = msgspec.convert(spec.options(given), engine.options)
        engine.validate_options(options)
        least, most = engine.seats.least, engine.max_players(options)
        if not least <= players <= most:
            raise ValueError(f"{players} players: these options seat {least} to {most}")
        setup = Setup(kind, spec, players, options)
        self.setup = dataclasses.replace(setup, first=_Match(setup).draw)
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding_of(kind).num_actions,
            max_chance_outcomes=max(len(CODES), players),
            num_players=players,
            min_utility=-1.0,  # the first place's reward is 1, the last's -1
            max_utility=1.0,
            utility_sum=0.0,
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
        size = encoding_of(setup.kind).observation_size(setup.players)
        return Observer(None if recall else size)


class _Match:
    """The mutable part of a state: the table, its driver and the draw in progress. A clone
    copies it alone (`__deepcopy__`): the rules' states and events are never changed."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.table: Table | None = None
        self.driver: Driver | None = None
        self.draw: Draw | None = None
        self.drawn: list[Card] = []
        self.picks: list[int] = []
        self.decks: list[list[Card]] = []
        self.pending: int | None = None
        """The action that dealt (None: the start), decided again once the draw is done."""
        self.actions: list[int] = []
        """Every action and chance outcome so far: what a serialized state keeps."""
        self.text: tuple[int, str] = (-1, "")
        """The state in words, and after how many actions (a clone is compared by it)."""
        if setup.first is None:
            self.attempt()
        else:
            self.draw = setup.first

    def __reduce__(self) -> tuple[object, ...]:
        return (_replayed, (self.setup, tuple(self.actions)))

    def __deepcopy__(self, memo: dict[int, object]) -> _Match:
        copied = _Match.__new__(_Match)  # not copy.copy: that would replay (`__reduce__`)
        copied.__dict__.update(self.__dict__)
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
                self.table, self.driver = table, Driver(table, encoding_of(setup.kind), seed=0)
            else:
                assert self.driver is not None and self.pending is not None
                self.table.random = dealing
                self.driver.act(self.pending)
        except Draw as draw:
            self.draw, self.drawn = draw.with_traceback(None), []  # let the frames go
            return
        self.draw, self.picks, self.decks, self.pending = None, [], [], None
        self.table.random = Dealing()

    def apply(self, action: int) -> None:
        """A chance outcome at a chance node, else the deciding seat's action; one that is
        not possible raises and changes nothing."""
        if self.draw is not None:
            self.deal(action)
        else:
            self.pending = action
            try:
                self.attempt()
            except Exception:
                self.pending = None  # the driver refused it before anything moved
                raise
        self.actions.append(action)

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
        if outcome not in dict(self.chance_outcomes()):
            raise ValueError(f"{outcome} is no chance outcome of {draw} now")
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

    @property
    def driver(self) -> Driver | None:
        """The decision driver over `table`: its `info(seat)` is what a `Policy` gets."""
        return self._match.driver

    def current_player(self) -> int:
        match = self._match
        if match.draw is not None:
            return int(pyspiel.PlayerId.CHANCE)
        assert match.driver is not None
        current = match.driver.current
        return int(pyspiel.PlayerId.TERMINAL) if current is None else current.seat

    def _legal_actions(self, player: int) -> list[int]:
        driver = self._match.driver
        assert driver is not None
        return [int(action) for action in np.flatnonzero(driver.mask(player))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._match.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self._match.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        match = self._match
        if player == pyspiel.PlayerId.CHANCE:
            if match.draw is not None and not match.draw.cards:
                return f"{_player(action)} deals first"
            return f"Deal the {card_name(CODES[action])}"
        return encoding_of(match.setup.kind).action_names[action]

    def is_terminal(self) -> bool:
        match = self._match
        return match.draw is None and match.driver is not None and match.driver.current is None

    def returns(self) -> list[float]:
        driver = self._match.driver
        if not self.is_terminal() or driver is None:
            return [0.0] * self.num_players()
        return driver.rewards()

    def __str__(self) -> str:
        match = self._match
        if match.text[0] != len(match.actions):
            match.text = (len(match.actions), _words(match, self.num_players()))
        return match.text[1]


def _words(match: _Match, players: int) -> str:
    """A state in words: each seat's hand, and the deal drawn or the decision waited for."""
    table = match.table
    lines = []
    if table is not None:
        for seat in range(players):
            me = getattr(table.view(seat), "me", None)  # every game's view has its `MyHand`
            lines.append(f"{_player(seat)}: {' '.join(getattr(me, 'hand', ()))}")
    if match.draw is not None:
        lines.append(f"Dealing {match.draw}: {' '.join(match.drawn)}")
    elif match.driver is not None and match.driver.current is not None:
        lines.append(_deciding(match.driver))
    else:
        lines.append("The match is over.")
    return "\n".join(lines)


def _deciding(driver: Driver, who: str | None = None) -> str:
    """The decision waited for, in words: who decides (its player by default), its kind and
    the picks so far."""
    current = driver.current
    assert current is not None
    picks = f", picked {' '.join(driver.picks)}" if driver.picks else ""
    return f"{who or _player(current.seat)} decides: {current.kind}{picks}."


def _player(seat: int) -> str:
    """A seat as the accounts name it: OpenSpiel's player 0 is Player 1."""
    return f"Player {seat + 1}"


def _replayed(setup: Setup, actions: tuple[int, ...]) -> _Match:
    """A match from its setup and actions (a serialized state's)."""
    match = _Match(setup)
    for action in actions:
        match.apply(action)
    return match


PROOFS: Final = frozenset({"openings", "commitment", "version"})
"""What an observation string leaves out of a view: the deal's proofs (its commitment, the
openings of the seat's cards) and the log's length, which tell nothing of the play and would
make every deal's observations differ."""


def _unproved(data: Any) -> Any:
    """A view's wire form without `PROOFS`, at any depth."""
    if isinstance(data, dict):
        return {key: _unproved(value) for key, value in data.items() if key not in PROOFS}
    if isinstance(data, list):
        return [_unproved(value) for value in data]
    return data


class Observer:
    """A seat's information state in words (`tensor` None), or its observation: its view in
    JSON (without `PROOFS`), and the driver's encoding as the tensor `observation`."""

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
        self.tensor[:] = match.driver.observe(player)["observation"]

    def string_from(self, state: KronikasState, player: int) -> str:
        """`player`'s information state (its account and decision) or observation (its view)."""
        match = state._match
        table, driver = match.table, match.driver
        if table is None or driver is None:
            return "The first deal is being drawn."
        current = driver.current
        deciding = current is not None and current.seat == player
        decision = _deciding(driver, "You") if deciding else ""
        if match.draw is not None:  # the action that deals is taken once the deal is drawn
            decision = "The next deal is being drawn."
        if self.tensor is not None:
            view = msgspec.json.encode(_unproved(msgspec.to_builtins(table.view(player))))
            return f"{view.decode()}\n{decision}".rstrip()
        names = [_player(seat) for seat in range(state.num_players())]
        account = table.engine.account(table.events_for(player), player, names)
        # The seat's own actions too: the order of a play's picks is in no event.
        own = " ".join(str(a.action) for a in state.full_history() if a.player == player)
        return f"{account}\nYour actions: {own}\n{decision}".rstrip()
