"""Cheat as an OpenSpiel game (`python_kronikas_cheat`): its parameters, and how long a match
may last."""

from __future__ import annotations

from typing import Any, ClassVar, Final

import msgspec

from kronikas_rules.cheat.options import EVENT_CAP, KIND, CheatTableOptions
from kronikas_rules.envs.openspiel import GameSpec, KronikasGame, Params

PARAMETERS: Final = {
    "players": 2,
    "decks": 1,
    "max_play": 4,
    "max_plays": 300,
    "rounds": 1,
    "place_points": "4:3:2",
    "chroniclers": False,
}
"""`players` and the options that change play (`place_points` as `4:3:2`); the clocks and
`reveal` change nothing offline."""


def options(params: Params) -> dict[str, Any]:
    """The table options of the parameters."""
    points = tuple(int(p) for p in str(params["place_points"]).split(":"))
    names = ("decks", "max_play", "max_plays", "rounds", "chroniclers")
    return {**{name: params[name] for name in names}, "place_points": points}


def max_game_length(options: msgspec.Struct, players: int) -> int:
    """Each play is its cards picked one by one and `done`, then a call-or-let-go decision of
    every other seat and an `accept`; a round has at most `max_plays` plays, and the table's
    log, which holds every play, ends the match at its cap."""
    assert isinstance(options, CheatTableOptions)
    plays = min(options.rounds * (options.play_limit or EVENT_CAP), EVENT_CAP)
    return plays * (options.max_play + 1 + players)


SPEC: Final = GameSpec(
    long_name="Krónikás Cheat",
    parameters=PARAMETERS,
    options=options,
    max_game_length=max_game_length,
)


class OpenSpielGame(KronikasGame):
    """`python_kronikas_cheat` with its parameters."""

    kind: ClassVar[str] = KIND
    spec: ClassVar[GameSpec] = SPEC
