"""The OpenSpiel games (`kronikas_rules.envs.openspiel`): they pass OpenSpiel's own random
simulation test, deal by chance nodes exactly as the rules deal, show each seat its own
information only, and share the environments' actions, observations and rewards."""

from __future__ import annotations

import json
import pickle
import random
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel installs on Linux x86_64 only")

from open_spiel.python.algorithms.get_all_states import get_all_states  # noqa: E402

from kronikas_rules.cards import card_name  # noqa: E402
from kronikas_rules.envs import encoding_of  # noqa: E402
from kronikas_rules.envs.dealing import CODES  # noqa: E402
from kronikas_rules.envs.decisions import IllegalAction  # noqa: E402
from kronikas_rules.envs.openspiel import KronikasState, register  # noqa: E402
from kronikas_rules.randomness import SeededRandomness  # noqa: E402
from kronikas_rules.table import Table  # noqa: E402

GAMES = [
    "python_kronikas_cheat",
    "python_kronikas_cheat(players=2,max_plays=20)",
    "python_kronikas_cheat(players=3,chroniclers=True,max_play=2,place_points=10:5)",
    "python_kronikas_cheat(players=5,decks=2,chroniclers=True,rounds=2,max_plays=20)",
    "python_kronikas_thirty_one",
    "python_kronikas_thirty_one(players=2,lives=0)",
    "python_kronikas_thirty_one(players=3,chronicler=True,lives=1,max_circuits=2)",
    "python_kronikas_thirty_one(players=2,max_circuits=0,lives=0)",
]


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register()


def _load(name: str) -> pyspiel.Game:
    return pyspiel.load_game(name)


def _play(state: KronikasState, chooser: random.Random, until: int = 10**9) -> None:
    """Random chance outcomes and random legal actions, until the end or `until` actions."""
    while not state.is_terminal() and len(state.history()) < until:
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chooser.choices(outcomes, weights)[0])
        else:
            state.apply_action(chooser.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_passes_openspiel_random_simulation_test(name: str) -> None:
    pyspiel.random_sim_test(_load(name), num_sims=2, serialize=True, verbose=False)


def test_register_twice_registers_each_game_once() -> None:
    register()
    names = pyspiel.registered_names()
    assert names.count("python_kronikas_cheat") == names.count("python_kronikas_thirty_one") == 1


def test_parameters_are_players_and_the_options_that_change_play() -> None:
    game = _load("python_kronikas_cheat(players=3,place_points=10:5)")
    assert game.num_players() == 3
    assert game.get_parameters() == {
        "players": 3,
        "decks": 1,
        "max_play": 4,
        "max_plays": 300,
        "rounds": 1,
        "place_points": "10:5",
        "chroniclers": False,
    }
    assert game.num_distinct_actions() == encoding_of("cheat").num_actions
    assert (game.min_utility(), game.max_utility(), game.utility_sum()) == (-1.0, 1.0, 0.0)
    assert _load(str(game)).get_parameters() == game.get_parameters()


def test_a_table_the_options_refuse_is_refused() -> None:
    with pytest.raises(ValueError, match="5 players"):
        _load("python_kronikas_cheat(players=5)")  # one deck seats 4


def test_the_first_dealer_then_every_card_is_a_chance_outcome() -> None:
    state = _load("python_kronikas_cheat(players=3)").new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)
    drawn = []
    for left in range(32, 0, -1):
        outcomes = state.chance_outcomes()
        assert len(outcomes) == left and all(p == pytest.approx(1 / left) for _, p in outcomes)
        drawn.append(outcomes[-1][0])
        state.apply_action(outcomes[-1][0])
    assert not state.is_chance_node() and state.current_player() == 0  # after the dealer
    assert state.table is not None
    assert state.table.events[-1].deck == [CODES[i] for i in drawn]


def test_two_decks_draw_each_code_by_its_copies_left() -> None:
    state = _load("python_kronikas_cheat(players=5,decks=2)").new_initial_state()
    state.apply_action(0)
    first = dict(state.chance_outcomes())
    assert len(first) == 32 and all(p == pytest.approx(2 / 64) for p in first.values())
    state.apply_action(0)  # one 7H drawn: one copy left of 63 cards
    assert dict(state.chance_outcomes())[0] == pytest.approx(1 / 63)


