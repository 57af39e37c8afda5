"""How strong the house player is: two-seat matches, in-process, against the example bots.

`python -m benchmarks.house_strength --games 400` plays, for each game, `--games` matches of the
house against the random bot and as many against the good bot of `bots/` (default table options;
the house sits in seat 0 in even matches, seat 1 in odd ones) and prints win rates with Wilson 95%
intervals. Matches run on the pure domain (`decide`/`evolve` with a seeded `Randomness`); the
bots are the real `kronikas_bots` classes, fed the seat's view and events as the SDK parses them
from the wire, and the house gets its seat's view and redacted history, as the application will
give them. Everything is seeded, so a run is reproducible.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import msgspec
from kronikas_bots.base import Bot
from kronikas_bots.cheat import GoodCheatBot, RandomCheatBot
from kronikas_bots.runner import wilson
from kronikas_bots.thirty_one import GoodThirtyOneBot, RandomThirtyOneBot
from kronikas_client.events import parse_event
from kronikas_client.models import CheatGameView as SdkCheatView
from kronikas_client.models import ThirtyOneGameView as SdkThirtyOneView

from kronikas.application.engines import service_games
from kronikas_rules import cheat, thirty_one
from kronikas_rules.cheat import strategy as cheat_house
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join
from kronikas_rules.thirty_one import strategy as thirty_one_house

GAMES: dict[str, ModuleType] = {"cheat": cheat, "thirty_one": thirty_one}
HOUSES: dict[str, Callable[..., Any]] = {
    "cheat": cheat_house.house_command,
    "thirty_one": thirty_one_house.house_command,
}
BOTS: dict[tuple[str, str], Callable[[random.Random], Bot]] = {
    ("cheat", "random"): RandomCheatBot,
    ("cheat", "good"): GoodCheatBot,
    ("thirty_one", "random"): RandomThirtyOneBot,
    ("thirty_one", "good"): GoodThirtyOneBot,
}
SDK_VIEWS: dict[str, Any] = {"cheat": SdkCheatView, "thirty_one": SdkThirtyOneView}
MAX_MOVES = 800
"""A match still going after this many commands counts as lost (a house that never ends it)."""


class HouseSeat:
    """The house in one seat, asked as the application asks it: the seat's view as the house
    plays it, the round's events (from its deal) redacted for the seat, its own rng."""

    def __init__(self, engine: ModuleType, game: str, seat: int, rng: random.Random) -> None:
        self.engine, self.seat, self.rng = engine, seat, rng
        self.decide_fn = HOUSES[game]
        self.deal = cheat.CheatRoundDealt if engine is cheat else thirty_one.ThirtyOneRoundDealt
        self.history: list[Any] = []
        self.seconds = self.slowest = 0.0
        self.calls = 0

    def observe(self, event: Any, version: int) -> None:
        """Keep the event, redacted for the seat; a deal starts the round's history afresh."""
        if isinstance(event, self.deal):
            self.history = []
        self.history.append(self.engine.redact(event, self.seat))

    def act(self, state: Any, version: int) -> Any:
        """The house's command for the seat now (None: none), timed."""
        view = self.engine.view(state, self.seat, "bench", version, by_house=True)
        if not view.legal:
            return None
        start = time.perf_counter()
        command = self.decide_fn(view, list(self.history), self.rng)
        took = time.perf_counter() - start
        self.seconds += took
        self.slowest = max(self.slowest, took)
        self.calls += 1
        return command


class BotSeat:
    """A `kronikas_bots` bot in one seat, fed SDK objects made from the wire form."""

    def __init__(self, engine: ModuleType, game: str, seat: int, bot: Bot) -> None:
        self.engine, self.game, self.seat, self.bot = engine, game, seat, bot
        self.command_type: Any = engine.Command
        self.end_event = service_games()[game].end_event

    def observe(self, event: Any, version: int) -> None:
        """Feed the bot the event as the SDK parses it from the wire."""
        data = msgspec.to_builtins(self.engine.redact(event, self.seat))
        wire = {"type": f"{self.game}.{data['type']}", "version": version, "at": "", "data": data}
        if isinstance(event, self.end_event):
            wire["final"] = True  # as the service marks the match's end (docs/api.md, Events)
        self.bot.observe(parse_event(wire))

    def act(self, state: Any, version: int) -> Any:
        """The bot's command from the seat's view as the SDK parses it (None: none)."""
        view = self.engine.view(state, self.seat, "bench", version)
        if not view.legal:
            return None
        sdk_view = SDK_VIEWS[self.game].from_dict(msgspec.to_builtins(view))
        command = self.bot.act(sdk_view)
        if command is None:
            return None
        return msgspec.convert(command.to_dict(), self.command_type)


