"""Commands per second of the Cheat engine in-process: decide + evolve + the mover's view.

Plays random complete matches for a few seconds; `python benchmarks/engine_cheat.py` prints the
figure, and `measure(seconds)` returns it for `make bench`.
"""

from __future__ import annotations

import random
import sys
import time

from kronikas_rules import cheat
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join


def _command(state: cheat.InRound, rnd: random.Random) -> tuple[int, cheat.Command]:
    """A random legal command: calls now and then, plays of the due rank when the hand has some.

    Who may call, accept or play is the engine's `legal`; the cards are this player's choice, not
    one of `legal_moves` (enumerating a big hand's plays every move would cost more than the move).
    """
    table = state.deal
    callers = [s for s in range(len(table.hands)) if "call" in cheat.legal(state, s)]
    if callers and (rnd.random() < 0.15 or "play" not in cheat.legal(state, table.turn)):
        caller = rnd.choice(callers)
        if "accept" in cheat.legal(state, caller) and rnd.random() < 0.6:
            return caller, cheat.Accept()
        return caller, cheat.Call()
    seat = table.turn
    hand = table.hands[seat]
    honest = [c for c in hand if c[:-1] == table.rank or c == "XC"]
    pool = honest if honest and rnd.random() < 0.7 else list(hand)
    count = rnd.randint(1, min(state.match.options.max_play, len(pool)))
    return seat, cheat.Play(cards=rnd.sample(pool, count))


def measure(seconds: float = 3.0) -> float:
    """Random complete matches for about `seconds`; returns commands per second."""
    rnd = random.Random(1)
    commands = 0
    spent = 0.0
    clock = time.perf_counter
    version = 0
    while spent < seconds:
        decks = rnd.choice((1, 2))
        n = rnd.randint(2, 4 * decks)
        options = cheat.CheatOptions(
            decks=decks,
            chroniclers=rnd.random() < 0.5,
            rounds=rnd.randint(1, 3),
            max_play=rnd.randint(1, 4),
        )
        rng = SeededRandomness(rnd.randrange(1 << 30))
        state = cheat.initial_state(options, seeded=True)
        for event in cheat.created(options, True):
            state = cheat.evolve(state, event)
        for i in range(n):
            for event in cheat.decide(state, Join(player_id=f"p{i}", name=f"P{i}"), None, rng):
                state = cheat.evolve(state, event)
        for event in cheat.decide(state, Start(), None, rng):
            state = cheat.evolve(state, event)
        while isinstance(state, cheat.ToPlay | cheat.Window):
            seat, command = _command(state, rnd)
            start = clock()
            events = cheat.decide(state, command, seat, rng)
            for event in events:
                state = cheat.evolve(state, event)
            version += len(events)
            cheat.view(state, seat, "bench", version)
            spent += clock() - start
            commands += 1
    return commands / spent


if __name__ == "__main__":
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"cheat engine: {measure(seconds):,.0f} commands/s (decide + evolve + the mover's view)")