@pytest.mark.parametrize(("kind", "players"), [("cheat", 4), ("thirty_one", 3)])
def test_chance_outcomes_deal_as_the_rules_deal(kind: str, players: int) -> None:
    """Drawing a seeded table's dealer and deck by chance nodes deals the same hands."""
    seed = 7
    table = Table(kind, players, seed=seed)
    state = _load(f"python_kronikas_{kind}(players={players})").new_initial_state()
    state.apply_action(SeededRandomness(seed).pick(players))
    deck = SeededRandomness(seed).shuffle(state._match.draw.cards, 1).deck
    for card in deck:
        state.apply_action(CODES.index(card))
    assert state.table is not None
    for seat in range(players):
        assert state.table.view(seat).me.hand == table.view(seat).me.hand


def test_a_later_round_is_dealt_by_chance_nodes_too() -> None:
    state = _load("python_kronikas_cheat(players=2,max_plays=20,rounds=2)").new_initial_state()
    chooser = random.Random(3)
    chance_runs = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance_runs += 1
            while state.is_chance_node():
                state.apply_action(chooser.choice(state.legal_actions()))
        else:
            state.apply_action(chooser.choice(state.legal_actions()))
    assert chance_runs == 2  # the first dealer and deck, then the second round's deck


@pytest.mark.parametrize("name", ["python_kronikas_cheat", "python_kronikas_thirty_one"])
def test_an_information_state_names_no_card_the_seat_was_not_shown(name: str) -> None:
    state = _load(name).new_initial_state()
    chooser = random.Random(1)
    while state.is_chance_node():  # the first dealer and the deal
        _play(state, chooser, until=len(state.history()) + 1)
    assert state.table is not None
    for seat in range(state.num_players()):
        text = state.information_state_string(seat)
        hand = set(state.table.view(seat).me.hand)
        shown = set(getattr(getattr(state.table.view(seat), "thirty_one", None), "table", ()))
        for card in CODES[:32]:
            named = f"the {card_name(card)}" in text
            assert named == (card in hand | shown), (seat, card)


@pytest.mark.parametrize("name", ["python_kronikas_cheat", "python_kronikas_thirty_one"])
def test_every_own_action_changes_the_information_state(name: str) -> None:
    """Perfect recall, as far as a seat's own actions go: none leaves its state as it was."""
    state = _load(name).new_initial_state()
    chooser = random.Random(2)
    _play(state, chooser, until=40)
    for _ in range(60):
        if state.is_terminal():
            break
        if state.is_chance_node():
            _play(state, chooser, until=len(state.history()) + 1)
            continue
        seat = state.current_player()
        before = state.information_state_string(seat)
        state.apply_action(chooser.choice(state.legal_actions()))
        assert state.information_state_string(seat) != before  # a chance node says so too


@pytest.mark.parametrize("name", ["python_kronikas_cheat", "python_kronikas_thirty_one"])
def test_the_environments_actions_observations_and_rewards(name: str) -> None:
    state = _load(name).new_initial_state()
    chooser = random.Random(4)
    while not state.is_terminal():
        if not state.is_chance_node():
            driver = state.driver
            assert driver is not None
            seat = state.current_player()
            observed = driver.observe(seat)
            assert state.legal_actions() == list(np.flatnonzero(observed["action_mask"]))
            assert np.array_equal(state.observation_tensor(seat), observed["observation"])
        _play(state, chooser, until=len(state.history()) + 1)
    assert state.driver is not None
    assert state.returns() == state.driver.rewards()
    assert sum(state.returns()) == pytest.approx(0.0)


def test_a_clone_plays_on_without_its_original() -> None:
    state = _load("python_kronikas_cheat(players=3)").new_initial_state()
    chooser = random.Random(5)
    _play(state, chooser, until=60)
    before, history = str(state), state.history()
    clone = state.clone()
    _play(clone, chooser)
    assert clone.is_terminal()
    assert (str(state), state.history()) == (before, history)
    _play(state, chooser)
    assert state.is_terminal()


