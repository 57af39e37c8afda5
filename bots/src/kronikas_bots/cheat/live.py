"""A policy of the environments as a bot of this package: it plays a live table through the
rules' live adapter (`kronikas_rules.envs.live.LiveSeat`), unchanged.

The bot hands the adapter what the SDK gives it — each event and the seat's view, as their
`.to_dict()` — and the adapter gives the policy the observation and `SeatInfo` the environment
would give at the same point of the match, takes its actions, and returns the command to send.
So `python -m kronikas_bots --bots search,house` seats the searching Cheat bot
(`kronikas_bots.cheat.search`) at a real table, the very policy `benchmarks/search_bot.py` measures
offline:

    python -m kronikas_bots --game cheat --bots search,house --seed 7
    python -m kronikas_bots --game cheat --bots search,random --games 10 --quiet

`numpy` (the rules' `[pettingzoo]` extra, a dependency of this package) is imported only when
such a bot is made.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from kronikas_client.events import GameEvent
from kronikas_client.models import Accept, Call, CheatGameView, Play

if TYPE_CHECKING:
    from kronikas_rules.envs import Policy

_COMMANDS: dict[str, Any] = {"play": Play, "call": Call, "accept": Accept}


class PolicyBot:
    """A bot that plays a Cheat seat by a policy of the environments, through the adapter."""

    def __init__(self, name: str, policy: Policy, rng: random.Random) -> None:
        from kronikas_rules.envs.live import LiveSeat

        self.name, self.policy = name, policy
        self.seat = LiveSeat("cheat", seed=rng.getrandbits(32))
        self.events: list[dict[str, Any]] = []

    def observe(self, event: GameEvent) -> None:
        self.events.append(event.to_dict())

    def act(self, view: CheatGameView) -> Play | Call | Accept | None:
        self.seat.update(view.to_dict(), self.events)  # it keeps any it cannot fold yet
        self.events = []
        command = self.seat.decide(self.policy)
        if command is None:
            return None
        sdk: Play | Call | Accept = _COMMANDS[command["type"]].from_dict(command)
        return sdk


def search_bot(rng: random.Random | None = None) -> PolicyBot:
    """The searching Cheat bot (`kronikas_bots.cheat.search.SearchPolicy`) as a bot of ours."""
    from .search import CheatSearch, SearchPolicy

    rng = rng or random.Random()
    policy = SearchPolicy(CheatSearch(rng=random.Random(rng.random())))
    return PolicyBot("search", policy, rng)
