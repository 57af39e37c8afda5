"""How many arena sets it takes to rank the house above the good bot with 95% confidence, with
duplicate deals and without (docs/arena.md quotes the figure).

`python -m benchmarks.arena_ranking --trials 5 --max-sets 200` plays, for each game and each
seeded trial, two-seat sets in-process (two tables a set), in two layouts:
- head-to-head (`arena_players.HEAD_TO_HEAD`): the good bot against the house at both tables,
  each holding the other's hand position at the second: what duplicate deals are worth alone;
- arena (`arena_players.LAYOUTS`, the first two): as the arena seats one entrant (the good bot)
  with its standing entrants: it meets the house at one table, the house meets Random at the
  other; dealt duplicate, the good bot's hand position is ranked against the house's, who played
  the same cards against Random (the arena's rule: an entrant plays once a set).
Duplicate: both tables deal the same cards (`SharedDeal`) and each hand position is one
OpenSkill match (`duplicate.rankings`). Independent: the same tables, each dealt on its own, and
each table one OpenSkill match, its seats by their places. Both rate with `ratings.rate_set`.

It prints, per game and mode, the median over the trials of the sets played when:
- intervals: the house's 95% interval (mu ± 1.96 sigma) first lies wholly above the good bot's
  ("first"), and from when on it stays there to the last set played ("settled");
- sign test: the house placed better than the good bot in significantly more of their direct
  comparisons (same ranking, ties dropped; one-sided binomial p < 0.025, tested after every set,
  so the first crossing is optimistic).
Tables are twice the sets. A trial that never got there within `--max-sets` counts as more than
`--max-sets` (shown as ">N"). The default table options of each game unless `--options`.

Two things read the figures (measured in issue 45): OpenSkill's dynamics (tau) keep sigma near
2, so intervals stay ±4 however many sets are played and a pair close in strength drifts in and
out of "apart" ("settled" comes late); and when the cards decide a hand, both holders of its
position win, a tie that Plackett–Luce reads as equal skill: duplicate deals speed up the sign
test (ties dropped) more than OpenSkill's intervals.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.arena_players import HEAD_TO_HEAD, LAYOUTS, arena_rankings
from kronikas_rules.ratings import Rating, interval, rate_set

ARRANGEMENTS = {"head-to-head": HEAD_TO_HEAD, "arena": LAYOUTS[:2]}

ALPHA = 0.025
"""One-sided level of the sign test: a two-sided 95% test."""


def sign_p(wins: int, losses: int) -> float:
    """One-sided binomial p: the chance of `wins` or more of `wins + losses` fair coin flips."""
    n = wins + losses
    return sum(math.comb(n, k) for k in range(wins, n + 1)) / 2**n if n else 1.0


@dataclass
class Trial:
    """When one seeded run got there (None: not within its sets)."""

    first: int | None = None
    settled: int | None = None
    sign: int | None = None
    house: Rating | None = None
    good: Rating | None = None


def run(
    kind: str,
    seed: int,
    shared: bool,
    max_sets: int,
    layouts: Sequence[Sequence[Sequence[str]]],
    options: dict[str, Any],
) -> Trial:
    """One seeded run of up to `max_sets` sets; when each test was first passed."""
    trial, ratings = Trial(), dict[str, Rating]()
    wins = losses = 0
    for number in range(max_sets):
        rankings = arena_rankings(kind, number, seed, layouts, shared, options)
        ratings.update(rate_set(ratings, rankings))
        for ranking in rankings:
            placed = dict(ranking)
            if "House" in placed and "Good" in placed and placed["House"] != placed["Good"]:
                wins += placed["House"] < placed["Good"]
                losses += placed["House"] > placed["Good"]
        apart = interval(ratings["House"])[0] > interval(ratings["Good"])[1]
        if apart and trial.first is None:
            trial.first = number + 1
        if apart and trial.settled is None:
            trial.settled = number + 1
        if not apart:
            trial.settled = None
        if trial.sign is None and sign_p(wins, losses) < ALPHA:
            trial.sign = number + 1
    trial.house, trial.good = ratings["House"], ratings["Good"]
    return trial


def median(found: Sequence[int | None], most: int) -> str:
    """The median of the trials' sets, a trial that never got there counted as more than `most`."""
    values = [most + 1 if f is None else f for f in found]
    middle = statistics.median(values)
    return f">{most}" if middle > most else f"{middle:g}"


def main(argv: Sequence[str] | None = None) -> None:
    """Run the trials the arguments ask for and print a line per game and mode."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--trials", type=int, default=5, help="seeded runs per game and mode")
    parser.add_argument("--max-sets", type=int, default=200, help="the most sets of one run")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first trial")
    parser.add_argument("--game", choices=("cheat", "thirty_one"), action="append")
    parser.add_argument("--options", type=json.loads, default=None, help="table options (JSON)")
    args = parser.parse_args(argv)
    for kind in args.game or ("cheat", "thirty_one"):
        options = args.options if args.options is not None else {}
        print(f"{kind}, options {options or 'the defaults'}, two tables a set:")
        for name, layouts in ARRANGEMENTS.items():
            for shared in (True, False):
                _report(kind, name, layouts, shared, options, args)


def _report(
    kind: str,
    name: str,
    layouts: Sequence[Sequence[Sequence[str]]],
    shared: bool,
    options: dict[str, Any],
    args: argparse.Namespace,
) -> None:
    """Run one layout and mode's trials and print its line."""
    started = time.perf_counter()
    most = args.max_sets
    trials = [run(kind, args.seed + t, shared, most, layouts, options) for t in range(args.trials)]
    first = median([t.first for t in trials], most)
    settled = median([t.settled for t in trials], most)
    sign = median([t.sign for t in trials], most)
    last = trials[-1]
    assert last.house is not None and last.good is not None
    mode = "duplicate  " if shared else "independent"
    print(
        f"  {name:<12} {mode}: sets (median of {args.trials}): intervals apart first {first:>4},"
        f" settled {settled:>4}; sign test {sign:>4}   (last trial: house {_shown(last.house)},"
        f" good bot {_shown(last.good)}) [{time.perf_counter() - started:.0f} s]"
    )
    sys.stdout.flush()


def _shown(rating: Any) -> str:
    low, high = interval(rating)
    return f"{rating.mu:.1f} [{low:.1f}, {high:.1f}]"


if __name__ == "__main__":
    main()
