"""Steps and matches a second of the OpenSpiel games with random play (issue 44).

Plays whole matches of `python_kronikas_<kind>` for a few seconds, chance outcomes drawn by their
probabilities and actions uniformly among the legal ones; a step is one `apply_action`, chance
nodes included (a deal is one per card). `python -m benchmarks.openspiel_steps` prints the
figures; `measure(game, seconds)` returns them for a runner.
"""

from __future__ import annotations

import random
import sys
import time

GAMES = ("python_kronikas_cheat(players=4)", "python_kronikas_thirty_one(players=4)")


def measure(name: str, seconds: float = 3.0) -> tuple[float, float, float]:
    """Random matches of the game `name` for about `seconds`: player steps a second, all
    steps (chance included) a second, and matches a second."""
    import pyspiel

    from kronikas_rules.envs.openspiel import register

    register()
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    decisions = steps = matches = 0
    clock = time.perf_counter
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, chances = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, chances)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                decisions += 1
            steps += 1
        matches += 1
    spent = clock() - start
    return decisions / spent, steps / spent, matches / spent


def main(argv: list[str]) -> None:
    seconds = float(argv[0]) if argv else 3.0
    for name in GAMES:
        decisions, steps, matches = measure(name, seconds)
        print(
            f"{name}: {decisions:,.0f} decisions/s, {steps:,.0f} steps/s "
            f"(chance included), {matches:,.2f} matches/s"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
