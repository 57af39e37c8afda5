"""Start a service when none is named, play tables of bots, and count who wins."""

from __future__ import annotations

import contextlib
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from kronikas_client import Client
from kronikas_client.api.system import health
from kronikas_client.events import GameEvent
from kronikas_client.models import Health

from .base import View
from .games import game_of
from .table import HOUSE, Table, make_bot

TRANSPORTS = ("http", "socket")
"""How the bots follow and move: HTTP (long-polls and `POST …/commands`, one step at a time) or
one seat socket each (`kronikas_client.socket`, every seat moving when its push says so)."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextlib.contextmanager
def local_service(timeout: float = 60.0, log: Callable[[str], None] | None = None) -> Iterator[str]:
    """Run `python -m kronikas.serve` on a free port with its embedded Redis in a temporary
    directory (this needs the Krónikás service installed, as in the repository's virtualenv);
    yields its base URL and stops it afterwards."""
    with tempfile.TemporaryDirectory(prefix="kronikas-bots-") as tmp:
        port = free_port()
        env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"} | {
            "PORT": str(port),
            "DATA_DIR": tmp,
            "LOG_LEVEL": "WARNING",
            "RATE_LIMIT_PER_S": "100000",
            "RATE_LIMIT_BURST": "100000",
            "OPEN_LIMIT_PER_MIN": "1000000",
        }
        log_path = Path(tmp) / "service.log"
        with log_path.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "kronikas.serve"], env=env, stdout=out, stderr=out
            )
            url = f"http://127.0.0.1:{port}"
            try:
                _wait_healthy(url, process, log_path, timeout)
                if log:
                    log(f"started a service at {url} (embedded Redis under {tmp})")
                yield url
            finally:
                process.terminate()
                try:
                    process.wait(20)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    client = Client(base_url=url, timeout=httpx.Timeout(1.0))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the service exited:\n{log.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(httpx.HTTPError):
            if isinstance(health.sync(client=client), Health):
                return
        time.sleep(0.1)
    raise RuntimeError(f"the service did not answer within {timeout:.0f} s")


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def describe_round(game: str, event: GameEvent, names: list[str]) -> str | None:
    """A progress line for a round's or the match's end (the game's own words), else None."""
    return game_of(game).describe(event, names)


@dataclass
class Tally:
    """Wins per bot kind, counting each seat of that kind as one trial per game."""

    wins: dict[str, int] = field(default_factory=dict)
    trials: dict[str, int] = field(default_factory=dict)
    games: int = 0
    shared: int = 0
    rounds: int = 0
    seconds: float = 0.0

    def add(self, kinds: list[str], winners: list[int]) -> None:
        self.games += 1
        if len(winners) > 1:
            self.shared += 1
        for seat, kind in enumerate(kinds):
            self.trials[kind] = self.trials.get(kind, 0) + 1
            self.wins[kind] = self.wins.get(kind, 0) + (seat in winners)

    def lines(self) -> list[str]:
        out = []
        for kind in sorted(self.trials):
            w, n = self.wins[kind], self.trials[kind]
            low, high = wilson(w, n)
            out.append(
                f"  {kind:<8} won {w:>5}/{n:<5} = {w / n:6.1%}   95% CI [{low:.1%}, {high:.1%}]"
            )
        if self.shared:
            out.append(f"  ({self.shared} games ended in a shared win: each winner counts)")
        return out


def play_one(
    url: str,
    game: str,
    kinds: list[str],
    options: dict[str, Any],
    seed: int | None,
    rng: Any,
    echo: Callable[[str], None] | None,
    transport: str = "http",
) -> tuple[View, int]:
    """Play one table to the end; the final view and the number of rounds. A seat of kind
    "house" is a house player: the host seats it and the service plays it. `transport` is one of
    `TRANSPORTS`."""
    bots = [None if kind == HOUSE else make_bot(game, kind, rng) for kind in kinds]
    table = Table.create(url, game, bots, options, seed, rng)
    names = [f"{kind}-{i}" for i, kind in enumerate(kinds)]
    rounds = 0
    ends_round = game_of(game).ends_round

    def on_events(events: list[GameEvent], view: View) -> None:
        nonlocal rounds
        for event in events:
            if ends_round(event):
                rounds += 1
            line = describe_round(game, event, names)
            if line and echo:
                echo(line)

    if transport == "socket":  # imported here: the HTTP bots need no WebSocket client
        from . import over_socket

        return over_socket.play(table, on_events), rounds
    return table.play(on_events), rounds
