"""How strong the searching Cheat bot is: offline matches against the random policy and the house.

`python -m benchmarks.search_bot --matches 300` plays, for each opponent, `--matches` two-seat
Cheat matches (default table options: one deck, one round) of the search bot of
`kronikas_bots.cheat.search` against the random policy and against the house, the bot in seat 0 in
even matches and seat 1 in odd ones, and prints its win rate with a Wilson 95% interval (a win
shared by both seats counts as a win). Everything is seeded: a run is reproducible.

Each match is a `kronikas_rules.table.Table` played by the environments' decision driver
(`kronikas_rules.envs.Driver`, what `cheat_v0` steps): after every play each other seat, from
the one after the player round the table, answers once (call or let go), the first call
winning; then the next player plays (its cards picked one at a time, then `done`) or accepts.
Every seat is a policy of the environments, deciding from its own `SeatInfo` alone: the search
bot (`kronikas_bots.cheat.search.SearchPolicy`), `envs.random_policy` (uniform over the action mask)
or `envs.house_policy` (the house's command, action by action).
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from kronikas_bots.cheat.search import CheatSearch, SearchPolicy
from kronikas_bots.runner import wilson

from kronikas_rules import cheat
from kronikas_rules.envs import Driver, Policy, house_policy, random_policy
from kronikas_rules.envs.cheat import ENCODING
from kronikas_rules.table import Table

MAX_ACTIONS = 20_000
"""A match still going after this many actions counts as lost for the search bot."""
OPPONENTS: dict[str, Policy] = {"random": random_policy, "house": house_policy}


def play_match(
    policies: Sequence[Policy], seed: int, options: dict[str, Any] | None = None
) -> tuple[list[int], int]:
    """One match of these seats through the decision driver; its winners (none if it did not
    end) and the actions it took."""
    table = Table("cheat", len(policies), options=options or {}, seed=seed)
    driver = Driver(table, ENCODING, seed=seed)
    actions = driver.play_out(policies, most=MAX_ACTIONS)
    final = table.state
    return (list(final.winners) if isinstance(final, cheat.Finished) else []), actions


@dataclass
class Outcome:
    """One match of the search bot: whether it won (alone or shared), whether it ended, and
    the search's work."""

    won: bool
    shared: bool
    stuck: bool
    decisions: int
    rollouts: int


def one_match(
    opponent: str, seed: int, i: int, samples: int, horizon: int, players: int
) -> Outcome:
    """Match `i` of a run: the search bot in seat i mod `players`, the others `opponent`; the
    deal, the driver and the search seeded from the match alone (so a run splits over
    processes and gives the same figures)."""
    match_seed = seed * 1_000_003 + i
    at = i % players
    search = CheatSearch(
        samples=samples, horizon=horizon, rng=random.Random(f"search:{match_seed}")
    )
    policies = [OPPONENTS[opponent]] * players
    policies[at] = SearchPolicy(search)
    winners, _ = play_match(policies, match_seed)
    won = at in winners
    return Outcome(won, won and len(winners) > 1, not winners, search.decisions, search.rollouts)


@dataclass
class Tally:
    """The search bot's matches against one opponent."""

    matches: int = 0
    wins: int = 0
    shared: int = 0
    stuck: int = 0
    decisions: int = 0
    rollouts: int = 0
    seconds: float = 0.0

    def add(self, outcome: Outcome) -> None:
        self.matches += 1
        self.wins += outcome.won
        self.shared += outcome.shared
        self.stuck += outcome.stuck
        self.decisions += outcome.decisions
        self.rollouts += outcome.rollouts

    def line(self, opponent: str, jobs: int) -> str:
        low, high = wilson(self.wins, self.matches)
        rate = self.wins / self.matches if self.matches else 0.0
        per = 1000 * self.seconds * jobs / self.decisions if self.decisions else 0.0
        extra = f", {self.shared} shared" if self.shared else ""
        stuck = f", {self.stuck} unfinished" if self.stuck else ""
        return (
            f"search vs {opponent:<6}: won {self.wins:>4}/{self.matches:<4} = {rate:6.1%}   "
            f"95% CI [{low:.1%}, {high:.1%}]{extra}{stuck}   ({self.decisions} searched "
            f"decisions, about {per:.0f} ms each, {self.rollouts} rollouts; "
            f"{self.seconds:.0f} s on {jobs} process{'es' if jobs > 1 else ''})"
        )


def run(
    opponent: str,
    matches: int,
    seed: int,
    samples: int,
    horizon: int,
    players: int = 2,
    jobs: int = 1,
) -> Tally:
    """`matches` matches of the search bot against `players - 1` seats of `opponent`."""
    tally = Tally()
    started = time.perf_counter()
    tasks = [(opponent, seed, i, samples, horizon, players) for i in range(matches)]
    if jobs > 1:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for outcome in pool.starmap(one_match, tasks, chunksize=4):
                tally.add(outcome)
    else:
        for task in tasks:
            tally.add(one_match(*task))
    tally.seconds = time.perf_counter() - started
    return tally


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=300, help="matches per opponent")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    parser.add_argument(
        "--samples", type=int, default=CheatSearch.samples, help="deals a decision samples"
    )
    parser.add_argument(
        "--horizon", type=int, default=CheatSearch.horizon, help="plays a rollout looks ahead"
    )
    parser.add_argument("--players", type=int, default=2, help="seats at each table (2-4)")
    parser.add_argument("--jobs", type=int, default=1, help="processes to share the matches")
    parser.add_argument("--vs", choices=sorted(OPPONENTS), action="append", help="only these")
    args = parser.parse_args(argv)
    for opponent in args.vs or ("random", "house"):
        tally = run(
            opponent, args.matches, args.seed, args.samples, args.horizon, args.players, args.jobs
        )
        print(tally.line(opponent, args.jobs))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
