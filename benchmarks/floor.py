"""The floor under a move (issue 43): the follow workload's Cheat move, its pure work in-process.

What every transport runs for a move, less the store, the loop and the framing: the engine's
`decide` and `evolve`, and for each of the table's two seats its view and the move's events in
their envelopes, encoded, each by the function the service calls for it (the registry's engine,
`session.seat_view`, `tables.Seen.json`, `wire.event_json`). The moves are the follow
workload's (benchmarks/follow.py): two seats at an unseeded table of 100 rounds, each playing
the last card of its hand on its turn and accepting when the other has emptied its hand; the
deals are shuffled by the service's own random source (`for_table(None)`).

One match's moves (`MOVES` of them) are played once to record the tables they were made on;
then each pass re-makes every move of that record from its table, and the figure is a pass's
CPU time (this thread's, as the served move's is the worker's CPU: on a shared machine, waiting
for a core does not count) over its moves, the median of `REPEATS` passes: `move_floor_us`, µs
a move. Its parts are the same moves in separate passes, each with the function's own work:
`decide`, `evolve`, `views` (the engine's view of each seat, with its deadline), `events` (each
event redacted for each seat, in its envelope), `encode` (the views' and the envelopes' JSON);
what the floor spends beyond them is `glue`: the application's values around them (the records,
each event's `Seen`, each view's `Sight`, the next fold). Beside it, outside the floor:
`record`, the stored bytes of the move's events (the append sends them).

It counts a view for each seat, as issue 43 defines the floor; the socket workload serves one
view a move (the mover's, in its `result`), so the floor is a view (~6 µs) above that move's.

    uv run python -m benchmarks.floor [--repeats 7] [--moves 2000] [--json]

prints the floor and its parts; `make bench` takes them in its phase `floor`
(`move_floor_us`, `move_floor_<part>_us`). benchmarks/move_profile.py sets the profile of a
served move beside it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import msgspec

from kronikas.adapters.randomness import for_table
from kronikas.application import wire
from kronikas.application.engines import service_games
from kronikas.application.house import next_deadline, now_ms
from kronikas.application.session import seat_view
from kronikas.application.tables import Codec, Fold
from kronikas.application.wire import Record, encode, game_event, utc_text, view_json
from kronikas_rules.cheat.commands import Accept, Play
from kronikas_rules.cheat.options import CheatOptions
from kronikas_rules.cheat.states import ToPlay, Window
from kronikas_rules.common import Start
from kronikas_rules.engine import Rules
from kronikas_rules.seating import Join

KIND = "cheat"
SEATS = (0, 1)
MOVES = 2000
REPEATS = 7
PARTS = ("decide", "evolve", "views", "events", "encode")
"""The floor's parts, in the order the service makes them (`glue`, the floor less them, is
reported beside them; `record` is outside the floor)."""
_GAME_ID = "f1002f1002f1002f"


@dataclass(frozen=True, slots=True)
class Move:
    """A move as the record holds it: the table it was made on, the command and its seat, and
    what the service made of it (each pass makes it all again, but for the part it times)."""

    table: Fold
    command: msgspec.Struct
    seat: int
    events: list[msgspec.Struct]
    after: Fold
    records: list[Record[msgspec.Struct]]
    views: list[Any]
    envelopes: list[msgspec.Struct]


def _follow_command(state: object) -> tuple[int, msgspec.Struct] | None:
    """The follow workload's next move: the seat on turn plays its hand's last card, or accepts
    once the other seat's hand is empty (its play closed the round); None when no seat moves."""
    if not isinstance(state, ToPlay | Window):
        return None
    deal = state.deal
    seat = deal.turn
    if isinstance(state, Window) and state.closes_round:
        return seat, Accept()
    hand = deal.hands[seat]
    return seat, Play(cards=[hand[-1]])


def _table(rules: Rules, options: CheatOptions) -> Fold:
    """A table of two players, started, as `Commands` makes it (create, join, join, start)."""
    rng = for_table(None)
    events: list[msgspec.Struct] = [*rules.created(options, False)]
    state = rules.initial_state(options, False)
    for event in events:
        state = rules.evolve(state, event)
    for command in (Join("p0", "A"), Join("p1", "B"), Start()):
        made = rules.decide(state, command, None, rng)
        for event in made:
            state = rules.evolve(state, event)
        events += made
    at = utc_text(now_ms())
    return Fold(_GAME_ID, KIND, rules, None, len(events), state, now_ms(), at)


def played(moves: int = MOVES) -> list[Move]:
    """`moves` moves of the follow workload's matches, as the service makes them (a new match
    once one ends)."""
    rules = service_games()[KIND]
    options = CheatOptions(rounds=100)
    rng = for_table(None)
    made: list[Move] = []
    table = _table(rules, options)
    while len(made) < moves:
        chosen = _follow_command(table.state)
        if chosen is None:  # the match is over
            table = _table(rules, options)
            continue
        seat, command = chosen
        events = rules.decide(table.state, command, seat, rng)
        state = table.state
        for event in events:
            state = rules.evolve(state, event)
        at = utc_text(now_ms())
        records = [Record(v=table.version + i, at=at, e=e) for i, e in enumerate(events, 1)]
        after = table._replace(version=table.version + len(events), state=state, at=at)
        _, deadline = next_deadline(rules, state, at)
        views = [rules.view(state, s, _GAME_ID, after.version, deadline) for s in SEATS]
        envelopes = [
            game_event(KIND, r.v, r.at, rules.redact(r.e, s)) for s in SEATS for r in records
        ]
        made.append(Move(table, command, seat, events, after, records, views, envelopes))
        table = after
    return made