def test_a_serialized_state_comes_back_as_it_was() -> None:
    game = _load("python_kronikas_thirty_one(players=3)")
    state = game.new_initial_state()
    _play(state, random.Random(6), until=70)
    again = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1]
    assert (str(again), again.history()) == (str(state), state.history())
    assert again.information_state_string(1) == state.information_state_string(1)


def test_every_state_of_the_first_draws_is_reached() -> None:
    """`get_all_states` over the dealer's pick and the first two cards: every card left is a
    child of each state, one of each code."""
    game = _load("python_kronikas_thirty_one(players=2)")
    states = get_all_states(game, depth_limit=3, include_chance_states=True)
    assert len(states) == 1 + 2 + 2 * 32 + 2 * 32 * 31
    assert Counter(len(s.history()) for s in states.values())[3] == 2 * 32 * 31


def test_the_interpreter_exits_cleanly_after_games_are_freed() -> None:
    """OpenSpiel frees a game made by a registered function at exit without the GIL (a fatal
    error); each game is registered as a class, so a program that drops its games exits 0."""
    code = (
        "import pyspiel\n"
        "from kronikas_rules.envs.openspiel import register\n"
        "register()\n"
        "game = pyspiel.load_game('python_kronikas_cheat')\n"
        "state = game.new_initial_state()\n"
        "del state, game\n"
        "game = pyspiel.load_game('python_kronikas_thirty_one')\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stderr) == (0, "")


def test_the_benchmark_script_measures_both_games() -> None:
    from benchmarks.openspiel_steps import GAMES, measure

    for name in GAMES:
        decisions, steps, matches = measure(name, seconds=0.05)
        assert steps >= decisions > 0 and matches > 0


def test_a_game_and_its_state_pickle() -> None:
    game = _load("python_kronikas_cheat(players=3,chroniclers=True)")
    state = game.new_initial_state()
    _play(state, random.Random(8), until=50)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    copied = pickle.loads(pickle.dumps(state))
    assert (str(copied), copied.history()) == (str(state), state.history())


def test_an_impossible_action_or_outcome_raises_and_changes_nothing() -> None:
    state = _load("python_kronikas_cheat").new_initial_state()
    with pytest.raises(ValueError, match="no chance outcome"):
        state.apply_action(2)  # two seats: the first dealer is 0 or 1
    state.apply_action(0)
    state.apply_action(5)
    with pytest.raises(ValueError, match="no chance outcome"):
        state.apply_action(5)  # drawn already
    _play(state, random.Random(9), until=33)
    before, history = str(state), state.history()
    illegal = next(a for a in range(state.num_distinct_actions()) if a not in state.legal_actions())
    with pytest.raises(IllegalAction):
        state.apply_action(illegal)
    assert (str(state), state.history()) == (before, history)
    state.apply_action(state.legal_actions()[0])
    assert state.history() == [*history, state.history()[-1]]


def test_an_observation_string_is_the_view_without_its_proofs() -> None:
    state = _load("python_kronikas_thirty_one(players=3)").new_initial_state()
    _play(state, random.Random(10), until=40)
    assert state.table is not None
    view = json.loads(state.observation_string(2).splitlines()[0])
    assert view["me"]["hand"] == state.table.view(2).me.hand
    assert "openings" not in view and "commitment" not in view["thirty_one"]


def test_an_rl_environment_plays_a_match_on_the_observation_tensor() -> None:
    from open_spiel.python import rl_environment

    env = rl_environment.Environment(_load("python_kronikas_cheat(players=3)"), seed=11)
    size = encoding_of("cheat").observation_size(3)
    step = env.reset()
    chooser = random.Random(11)
    while not step.last():
        player = step.observations["current_player"]
        assert len(step.observations["info_state"][player]) == size
        step = env.step([chooser.choice(step.observations["legal_actions"][player])])
    assert sum(step.rewards) == pytest.approx(0.0)
