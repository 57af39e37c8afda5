"""A game is one package: what the generic layers know of a game, each engine declares.

The house's pacing and its read of the table come from the engine (`answers`, `may_answer`,
`Timing.pause_seconds`), so `application/house.py` names no game's command; each engine declares
the seats it allows (`seats`), which `/v1/kinds` lists; and each names the event that ends its
match (`end_event`), which the wire marks as the last.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import msgspec
import msgspec.inspect as mi
import pytest

from kronikas.api.kinds import _option, describe
from kronikas.application import house
from kronikas_rules import cheat, thirty_one
from kronikas_rules.cheat.engine import ENGINE as CHEAT
from kronikas_rules.common import CapReached, InvalidOptions, Start
from kronikas_rules.engine import Rules, Seats, rules, tag_of
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.apps import ENGINES
from tests.source import parse


def _names_in(path: Path) -> set[str]:
    """Every string constant and identifier of a module's code (its docstrings left out)."""
    tree = parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            names.add(node.value)
        elif isinstance(node, ast.Name):
            names.add(node.id)
        elif isinstance(node, ast.Attribute):
            names.add(node.attr)
    return names


def test_the_house_names_no_games_command_or_kind() -> None:
    assert house.__file__ is not None
    names = {n.lower() for n in _names_in(Path(house.__file__))}
    for kind, game in ENGINES.items():
        own = {kind, game.title.lower()} | {tag_of(c) for c in game.commands}
        own -= {"leave", "back"}  # the seating commands every game shares
        assert not own & names, f"application/house.py names {sorted(own & names)} of {kind}"


def test_each_engine_says_which_commands_answer_the_last_play_out_of_turn() -> None:
    assert [tag_of(c) for c in ENGINES["cheat"].answers] == ["call"]
    assert ENGINES["thirty_one"].answers == ()
    lobby = thirty_one.initial_state(thirty_one.ThirtyOneOptions(), False)
    assert ENGINES["thirty_one"].may_answer(lobby) == frozenset()


def test_the_pause_is_the_engines_timing() -> None:
    state = cheat.initial_state(cheat.CheatOptions(house_pause_seconds=7, turn_seconds=9), False)
    assert ENGINES["cheat"].timing(state) == (9, 7)
    assert ENGINES["cheat"].timing(state).pause_seconds == 7
    state31 = thirty_one.initial_state(thirty_one.ThirtyOneOptions(turn_seconds=30), False)
    assert ENGINES["thirty_one"].timing(state31).pause_seconds == 0


def _extreme_options(options_type: type[msgspec.Struct]) -> list[msgspec.Struct]:
    """The defaults, and each integer option alone at its top: how `/v1/kinds` once guessed."""
    info = mi.type_info(options_type)
    assert isinstance(info, mi.StructType)
    out = [options_type()]
    for field in info.fields:
        option = _option(field)
        if option.type == "integer" and option.maximum is not None:
            out.append(msgspec.structs.replace(options_type(), **{field.name: option.maximum}))
    return out


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_the_declared_seats_are_those_the_options_allow(kind: str) -> None:
    game = ENGINES[kind]
    least, most = game.seats
    allowed = [game.max_players(o) for o in _extreme_options(game.options)]
    assert max(allowed) == most and min(allowed) >= least >= 1


def test_the_seats_declared_are_the_seats_listed() -> None:
    assert (CHEAT.seats, THIRTY_ONE.seats) == (Seats(2, 8), Seats(2, 9))
    narrower = rules(dataclasses.replace(THIRTY_ONE, seats=Seats(3, 5)))
    info = describe(narrower)
    assert (info.min_players, info.max_players) == (3, 5)


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_the_end_event_is_the_one_that_ends_the_match(kind: str) -> None:
    game = ENGINES[kind]
    state = game.initial_state(game.options(), False)
    for event in game.created(game.options(), False):
        state = game.evolve(state, event)
    (ended,) = game.decide(state, CapReached(), None, SeededRandomness(1))
    assert type(ended) is game.end_event
    assert game.is_terminal(game.evolve(state, ended))


# --- both engines in one style ------------------------------------------------------------------


@pytest.mark.parametrize("engine", [CHEAT, THIRTY_ONE], ids=lambda e: e.kind)
def test_an_engine_names_its_games_own_functions_not_adapters(engine: Rules) -> None:
    """Each function is the game's own, or the builder's one composition around it (seating,
    legal moves, the viewer): never an adapter of an adapter."""
    package = f"kronikas_rules.{engine.kind}."
    for name in ("decide", "evolve", "legal", "legal_moves", "view", "redact", "waiting_for"):
        function = getattr(engine, name)
        assert function.__name__ == name, f"{name} is wrapped in {function.__name__}"
        home = function.__module__
        assert home == "kronikas_rules.builder" or home.startswith(package), (name, home)


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
def test_options_are_held_to_the_limits_their_types_declare(kind: str) -> None:
    """Every integer option one past either end of its declared range is refused, by name,
    through the engine's one check; so is every boolean option given a number."""
    engine = ENGINES[kind]
    engine.validate_options(engine.options())
    for field in mi.type_info(engine.options).fields:  # type: ignore[union-attr]
        kind_ = field.type.type if isinstance(field.type, mi.Metadata) else field.type
        if isinstance(kind_, mi.UnionType):
            kind_ = next(t for t in kind_.types if not isinstance(t, mi.NoneType))
            kind_ = kind_.type if isinstance(kind_, mi.Metadata) else kind_
        if isinstance(kind_, mi.IntType):
            wrong = [kind_.ge - 1, kind_.le + 1]
        elif isinstance(kind_, mi.BoolType):
            wrong = [1]
        else:
            continue
        for value in wrong:
            options = msgspec.structs.replace(engine.options(), **{field.name: value})
            with pytest.raises(InvalidOptions, match=f"^{field.name} must "):
                engine.validate_options(options)


def test_cheats_round_is_in_phases_a_turn_then_the_window_after_a_play() -> None:
    rng = SeededRandomness(4)
    state: cheat.State = cheat.initial_state(cheat.CheatOptions(), False)
    for command in (Join("a", "A"), Join("b", "B"), Start()):
        for event in cheat.decide(state, command, None, rng):
            state = cheat.evolve(state, event)
    assert isinstance(state, cheat.ToPlay) and cheat.may_call(state) == frozenset()
    turn = state.deal.turn
    first = cheat.legal_moves(state, turn)[0]
    for event in cheat.decide(state, first, turn, rng):
        state = cheat.evolve(state, event)
    assert isinstance(state, cheat.Window) and state.top.seat == turn
    assert cheat.may_call(state) == {1 - turn}
