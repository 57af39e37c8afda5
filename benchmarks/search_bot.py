"""How strong the searching Cheat bot is: offline matches against the random policy and the house.

`python -m benchmarks.search_bot --matches 300` plays, for each opponent, `--matches` two-seat
Cheat matches (default table options: one deck, one round) of the search bot of
`kronikas_bots.search` against the random policy and against the house, the bot in seat 0 in
even matches and seat 1 in odd ones, and prints its win rate with a Wilson 95% interval (a win
shared by both seats counts as a win). Everything is seeded: a run is reproducible.

Each match is a `kronikas_rules.table.Table` played one decision at a time, in the order the
environments use (`kronikas_rules.envs`): after every play each other seat, from the one after
the player round the table, decides once whether to call it, the first call winning; then the
next player plays (or accepts). Every seat decides from what it may see alone: its view and its
round's events redacted for it. The random policy chooses uniformly among the legal actions of
each decision, as the environment's action mask gives them: call or let go; then a play's cards
one at a time, `done` allowed after the first. The house is `Table.house`'s player.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from kronikas_bots.runner import wilson
from kronikas_bots.search import CheatSearch, Decision, Move, round_events

from kronikas_rules import cheat
from kronikas_rules.cheat.strategy import house_command
from kronikas_rules.table import Table

Agent = Callable[[cheat.CheatGameView, list[Any], Decision], Move]
"""A seat's choice for one decision, from its view and its redacted events."""
MAX_DECISIONS = 5_000
"""A match still going after this many decisions counts as lost for the search bot."""


def random_agent(rng: random.Random) -> Agent:
    """Uniform over each decision's legal actions: call or let go; a play's cards one at a
    time among those left, `done` one more choice once a card is picked."""

    def act(view: cheat.CheatGameView, events: list[Any], decision: Decision) -> Move:
        legal = view.legal or []
        if decision == "call":
            return cheat.Call() if "call" in legal and rng.random() < 0.5 else None
        if "accept" in legal:
            return cheat.Accept()
        assert view.me is not None
        left = list(view.me.hand)
        picked = [left.pop(rng.randrange(len(left)))]
        while left and len(picked) < view.options.max_play:
            choice = rng.randrange(len(left) + 1)
            if choice == len(left):
                break
            picked.append(left.pop(choice))
        return cheat.Play(cards=picked)

    return act


def house_agent(rng: random.Random) -> Agent:
    """The house: its call if it would call now, else its play (its own move otherwise)."""

    def act(view: cheat.CheatGameView, events: list[Any], decision: Decision) -> Move:
        legal = view.legal or []
        history = round_events(events)
        if decision == "call":
            chosen = house_command(view, history, rng)
            return cheat.Call() if isinstance(chosen, cheat.Call) else None
        calm = msgspec.structs.replace(view, legal=[k for k in legal if k != "call"])
        chosen = house_command(calm, history, rng)
        return chosen if isinstance(chosen, cheat.Play | cheat.Accept) else None

    return act


def search_agent(search: CheatSearch) -> Agent:
    return search.choose


def play_match(
    agents: Sequence[Agent], seed: int, options: dict[str, Any] | None = None
) -> tuple[list[int], int]:
    """One match of these seats; its winners and the decisions it took."""
    table = Table("cheat", len(agents), options=options or {}, seed=seed)
    n = len(agents)
    decisions = 0

    def ask(seat: int, decision: Decision) -> Move:
        nonlocal decisions
        decisions += 1
        view = table.view(seat)
        assert isinstance(view, cheat.CheatGameView)
        return agents[seat](view, table.events_for(seat), decision)

    while not table.finished:
        if decisions > MAX_DECISIONS:
            return [], decisions
        state = table.state
        assert isinstance(state, cheat.ToPlay | cheat.Window)
        if isinstance(state, cheat.Window):
            top = state.top.seat
            called = False
            for step in range(1, n):
                seat = (top + step) % n
                if ask(seat, "call") is not None:
                    table.play(seat, cheat.Call())
                    called = True
                    break
            if called:
                continue
        turn = state.deal.turn
        move = ask(turn, "play")
        if move is None:
            raise RuntimeError(f"seat {turn} is to play but chose nothing")
        table.play(turn, move)
    final = table.state
    assert isinstance(final, cheat.Finished)
    return list(final.winners), decisions


@dataclass
class Tally:
    """The search bot's matches against one opponent."""

    matches: int = 0
    wins: int = 0
    shared: int = 0
    stuck: int = 0
    seconds: float = 0.0
    decisions: int = 0

    def line(self, opponent: str, search: CheatSearch) -> str:
        low, high = wilson(self.wins, self.matches)
        rate = self.wins / self.matches if self.matches else 0.0
        per = 1000 * self.seconds / search.decisions if search.decisions else 0.0
        extra = f", {self.shared} shared" if self.shared else ""
        stuck = f", {self.stuck} unfinished" if self.stuck else ""
        return (
            f"search vs {opponent:<6}: won {self.wins:>4}/{self.matches:<4} = {rate:6.1%}   "
            f"95% CI [{low:.1%}, {high:.1%}]{extra}{stuck}   ({search.decisions} searched "
            f"decisions, {per:.0f} ms each, {search.rollouts} rollouts; {self.seconds:.0f} s)"
        )


OPPONENTS: dict[str, Callable[[random.Random], Agent]] = {
    "random": random_agent,
    "house": house_agent,
}


def run(
    opponent: str, matches: int, seed: int, samples: int, players: int = 2
) -> tuple[Tally, CheatSearch]:
    """`matches` matches of the search bot against `players - 1` seats of `opponent`."""
    tally = Tally()
    search = CheatSearch(samples=samples, rng=random.Random(f"search:{seed}"))
    started = time.perf_counter()
    for i in range(matches):
        match_seed = seed * 1_000_003 + i
        others = [OPPONENTS[opponent](random.Random(f"{opponent}:{match_seed}:{s}")) for s in
                  range(players - 1)]
        at = i % players
        agents = [*others[:at], search_agent(search), *others[at:]]
        winners, _ = play_match(agents, match_seed)
        tally.matches += 1
        tally.wins += at in winners
        tally.shared += at in winners and len(winners) > 1
        tally.stuck += not winners
    tally.seconds = time.perf_counter() - started
    return tally, search


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--matches", type=int, default=300, help="matches per opponent")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    parser.add_argument("--samples", type=int, default=8, help="deals sampled per decision")
    parser.add_argument("--players", type=int, default=2, help="seats at each table (2-4)")
    parser.add_argument("--vs", choices=sorted(OPPONENTS), action="append", help="only these")
    args = parser.parse_args(argv)
    for opponent in args.vs or ("random", "house"):
        tally, search = run(opponent, args.matches, args.seed, args.samples, args.players)
        print(tally.line(opponent, search))
        sys.stdout.flush()


if __name__ == "__main__":
    main()