@dataclass
class Result:
    """One match: whether the house won, shared the win, or the match ran too long."""

    won: bool
    shared: bool = False
    stuck: bool = False


def play_match(game: str, opponent: str, house_seat: int, seed: int) -> tuple[Result, HouseSeat]:
    """One two-seat match of the house against a bot of kind `opponent`."""
    engine = GAMES[game]
    deals = SeededRandomness(seed)
    chooser = random.Random(f"race:{seed}")
    house = HouseSeat(engine, game, house_seat, random.Random(f"house:{seed}"))
    bot = BotSeat(engine, game, 1 - house_seat, BOTS[(game, opponent)](random.Random(seed)))
    seats: list[Any] = sorted([house, bot], key=lambda s: s.seat)
    opts = cheat.CheatOptions() if game == "cheat" else thirty_one.ThirtyOneOptions()
    state = engine.initial_state(opts, True)
    version = 0

    def apply(events: Sequence[Any]) -> None:
        """Fold the events and show them to both seats."""
        nonlocal state, version
        for event in events:
            state = engine.evolve(state, event)
            version += 1
            for seat in seats:
                seat.observe(event, version)

    apply(engine.created(opts, True))
    for i in range(2):
        join = Join(player_id=f"p{i}", name=f"P{i}", house=i == house_seat)
        apply(engine.decide(state, join, None, deals))
    apply(engine.decide(state, Start(), None, deals))
    for _ in range(MAX_MOVES):
        if engine.is_terminal(state):
            winners = list(state.winners)
            return Result(won=house_seat in winners, shared=len(winners) > 1), house
        wishes = [(s.seat, c) for s in seats if (c := s.act(state, version)) is not None]
        calls = [w for w in wishes if type(w[1]).__name__ == "Call"]
        if calls:
            # Calls race each other; the first to arrive wins (kronikas_bots.table does the same).
            seat, command = chooser.choice(calls)
        else:
            turn = engine.view(state, None, "bench", version).turn
            movers = [w for w in wishes if w[0] == turn]
            if not movers:
                raise RuntimeError(f"seat {turn} is on turn but did nothing")
            seat, command = movers[0]
        apply(engine.decide(state, command, seat, deals, by_house=seat == house_seat))
    return Result(won=False, stuck=True), house


@dataclass
class Tally:
    """Matches, wins and shared wins of the house against one opponent."""

    games: int = 0
    wins: int = 0
    shared: int = 0
    stuck: int = 0
    seconds: float = 0.0
    slowest: float = 0.0
    decisions: int = 0
    by_seat: list[int] = field(default_factory=lambda: [0, 0])

    def add(self, result: Result, house: HouseSeat) -> None:
        """Count one match."""
        self.games += 1
        self.wins += result.won
        self.shared += result.won and result.shared
        self.stuck += result.stuck
        self.by_seat[house.seat] += result.won
        self.seconds += house.seconds
        self.slowest = max(self.slowest, house.slowest)
        self.decisions += house.calls

    def line(self, game: str, opponent: str) -> str:
        """The tally as one line of the report."""
        low, high = wilson(self.wins, self.games)
        rate = self.wins / self.games if self.games else 0.0
        extra = f", {self.shared} of them shared" if self.shared else ""
        stuck = f", {self.stuck} stopped at {MAX_MOVES} moves" if self.stuck else ""
        per = 1000 * self.seconds / self.decisions if self.decisions else 0.0
        return (
            f"{game:<10} house vs {opponent:<6}: won {self.wins:>4}/{self.games:<4} = {rate:6.1%}"
            f"   95% CI [{low:.1%}, {high:.1%}]   (in seat 0: {self.by_seat[0]}, seat 1: "
            f"{self.by_seat[1]}{extra}{stuck}; a decision: {per:.2f} ms on average, "
            f"{1000 * self.slowest:.0f} ms at most)"
        )


def main(argv: Sequence[str] | None = None) -> None:
    """Play the matches the arguments ask for and print a line for each game and opponent."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="matches per game and opponent")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match")
    parser.add_argument("--game", choices=sorted(GAMES), action="append", help="only this game")
    parser.add_argument("--vs", choices=("random", "good"), action="append", help="only these")
    args = parser.parse_args(argv)
    for game in args.game or sorted(GAMES):
        for opponent in args.vs or ("random", "good"):
            tally = Tally()
            started = time.perf_counter()
            for i in range(args.games):
                result, house = play_match(game, opponent, i % 2, args.seed * 1_000_003 + i)
                tally.add(result, house)
            print(tally.line(game, opponent), f"[{time.perf_counter() - started:.0f} s]")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
