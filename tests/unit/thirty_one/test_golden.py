"""The golden playthrough: a seeded three-player match with the Chronicler, every command type.

`tests/golden/thirty_one.json` holds every command, its events and each seat's and a spectator's
view after it; this test plays the match again and diffs. `KRONIKAS_UPDATE_GOLDEN=1` rewrites it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from kronikas_rules import thirty_one as t
from kronikas_rules.common import Start
from kronikas_rules.randomness import SeededRandomness
from kronikas_rules.seating import Join

GOLDEN = Path(__file__).parents[2] / "golden" / "thirty_one.json"
SEED = 5
OPTIONS = t.ThirtyOneOptions(lives=1, max_circuits=3, chronicler=True)
NAMES = ("Anna", "Bence", "Csilla")
GAME_ID = "golden-thirty-one"


def best_swap(state: t.State, seat: int, mine: Sequence[str]) -> tuple[int, t.Command | None]:
    """The legal one-card swap that scores best (the first of equals)."""
    best: tuple[int, t.Command | None] = (-1, None)
    for move in t.legal_moves(state, seat):
        if isinstance(move, t.Swap):
            hand = [move.take if card == move.give else card for card in mine]
            if t.score(hand) > best[0]:
                best = (t.score(hand), move)
    return best


def policy(state: t.State, seat: int, used: set[str]) -> t.Command:
    """A plain player that tries each command type of the game once when it may (it never leaves
    the table)."""
    allowed = [kind for kind in t.legal(state, seat) if kind not in ("leave", "back")]
    fresh = [kind for kind in allowed if kind not in used]
    simple: dict[str, t.Command] = {
        "keep": t.Keep(),
        "exchange": t.Exchange(),
        "swap_all": t.SwapAll(),
        "pass": t.Pass(),
        "show": t.Show(),
    }
    deal = t.deal_of(state)
    assert deal is not None, "a seat may act only in a round"
    hand = deal.hands[seat]
    mine = t.score(hand)
    if fresh:
        if fresh[0] != "swap":
            return simple[fresh[0]]
        swap = best_swap(state, seat, hand)[1]
        assert swap is not None
        return swap
    if "keep" in allowed:
        return t.Exchange() if t.score(deal.table) > mine else t.Keep()
    value, swap = best_swap(state, seat, hand)
    if "swap" in allowed and swap is not None and value > mine:
        return swap
    if "show" in allowed and (mine >= 50 or "pass" not in allowed):
        return t.Show()
    return t.Pass() if "pass" in allowed else t.Show()


def playthrough(seed: int = SEED) -> dict[str, Any]:
    """Play the golden match; every command with its events and the views after it."""
    rng = SeededRandomness(seed)
    state = t.initial_state(OPTIONS, True)
    version = 0
    steps: list[dict[str, Any]] = []
    used: set[str] = set()

    def step(command: Any, seat: int | None, events: list[t.Event]) -> None:
        nonlocal state, version
        numbered = []
        for event in events:
            state = t.evolve(state, event)
            version += 1
            numbered.append({"version": version, "event": event})
        seats = len(state.match.seats)
        steps.append(
            {
                "seat": seat,
                "command": command,
                "events": numbered,
                "views": {
                    "spectator": t.view(state, None, GAME_ID, version),
                    **{str(s): t.view(state, s, GAME_ID, version) for s in range(seats)},
                },
            }
        )

    step(None, None, t.created(OPTIONS, True))
    for seat, name in enumerate(NAMES):
        join = Join(player_id=f"player-{seat}", name=name)
        step(join, None, t.decide(state, join, None, rng))
    step(Start(), None, t.decide(state, Start(), None, rng))
    while not t.is_terminal(state):
        seat = t.waiting_for(state)
        assert seat is not None, "a match in play waits for a seat"
        command = policy(state, seat, used)
        used.add(str(command.__struct_config__.tag))
        step(command, seat, t.decide(state, command, seat, rng))
    return {"seed": seed, "options": OPTIONS, "used": sorted(used), "steps": steps}


def render(document: dict[str, Any]) -> str:
    return msgspec.json.format(msgspec.json.encode(document), indent=2).decode() + "\n"


def test_the_golden_playthrough_uses_every_command_type() -> None:
    used = playthrough()["used"]
    assert used == sorted(["keep", "exchange", "swap", "swap_all", "pass", "show"])


def test_the_golden_playthrough_is_unchanged() -> None:
    text = render(playthrough())
    if os.environ.get("KRONIKAS_UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(text)
    assert GOLDEN.exists(), "run with KRONIKAS_UPDATE_GOLDEN=1 to write the golden file"
    assert GOLDEN.read_text() == text
