"""What a fair deal costs: the shuffle with its commitment (µs), and the deal's event on the wire
(bytes) as a seat and a spectator receive it, for each game and deck size the games use.

The shuffle is the secure one a table without a seed gets: the deck's order, a salt for each
position and the Merkle root over them (docs/api.md, "Fair deals"). The deal's event is that of a
seeded table, redacted for seat 0 (its hand and, since openings exist, their openings) and for a
spectator, encoded as the events page sends it. On the code before openings the same script
measures the whole-deck hash: run it there with that checkout's Python to compare.

    uv run python -m benchmarks.deals [--seconds 1]
"""

from __future__ import annotations

import argparse
import functools
import time
from collections.abc import Callable
from typing import Any

import msgspec

from kronikas_rules import cheat, thirty_one
from kronikas_rules.cards import COLOURED, PALE, make_deck
from kronikas_rules.common import Start
from kronikas_rules.randomness import SecureRandomness, SeededRandomness
from kronikas_rules.seating import Join

CASES: list[tuple[str, Any, int, dict[str, Any]]] = [
    ("Cheat, 4 seats, one deck", cheat, 4, {}),
    ("Cheat, 4 seats, one deck and the Chroniclers", cheat, 4, {"chroniclers": True}),
    ("Cheat, 8 seats, two decks", cheat, 8, {"decks": 2}),
    ("Cheat, 8 seats, two decks and the Chroniclers", cheat, 8, {"decks": 2, "chroniclers": True}),
    ("Thirty-One, 4 seats", thirty_one, 4, {}),
    ("Thirty-One, 4 seats and the Chronicler", thirty_one, 4, {"chronicler": True}),
]


def _options(game: Any, given: dict[str, Any]) -> Any:
    options = game.CheatOptions if game is cheat else game.ThirtyOneOptions
    return options(**given)


def _deck(game: Any, given: dict[str, Any]) -> tuple[str, ...]:
    if game is cheat:
        chroniclers = (COLOURED, PALE) if given.get("chroniclers") else ()
        return make_deck(given.get("decks", 1), chroniclers)
    return make_deck(1, (COLOURED,) if given.get("chronicler") else ())


def _deal(game: Any, seats: int, given: dict[str, Any]) -> Any:
    """The first deal of a seeded table of `seats` players."""
    rng = SeededRandomness(7)
    state = game.initial_state(_options(game, given), True)
    for seat in range(seats):
        for event in game.decide(state, Join(player_id=f"p{seat}", name=f"P{seat}"), None, rng):
            state = game.evolve(state, event)
    dealt = game.decide(state, Start(), None, rng)
    return next(e for e in dealt if type(e).__name__.endswith("RoundDealt"))


def _per_call(work: Callable[[], object], seconds: float) -> float:
    """µs a call of `work`, over about `seconds`."""
    calls, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            work()
        calls += 20
    return elapsed / calls * 1e6


def measure(seconds: float) -> list[dict[str, Any]]:
    """One row a case: deck size, µs a secure shuffle with its commitment, the deal event's bytes
    for seat 0 and for a spectator, and the openings seat 0's copy carries."""
    rows = []
    secure = SecureRandomness()
    for name, game, seats, given in CASES:
        deck = _deck(game, given)
        event = _deal(game, seats, given)
        mine = msgspec.to_builtins(game.redact(event, 0))
        spectator = msgspec.to_builtins(game.redact(event, None))
        rows.append(
            {
                "case": name,
                "deck": len(deck),
                "shuffle_us": _per_call(functools.partial(secure.shuffle, deck, 1), seconds),
                "seat_bytes": len(msgspec.json.encode(mine)),
                "spectator_bytes": len(msgspec.json.encode(spectator)),
                "seat_openings": len(mine.get("openings") or []),
                "redact_us": _per_call(functools.partial(game.redact, event, 0), seconds),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time each figure this long")
    args = parser.parse_args()
    print(
        f"{'case':48} {'deck':>4} {'shuffle µs':>10} {'seat B':>7} {'spect. B':>8} "
        f"{'openings':>8} {'redact µs':>9}"
    )
    for row in measure(args.seconds):
        print(
            f"{row['case']:48} {row['deck']:>4} {row['shuffle_us']:>10.1f} {row['seat_bytes']:>7,} "
            f"{row['spectator_bytes']:>8,} {row['seat_openings']:>8} {row['redact_us']:>9.1f}"
        )


if __name__ == "__main__":
    main()
