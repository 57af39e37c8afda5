"""How long a Cheat round of the house runs: eight house seats, two decks, many seeded matches.

`python -m benchmarks.cheat_round_length --games 200` plays that many one-round matches (half
with the Chroniclers) in-process, each seat asked as the application asks the house (its view as
the house plays it, the round's events redacted for it), calls racing in a seeded order, and
prints the plays per round: the longest, the 99th percentile and the mean. The table's limit is
set to the most a table may ask (10,000), so no round is cut: the figure says how far below a
new table's limit (300, docs/rules.md "A round that does not end") the house's rounds stay.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Sequence

from kronikas_rules import cheat
from kronikas_rules.cheat.strategy import house_command
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join

SEATS = 8
UNCUT = 10_000


def round_plays(seed: int, chroniclers: bool) -> int:
    """The plays of one round of eight house seats with two decks."""
    options = cheat.CheatOptions(decks=2, chroniclers=chroniclers, max_plays=UNCUT)
    deals = SeededRandomness(seed)
    race = random.Random(f"race:{seed}")
    minds = [random.Random(f"house:{seed}:{seat}") for seat in range(SEATS)]
    seen: list[list[cheat.Event]] = [[] for _ in range(SEATS)]
    state = cheat.initial_state(options, True)
    version = 0

    def apply(events: Sequence[cheat.Event]) -> None:
        nonlocal state, version
        for event in events:
            state = cheat.evolve(state, event)
            version += 1
            for seat in range(SEATS):
                if isinstance(event, cheat.CheatRoundDealt):
                    seen[seat] = []
                seen[seat].append(cheat.redact(event, seat))

    apply(cheat.created(options, True))
    for seat in range(SEATS):
        join = Join(player_id=f"h{seat}", name=f"H{seat}", house=True)
        apply(cheat.decide(state, join, None, deals))
    apply(cheat.decide(state, Start(), None, deals))
    plays = 0
    while isinstance(state, cheat.ToPlay | cheat.Window):
        wishes = []
        for seat in range(SEATS):
            view = cheat.view(state, seat, "bench", version, by_house=True)
            if view.legal:
                command = house_command(view, list(seen[seat]), minds[seat])
                if command is not None:
                    wishes.append((seat, command))
        calls = [w for w in wishes if isinstance(w[1], cheat.Call)]
        if calls:
            seat, command = race.choice(calls)
        else:
            movers = [w for w in wishes if w[0] == state.deal.turn]
            if not movers:
                raise RuntimeError(f"seat {state.deal.turn} is on turn but the house did nothing")
            seat, command = movers[0]
        events = cheat.decide(state, command, seat, deals, by_house=True)
        plays += sum(isinstance(e, cheat.CheatCardsPlayed) for e in events)
        apply(events)
    return plays


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="matches of one round each")
    parser.add_argument("--seed", type=int, default=1, help="the first match's seed")
    args = parser.parse_args(argv)
    lengths = sorted(round_plays(args.seed + i, i % 2 == 1) for i in range(args.games))
    p99 = lengths[min(len(lengths) - 1, int(0.99 * len(lengths)))]
    print(
        f"Cheat, {SEATS} house seats, two decks (half with the Chroniclers), {len(lengths)} "
        f"rounds: plays per round longest {lengths[-1]}, 99th percentile {p99}, "
        f"mean {statistics.mean(lengths):.1f}; a new table allows 300"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