# -- the passes: each re-makes every move of the record -----------------------------------------


_CODEC = Codec(service_games())
"""What the service keeps a record as (`Codec.seen`), made once: not part of a move."""


def _whole(moves: list[Move]) -> None:
    """The floor: decide, evolve, and for each seat its view and the events, encoded."""
    rng = for_table(None)
    codec = _CODEC
    for move in moves:
        table = move.table
        rules = table.engine
        events = rules.decide(table.state, move.command, move.seat, rng)
        state = table.state
        for event in events:
            state = rules.evolve(state, event)
        at = move.after.at
        records = [Record(v=table.version + i, at=at, e=e) for i, e in enumerate(events, 1)]
        after = table._replace(version=table.version + len(events), state=state, at=at)
        seen = codec.seen(after, records)
        for seat in SEATS:
            seat_view(after, seat)
            for event in seen:
                event.json(seat)


def _decide(moves: list[Move]) -> None:
    rng = for_table(None)
    for move in moves:
        table = move.table
        table.engine.decide(table.state, move.command, move.seat, rng)


def _evolve(moves: list[Move]) -> None:
    for move in moves:
        table = move.table
        evolve, state = table.engine.evolve, table.state
        for event in move.events:
            state = evolve(state, event)


def _views(moves: list[Move]) -> None:
    """Each seat's view as `seat_view` makes it (its deadline, the engine's view), less its JSON
    and its `Sight`."""
    for move in moves:
        after = move.after
        rules, state = after.engine, after.state
        for seat in SEATS:
            _, deadline = next_deadline(rules, state, after.at)
            rules.view(state, seat, after.game_id, after.version, deadline)


def _events(moves: list[Move]) -> None:
    """Each event redacted for each seat and put in its envelope, as `event_json` does, less
    its JSON."""
    for move in moves:
        redact = move.table.engine.redact
        for seat in SEATS:
            for record in move.records:
                game_event(KIND, record.v, record.at, redact(record.e, seat))


_encoder = wire._encoder
"""The wire module's encoder, the one `event_json` and `view_json` encode with (not a copy)."""


def _encode(moves: list[Move]) -> None:
    """The views' JSON (`view_json`) and the envelopes' (`event_json`'s encoder)."""
    encoded = _encoder.encode
    for move in moves:
        for view in move.views:
            view_json(view)
        for envelope in move.envelopes:
            encoded(envelope)


def _record(moves: list[Move]) -> None:
    """The stored bytes of the move's events (`wire.encode`): outside the floor."""
    for move in moves:
        for record in move.records:
            encode(record)


PASSES: dict[str, Callable[[list[Move]], None]] = {
    "whole": _whole,
    "decide": _decide,
    "evolve": _evolve,
    "views": _views,
    "events": _events,
    "encode": _encode,
    "record": _record,
}


def measure(repeats: int = REPEATS, moves: int = MOVES) -> dict[str, float]:
    """µs a move of the floor (`whole`) and of each part, the median of `repeats` passes over
    `moves` moves; the passes take turns, so a machine that drifts moves them alike."""
    record = played(moves)
    for run in PASSES.values():  # a first pass of each, uncounted (caches, the allocator)
        run(record)
    times: dict[str, list[float]] = {name: [] for name in PASSES}
    clock = time.thread_time  # CPU time: a pass that waited for a core costs no more
    for _ in range(repeats):
        for name, run in PASSES.items():
            start = clock()
            run(record)
            times[name].append((clock() - start) / len(record) * 1e6)
    return {name: statistics.median(spent) for name, spent in times.items()}


def figures(repeats: int = REPEATS, moves: int = MOVES) -> dict[str, float]:
    """`make bench`'s keys: `move_floor_us`, `move_floor_<part>_us`, `move_floor_glue_us`
    (the floor less its parts) and `move_floor_record_us` (outside it)."""
    found = measure(repeats, moves)
    results = {"move_floor_us": found.pop("whole")}
    results |= {f"move_floor_{name}_us": us for name, us in found.items()}
    parts = sum(results[f"move_floor_{name}_us"] for name in PARTS)
    results["move_floor_glue_us"] = results["move_floor_us"] - parts
    return results


def lines(results: dict[str, float]) -> list[str]:
    """The floor and its parts, as printed."""
    return [
        f"move floor (decide + evolve + each seat's view and events, encoded): "
        f"{results['move_floor_us']:.2f} µs a move",
        *(f"  {name:<8} {results[f'move_floor_{name}_us']:7.2f} µs" for name in (*PARTS, "glue")),
        f"  (outside the floor: the stored record {results['move_floor_record_us']:.2f} µs)",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=REPEATS, help="passes of each (median)")
    parser.add_argument("--moves", type=int, default=MOVES, help="moves a pass makes")
    parser.add_argument("--json", action="store_true", help="the figures as one JSON object")
    args = parser.parse_args()
    results = figures(args.repeats, args.moves)
    print(json.dumps(results) if args.json else "\n".join(lines(results)))


if __name__ == "__main__":
    main()
