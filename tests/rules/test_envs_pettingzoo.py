"""The PettingZoo environments pass PettingZoo's own API and seed tests, as its classic card
games do, and keep to the issue's promises: spaces, rewards at the end, words for `ansi`."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from kronikas_rules.common import Refusal
from kronikas_rules.envs import SeatInfo, cheat_v0, house_policy, random_policy, thirty_one_v0

GAMES = [
    (cheat_v0, 2, {}),
    (cheat_v0, 4, {"chroniclers": True}),
    (cheat_v0, 6, {"decks": 2, "max_play": 2}),
    (thirty_one_v0, 2, {}),
    (thirty_one_v0, 5, {"chronicler": True, "lives": 1}),
]


@pytest.mark.parametrize(("module", "players", "options"), GAMES)
def test_the_environment_passes_pettingzoos_api_test(
    module: Any, players: int, options: dict[str, Any]
) -> None:
    env = module.env(players=players, options=options)
    env.reset(seed=players)  # api_test's own resets, unseeded, go on from this seed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # api_test warns of what it cannot judge (int8 masks)
        api_test(env, num_cycles=300)


@pytest.mark.parametrize(("module", "players", "options"), GAMES)
def test_the_environment_passes_pettingzoos_seed_test(
    module: Any, players: int, options: dict[str, Any]
) -> None:
    seed_test(lambda: module.env(players=players, options=options), num_cycles=300)


def _play(module: Any, players: int, seed: int, policy: Any) -> tuple[dict[str, float], int]:
    env = module.env(players=players)
    env.reset(seed=seed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, info = env.last()
        totals[agent] += reward
        if termination or truncation:
            env.step(None)
            continue
        assert isinstance(info["seat"], SeatInfo) and info["seat"].kind is not None
        assert reward == 0
        env.step(policy(observation, info["seat"]))
        steps += 1
    return totals, steps


@pytest.mark.parametrize("module", [cheat_v0, thirty_one_v0])
@pytest.mark.parametrize("policy", [random_policy, house_policy])
def test_a_match_ends_with_rewards_from_places(module: Any, policy: Any) -> None:
    totals, steps = _play(module, 3, 5, policy)
    assert steps > 0
    assert sorted(totals.values())[-1] == 1.0 and sum(totals.values()) == pytest.approx(0)


def test_spaces_are_a_dict_of_observation_and_mask_and_a_discrete_action() -> None:
    env = cheat_v0.raw_env(players=3)
    env.reset(seed=1)
    space = env.observation_space("player_0")
    assert set(space.spaces) == {"observation", "action_mask"}
    assert env.action_space("player_0").n == 38
    observed = env.observe("player_0")
    assert observed["observation"].dtype == np.float32 and observed["action_mask"].dtype == np.int8
    assert space.contains(observed)
    assert thirty_one_v0.raw_env(players=4).action_space("player_3").n == 14


def test_only_the_deciding_agent_has_legal_actions() -> None:
    env = thirty_one_v0.raw_env(players=3)
    env.reset(seed=2)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert mask.any() == (agent == env.agent_selection)


def test_ansi_rendering_tells_the_round_in_words() -> None:
    env = cheat_v0.env(players=2, render_mode="ansi")
    env.reset(seed=3)
    for _ in range(6):
        observation, *_, info = env.last()
        env.step(house_policy(observation, info["seat"]))
    text = env.render()
    assert "Round 1" in text and "put down" in text and "Now:" in text


def test_options_and_players_are_arguments() -> None:
    env = cheat_v0.raw_env(players=5, options={"decks": 2, "rounds": 2})
    env.reset(seed=4)
    assert env.driver is not None
    assert env.driver.table.options.decks == 2 and len(env.possible_agents) == 5
    with pytest.raises(Refusal):  # one deck seats 4
        cheat_v0.raw_env(players=5, options={"decks": 1})


@pytest.mark.parametrize(("module", "players", "options"), GAMES)
def test_observations_stay_in_their_space_over_many_matches(
    module: Any, players: int, options: dict[str, Any]
) -> None:
    env = module.raw_env(players=players, options=options)
    space = env.observation_space("player_0")
    for seed in range(6):
        env.reset(seed=seed)
        driver = env.driver
        while driver.current is not None:
            for agent in env.agents:
                assert space.contains(env.observe(agent)), (seed, agent)
            seat = driver.current.seat
            driver.act(random_policy(driver.observe(seat), driver.info(seat)))
