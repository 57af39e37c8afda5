"""How many Thirty-One commands per second one core decides, evolves and views, in-process.

Random complete matches (2-9 players, random options with `max_circuits` so that random play
ends) are played for a few seconds; each command costs `decide`, `evolve` of its events and the
view the API returns to the mover. The bots' choices and the lobby are not timed.

    uv run python benchmarks/engine_thirty_one.py
"""

from __future__ import annotations

import random
import sys
import time

from kronikas_rules import thirty_one as t
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join


def _match(seed: int) -> tuple[t.State, SeededRandomness, random.Random]:
    """A started table with random options."""
    choose = random.Random(seed)
    options = t.ThirtyOneOptions(
        lives=choose.randint(0, 3),
        max_circuits=choose.randint(1, 4),
        chronicler=choose.random() < 0.5,
    )
    rng = SeededRandomness(seed)
    state = t.initial_state(options, True)
    for seat in range(choose.randint(2, 9)):
        for event in t.decide(state, Join(player_id=f"p{seat}", name=f"P{seat}"), None, rng):
            state = t.evolve(state, event)
    for event in t.decide(state, Start(), None, rng):
        state = t.evolve(state, event)
    return state, rng, choose


def _choose(state: t.State, seat: int, choose: random.Random) -> t.Command:
    """A legal command: a command type at random, then one of its forms (so that the nine swaps
    do not crowd out pass and show)."""
    moves = t.legal_moves(state, seat)
    kind = choose.choice([k for k in t.legal(state, seat) if k not in ("leave", "back")])
    return choose.choice([move for move in moves if move.__struct_config__.tag == kind])


def measure(seconds: float = 3.0) -> float:
    """Commands per second (decide + evolve + the mover's view) over `seconds` of random play."""
    timer = time.perf_counter
    spent = 0.0
    commands = 0
    seed = 0
    deadline = timer() + seconds
    while timer() < deadline:
        seed += 1
        state, rng, choose = _match(seed)
        seat: int | None = state.match.dealer
        version = 0
        while seat is not None and not t.is_terminal(state):
            command = _choose(state, seat, choose)
            began = timer()
            events = t.decide(state, command, seat, rng)
            for event in events:
                state = t.evolve(state, event)
            version += len(events)
            seat = t.view(state, seat, "bench", version).turn
            spent += timer() - began
            commands += 1
    return commands / spent


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"thirty_one: {measure(seconds):,.0f} commands/s (decide + evolve + mover's view)")
