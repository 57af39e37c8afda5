"""How fast the environments step: PettingZoo's `cheat_v0` and `thirty_one_v0` with random legal
play, beside the engines' own commands a second.

`python -m benchmarks.envs` plays whole seeded matches of each environment (two seats, default
options, wrapped as `env()` gives it) for a few seconds, every agent taking a uniformly random
action its `action_mask` allows, and prints steps a second (an AEC `step`, with the `last()` that
reads the agent's observation before it), whole matches a second, the table commands those steps
sent a second, and the engine's commands a second measured in the same run
(`benchmarks/engine_cheat.py`, `engine_thirty_one.py`: decide + evolve + the mover's view).
`make bench` records them as the `env_*` keys; `--profile` profiles one environment's steps
(cProfile) and prints where they go: the observation, the mask, the table's command, the rest.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from benchmarks import engine_cheat, engine_thirty_one
from kronikas_rules.envs import cheat_v0, thirty_one_v0

ENVS: dict[str, Callable[..., AECEnv[str, Any, int]]] = {
    "cheat": cheat_v0.env,
    "thirty_one": thirty_one_v0.env,
}
ENGINES: dict[str, Callable[[float], float]] = {
    "cheat": engine_cheat.measure,
    "thirty_one": engine_thirty_one.measure,
}


def play(kind: str, seconds: float, players: int = 2) -> dict[str, float]:
    """Whole random matches of one environment for about `seconds`: steps, matches and commands
    a second."""
    env = ENVS[kind](players=players)
    rng = random.Random(1)
    steps = matches = commands = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        env.reset(seed=rng.getrandbits(32))
        for _agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        matches += 1
        commands += _commands(env)
    spent = time.perf_counter() - started
    return {"steps": steps / spent, "matches": matches / spent, "commands": commands / spent}


def _commands(env: AECEnv[str, Any, int]) -> int:
    """The commands a finished match's table took: one event each (`_MOVES`)."""
    table = env.unwrapped.driver.table  # type: ignore[attr-defined]
    return sum(1 for e in table.events if e.__struct_config__.tag in _MOVES)


_MOVES = frozenset(
    {"cards_played", "cheat_called", "play_accepted"}
    | {"hand_kept", "hand_exchanged", "card_swapped", "hands_swapped", "passed", "hand_shown"}
)
"""The events a command makes one of: Cheat's play, call and accept; Thirty-One's keep,
exchange, swap, swap-all, pass and show."""


def figures(seconds: float = 3.0) -> dict[str, float]:
    """The `env_*` keys of `make bench`: for each game, the environment's steps, matches and
    commands a second, and the engine's commands a second beside them."""
    results: dict[str, float] = {}
    for kind in ENVS:
        done = play(kind, seconds)
        results[f"env_{kind}_steps_per_s"] = done["steps"]
        results[f"env_{kind}_matches_per_s"] = done["matches"]
        results[f"env_{kind}_commands_per_s"] = done["commands"]
        results[f"env_{kind}_engine_per_s"] = ENGINES[kind](seconds)
    return results


ROWS = [
    row
    for kind, title in (("cheat", "Cheat"), ("thirty_one", "Thirty-One"))
    for row in (
        (f"env_{kind}_steps_per_s", f"{title} env (PettingZoo, random), steps/s", "{:,.0f}", "—"),
        (f"env_{kind}_matches_per_s", "  whole matches/s", "{:,.1f}", "—"),
        (f"env_{kind}_commands_per_s", "  the table's commands/s", "{:,.0f}", "—"),
        (f"env_{kind}_engine_per_s", "  the engine alone, commands/s", "{:,.0f}", ""),
    )
]
"""The rows `benchmarks/bench.py` prints for the keys above."""


def profile(kind: str, seconds: float) -> None:
    """Profile one environment's random play and print the share of the observation, the mask
    and the table's command in its time."""
    profiler = cProfile.Profile()
    profiler.enable()
    done = play(kind, seconds)
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = max(entry[3] for entry in stats.stats.values())  # type: ignore[attr-defined]
    shares: dict[str, float] = {}
    for (path, _, name), entry in stats.stats.items():  # type: ignore[attr-defined]
        where = f"{path.rsplit('/', 2)[-1]}:{name}"
        for part, wanted in PARTS.items():
            if where in wanted:
                shares[part] = shares.get(part, 0.0) + entry[3]
    print(f"{kind}: {done['steps']:,.0f} steps/s under the profiler; of the time:")
    for part, spent in shares.items():
        print(f"  {part:<34} {spent / total:6.1%}")
    stats.sort_stats("tottime").print_stats(12)


PARTS = {
    "the observation (encoding)": {"cheat.py:observation", "thirty_one.py:observation"},
    "the action mask (encoding)": {"cheat.py:mask", "thirty_one.py:mask"},
    "the table's command (Table.play)": {"table.py:play"},
    "the seat's view (Table.view)": {"table.py:view"},
}
"""Functions whose cumulative time makes each part (they do not nest in one another, but the
view is also built inside the observation and the mask, once per decision and seat)."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0, help="per environment")
    parser.add_argument("--profile", choices=sorted(ENVS), help="profile this environment")
    args = parser.parse_args()
    if args.profile:
        profile(args.profile, args.seconds)
        return
    results = figures(args.seconds)
    width = max(len(label) for _, label, _, _ in ROWS)
    for key, label, fmt, _ in ROWS:
        print(f"  {label:<{width}}  {fmt.format(results[key]):>10}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
