"""`python -m kronikas_bots`: seat bots at new tables on a Krónikás service and play them out."""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import sys
import textwrap
import time
from collections.abc import Iterator, Sequence

from .games import GAMES, KINDS
from .runner import TRANSPORTS, Tally, local_service, play_one
from .table import SEAT_KINDS, ApiError

ABOUT = """\
Without --url a service is started for the run (python -m kronikas.serve on a free port, with
its embedded Redis in a temporary directory). With --games K the seats rotate from game to game,
so no bot keeps the same seat; a win shared by several seats counts for each of them. A seat
"house" is a house player: the table's host seats it and the service plays it (no bot of ours);
its wins count like any bot's."""

EPILOG = "\n\n".join(
    [
        "examples:\n"
        + "\n".join(
            f"  python -m kronikas_bots {example}"
            for game in GAMES.values()
            for example in game.examples
        ),
        ABOUT,
        *(textwrap.fill(game.note, width=96) for game in GAMES.values() if game.note),
    ]
)
"""`--help`'s text after the options: each game's examples and notes (its module's `GAME`)."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m kronikas_bots",
        description="Play Krónikás bots against each other on a running or fresh service.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--url", help="base URL of a running service (default: start one)")
    parser.add_argument(
        "--game", choices=KINDS, default=KINDS[0], help=f"the game (default {KINDS[0]})"
    )
    parser.add_argument(
        "--bots",
        default="good,random",
        help=f"comma-separated kinds, one per seat, from {', '.join(SEAT_KINDS)} "
        "(house: the service plays that seat; default good,random)",
    )
    parser.add_argument("--games", type=int, default=1, help="tables to play (default 1)")
    parser.add_argument(
        "--options", default="{}", help="the table options as JSON, e.g. '{\"lives\": 1}'"
    )
    parser.add_argument(
        "--seed", type=int, help="seed the deals (table i gets seed+i) and the bots' choices"
    )
    parser.add_argument(
        "--quiet", action="store_true", help="no line per round, only the result(s)"
    )
    parser.add_argument(
        "--transport",
        choices=TRANSPORTS,
        default=TRANSPORTS[0],
        help="http: long-polls and POSTs, one step at a time (the default); socket: one seat "
        "socket per bot, each moving when its push says so (the deals are seeded, the races "
        "between seats are not)",
    )
    args = parser.parse_args(argv)
    args.kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    if not args.kinds or any(k not in SEAT_KINDS for k in args.kinds):
        parser.error(f"--bots takes kinds from {', '.join(SEAT_KINDS)}, e.g. good,random")
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        args.table_options = json.loads(args.options)
    except json.JSONDecodeError as e:
        parser.error(f"--options is not JSON: {e}")
    if not isinstance(args.table_options, dict):
        parser.error("--options must be a JSON object")
    return args


@contextlib.contextmanager
def service(url: str | None) -> Iterator[str]:
    if url:
        yield url.rstrip("/")
        return
    with local_service(log=lambda line: print(line, file=sys.stderr)) as started:
        yield started


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    rng = random.Random(args.seed)
    many = args.games > 1
    tally = Tally()
    try:
        with service(args.url) as url:
            for g in range(args.games):
                shift = g % len(args.kinds)
                kinds = args.kinds[shift:] + args.kinds[:shift]
                seed = None if args.seed is None else args.seed + g
                started = time.monotonic()
                echo = None if args.quiet else (lambda line: print(f"  {line}", flush=True))
                if many and echo:
                    print(f"game {g + 1}/{args.games}: seats {','.join(kinds)}", flush=True)
                view, rounds = play_one(
                    url, args.game, kinds, args.table_options, seed, rng, echo, args.transport
                )
                tally.add(kinds, view.winners)
                tally.rounds += rounds
                tally.seconds += time.monotonic() - started
                winners = ", ".join(f"{kinds[s]}-{s}" for s in view.winners)
                if not many:
                    print(f"{args.game} table {view.id}: {rounds} rounds; won by {winners}")
                elif args.quiet:
                    print(f"game {g + 1}/{args.games}: won by {winners}", flush=True)
    except ApiError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except (OSError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if many:
        print(
            f"{args.game}: {tally.games} games of {','.join(args.kinds)} "
            f"({tally.rounds} rounds, {tally.seconds:.0f} s)"
        )
        print("\n".join(tally.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
