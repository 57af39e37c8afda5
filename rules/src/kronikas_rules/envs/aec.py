"""The PettingZoo AEC environment every game shares (`cheat_v0`, `thirty_one_v0` name it).

One agent per seat (`player_0` …), one `Driver` decision per step: `agent_selection` is the
seat that decides now. Each agent observes its own information only (`observe`), as a dict of
`observation` (float32, every entry in [0, 1]) and `action_mask` (int8); `infos[agent]["seat"]`
is its `SeatInfo`. Rewards come once, at the match's end (`Encoding.rewards`). `render_mode`
`"ansi"` tells the round in words, as the service's records do, for a spectator (or for the
seat `render_seat`).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from kronikas_rules.envs.decisions import Driver, Encoding
from kronikas_rules.envs.games import encoding_of
from kronikas_rules.table import Table

ObsDict = dict[str, npt.NDArray[Any]]


class KronikasEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """A match of `kind` at a table of `players` seats with table `options` (docs/rules.md);
    `reset(seed=…)` deals reproducibly."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi"],
        "name": "kronikas",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        kind: str,
        players: int = 2,
        options: Mapping[str, Any] | None = None,
        render_mode: str | None = None,
        render_seat: int | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of ['ansi']")
        self.kind, self.players = kind, players
        self.table_options = dict(options or {})
        self.render_mode, self.render_seat = render_mode, render_seat
        self.encoding: Encoding = encoding_of(kind)
        Table(kind, players, options=self.table_options, seed=0)  # refuses bad options now
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        size = self.encoding.observation_size(players)
        n_actions = self.encoding.num_actions
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, 1.0, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(n_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(n_actions) for agent in self.possible_agents}
        self._seeds: random.Random | None = None
        self.driver: Driver | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        return self._seats[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new match: dealt from `seed` (or, unseeded, from the last seed's sequence)."""
        if seed is not None or self._seeds is None:
            self._seeds = random.Random(seed)
        table_seed = self._seeds.getrandbits(63)
        table = Table(self.kind, self.players, options=self.table_options, seed=table_seed)
        self.driver = Driver(table, self.encoding, seed=self._seeds.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._select()

    def _select(self) -> None:
        """The agent that decides now, and every agent's `SeatInfo`."""
        driver = self._driver()
        self.infos = {agent: {"seat": driver.info(self._seat(agent))} for agent in self.agents}
        current = driver.current
        if current is not None:
            self.agent_selection = self.possible_agents[current.seat]

    def _driver(self) -> Driver:
        if self.driver is None:
            raise RuntimeError("call reset() before using the environment")
        return self.driver

    def observe(self, agent: str) -> ObsDict:
        """The agent's own observation and action mask."""
        return self._driver().observe(self._seat(agent))

    def step(self, action: int | None) -> None:
        """The selected agent's action on its decision (None for an agent whose match ended)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        driver = self._driver()
        if action is None:
            raise ValueError(f"{agent} decides now: an action is needed, not None")
        driver.act(int(action))
        self._cumulative_rewards[agent] = 0.0
        if driver.finished:
            rewards = driver.rewards()
            self.rewards = {a: float(rewards[self._seat(a)]) for a in self.agents}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self._clear_rewards()
        self._select()
        self._accumulate_rewards()
        if driver.finished:
            self._deads_step_first()

    def render(self) -> str | None:
        """The round so far in words, and who decides what now (`render_mode` `"ansi"`)."""
        if self.render_mode is None:
            return None
        driver = self._driver()
        table, viewer = driver.table, self.render_seat
        names = [player.name for player in table.view(None).players]  # type: ignore[attr-defined]
        start = driver.round_start
        if table.finished:
            start = 0
        text = table.engine.account(table.events_for(viewer, start), viewer, names)
        current = driver.current
        if current is not None:
            picked = f" ({len(driver.picks)} picked)" if driver.picks else ""
            text += f"\nNow: {names[current.seat]} decides: {current.kind}{picked}."
        return text

    def close(self) -> None:
        """Nothing to release."""


def wrapped(env: KronikasEnv) -> AECEnv[str, ObsDict, int]:
    """The environment as PettingZoo's classic games wrap theirs: an illegal action ends the
    match for its agent with reward -1, actions checked for bounds, calls checked for order."""
    out: AECEnv[str, ObsDict, int] = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    out = wrappers.AssertOutOfBoundsWrapper(out)
    return wrappers.OrderEnforcingWrapper(out)
