"""The golden playthrough of Cheat: a seeded game whose commands, events and every seat's and a
spectator's view are kept in tests/golden/cheat.json; `KRONIKAS_UPDATE_GOLDEN=1` rewrites it."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import msgspec

from kronikas_rules import cheat
from kronikas_rules.cheat import CheatTableOptions
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join

from .helpers import random_command

GOLDEN = Path(__file__).resolve().parents[2] / "golden" / "cheat.json"
GAME_ID = "golden-cheat"
SEED = 12
"""The table's seed; with the players' seed below, the game shows every command and outcome."""
PLAYERS_SEED = 1
OPTIONS = CheatTableOptions(rounds=2, chroniclers=True, reveal="match_end")
"""As a table stored before `max_plays` existed keeps them: its rounds have no limit of plays, and
it replays exactly as it did; every deal is opened to everyone at the match's end."""
NAMES = ("Anna", "Bence", "Csilla")

AnyCommand = cheat.Command | Join | Start


def _encode(value: Any) -> Any:
    return msgspec.to_builtins(value)


def _views(state: cheat.State, version: int) -> dict[str, Any]:
    viewers: list[tuple[str, int | None]] = [("spectator", None)]
    viewers += [(f"seat {seat}", seat) for seat in range(len(NAMES))]
    return {name: _encode(cheat.view(state, seat, GAME_ID, version)) for name, seat in viewers}


def _playthrough(commands: list[tuple[int | None, AnyCommand]] | None) -> dict[str, Any]:
    """Replay `commands`, or choose them with the seeded random players when `None`."""
    rng = SeededRandomness(SEED)
    players = random.Random(PLAYERS_SEED)
    state = cheat.initial_state(OPTIONS, True)
    created = cheat.created(OPTIONS, True)
    for event in created:
        state = cheat.evolve(state, event)
    version = len(created)
    steps: list[dict[str, Any]] = [
        {
            "seat": None,
            "command": None,
            "events": [{"version": 1, "event": _encode(created[0])}],
            "views": _views(state, version),
        }
    ]
    if commands is None:
        todo: list[tuple[int | None, AnyCommand]] = [
            *((None, Join(player_id=f"player-{i}", name=name)) for i, name in enumerate(NAMES)),
            (None, Start()),
        ]
    else:
        todo = list(commands)
    while todo or (commands is None and isinstance(state, cheat.InRound)):
        if todo:
            seat, command = todo.pop(0)
        else:
            assert isinstance(state, cheat.InRound)
            seat, command = random_command(state, players, 0.3)
        events = cheat.decide(state, command, seat, rng)
        numbered = []
        for event in events:
            state = cheat.evolve(state, event)
            version += 1
            numbered.append({"version": version, "event": _encode(event)})
        steps.append(
            {
                "seat": seat,
                "command": _encode(command),
                "events": numbered,
                "views": _views(state, version),
            }
        )
    assert cheat.is_terminal(state)
    return {
        "kind": cheat.KIND,
        "game_id": GAME_ID,
        "seed": SEED,
        "options": _encode(OPTIONS),
        "steps": steps,
    }


def _dump(document: dict[str, Any]) -> bytes:
    return msgspec.json.format(msgspec.json.encode(document), indent=2) + b"\n"


def _commands(document: dict[str, Any]) -> list[tuple[int | None, AnyCommand]]:
    return [
        (step["seat"], msgspec.convert(step["command"], AnyCommand))
        for step in document["steps"]
        if step["command"] is not None
    ]


def test_golden_playthrough_is_unchanged() -> None:
    if os.environ.get("KRONIKAS_UPDATE_GOLDEN") == "1":
        GOLDEN.write_bytes(_dump(_playthrough(None)))
    committed = GOLDEN.read_bytes()
    replayed = _dump(_playthrough(_commands(msgspec.json.decode(committed))))
    assert replayed == committed, "the engine changed: KRONIKAS_UPDATE_GOLDEN=1 rewrites it"


def test_golden_playthrough_shows_every_command_and_outcome() -> None:
    document = msgspec.json.decode(GOLDEN.read_bytes())
    commands = {step["command"]["type"] for step in document["steps"] if step["command"]}
    assert commands == {"join", "start", "play", "call", "accept"}
    events = [e["event"] for step in document["steps"] for e in step["events"]]
    types = {event["type"] for event in events}
    assert types >= {
        "game_created",
        "player_joined",
        "round_dealt",
        "cards_played",
        "cheat_called",
        "pile_taken",
        "penalty_taken",
        "play_accepted",
        "round_ended",
        "match_ended",
        "deals_opened",
    }
    assert "deck_revealed" not in types, "deals committed card by card are never revealed whole"
    calls = [e["honest"] for e in events if e["type"] == "cheat_called"]
    assert True in calls and False in calls
    played = {c for e in events if e["type"] == "cards_played" for c in e["cards"]}
    assert {"XC", "XP"} <= played
    assert [e["round"] for e in events if e["type"] == "round_dealt"] == [1, 2]
