"""The attacks of docs/security.md from one address, each against a service of its own.

`python -m benchmarks.attacks [--before CHECKOUT] [--rounds N] [--only NAME ...]` (also
`make bench ARGS="--only attacks"`) runs each attack module's `run`:

- `connections` (benchmarks/attack_connections.py): idle sockets and half heads from one address
  against another address's health checks; the CPU a 120 MB request head costs;
- `replay` (benchmarks/attack_replay.py): 600 retries of one keyed move at once on a long table;
- `reads` (benchmarks/attack_reads.py): 18 tokens of one address reading whole logs within every
  per-token limit; 100 sockets that never read;
- `mcp` (benchmarks/attack_mcp.py): what `/mcp` writes to its log and answers for huge input.

With `--before`, each attack runs alternately against that checkout's code and this one's, the
order rotating each round (the machine drifts), and the medians of each figure are printed side
by side. Every attack is bounded in count and time and sends only to loopback addresses.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import statistics
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ATTACKS = ("connections", "replay", "reads", "mcp")

Figures = dict[str, float]


def attack(name: str) -> Callable[..., Awaitable[Figures]]:
    """The `run` of `benchmarks.attack_<name>` (imported when asked for: each has its own needs)."""
    module = importlib.import_module(f"benchmarks.attack_{name}")
    run: Callable[..., Awaitable[Figures]] = module.run
    return run


async def measure(
    names: tuple[str, ...], before: Path | None, rounds: int
) -> dict[str, dict[str, list[Figures]]]:
    """Each attack `rounds` times on this checkout, and as often on `before` when given,
    alternated with the order rotating: {attack: {"after"|"before": [figures of each run]}}."""
    found: dict[str, dict[str, list[Figures]]] = {}
    for name in names:
        run = attack(name)
        sides: list[tuple[str, Path | None]] = [("after", None)]
        if before is not None:
            sides.insert(0, ("before", before))
        runs: dict[str, list[Figures]] = {side: [] for side, _ in sides}
        for n in range(rounds):
            for side, repo in sides[n % len(sides) :] + sides[: n % len(sides)]:
                print(f"  {name}: {side}, round {n + 1} of {rounds} …", flush=True)
                runs[side].append(await run(repo=repo))
        found[name] = runs
    return found


def medians(runs: list[Figures]) -> Figures:
    """Each figure's median over the runs that have it."""
    keys = sorted({k for figures in runs for k in figures})
    return {k: statistics.median(f[k] for f in runs if k in f) for k in keys}


def summary(found: dict[str, dict[str, list[Figures]]]) -> dict[str, Any]:
    """The medians, by attack and side, as `make bench` reports them."""
    return {name: {side: medians(r) for side, r in runs.items()} for name, runs in found.items()}


def table(result: dict[str, Any]) -> str:
    """The medians as text: a line a figure, before beside after when both were measured."""
    lines = []
    for name, sides in result.items():
        lines.append(f"{name}:")
        after = sides.get("after", {})
        before = sides.get("before")
        for key in sorted(after):
            shown = f"{after[key]:>14.4g}"
            if before is not None and key in before:
                shown = f"{before[key]:>14.4g}  →  {after[key]:.4g}"
            lines.append(f"  {key:<28} {shown}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--before", type=Path, help="also attack this checkout's code, alternated")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each attack on each side")
    parser.add_argument("--only", choices=ATTACKS, action="append", help="this attack alone")
    parser.add_argument("--output", default="attack-results.json")
    args = parser.parse_args()
    names = tuple(args.only or ATTACKS)
    result = summary(asyncio.run(measure(names, args.before, max(1, args.rounds))))
    print(table(result))
    Path(args.output).write_text(json.dumps(result, indent=2) + "\n")
    print(f"(medians written to {args.output})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
