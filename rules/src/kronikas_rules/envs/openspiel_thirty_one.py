"""Thirty-One as an OpenSpiel game (`python_kronikas_thirty_one`): its parameters, and how long
a match may last."""

from __future__ import annotations

from typing import Any, ClassVar, Final

import msgspec

from kronikas_rules.envs.openspiel import GameSpec, KronikasGame, Params
from kronikas_rules.thirty_one.options import EVENT_CAP, KIND

PARAMETERS: Final = {"players": 2, "lives": 3, "max_circuits": 20, "chronicler": False}
"""`players` and the options that change play (`max_circuits` 0: no limit); the clock and
`reveal` change nothing offline."""


def options(params: Params) -> dict[str, Any]:
    """The table options of the parameters."""
    circuits = params["max_circuits"]
    return {
        "lives": params["lives"],
        "max_circuits": circuits or None,
        "chronicler": params["chronicler"],
    }


def max_game_length(options: msgspec.Struct, players: int) -> int:
    """Every decision is a move, and every move an event: the table's log ends the match at
    its cap."""
    return EVENT_CAP


SPEC: Final = GameSpec(
    long_name="Krónikás Thirty-One",
    parameters=PARAMETERS,
    options=options,
    max_game_length=max_game_length,
)


class OpenSpielGame(KronikasGame):
    """`python_kronikas_thirty_one` with its parameters."""

    kind: ClassVar[str] = KIND
    spec: ClassVar[GameSpec] = SPEC
