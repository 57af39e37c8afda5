"""Clients that play whole matches over HTTP through a failover, as a careful client would: every
move carries an `Idempotency-Key`, and a 503 or a time-out is retried with the same key (and the
same body) until the one true outcome comes back; reads are retried too. Every answer is kept,
so that the checks can hold each acknowledged one against the log afterwards."""

from __future__ import annotations

import asyncio
import itertools
import random
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.api.tables import Table, auth, candidates, game_moves

RETRY_PAUSE_S = 0.1
"""How long a client waits before it retries (shorter than `Retry-After`: the test measures the
service's pause, not the client's patience)."""


@dataclass
class Acknowledged:
    """A move answered 200: what the checks hold against the log afterwards."""

    table: Table
    seat: int
    key: str
    answer: dict[str, Any]
    began: float
    """When its player began the turn: the first read of the views it was decided on
    (`time.monotonic()`)."""
    last_sent: float
    """When the attempt that was answered 200 was sent."""
    answered: float


@dataclass
class Record:
    """Every answer the clients of one scenario were given, and the moves acknowledged."""

    acknowledged: list[Acknowledged] = field(default_factory=list)
    in_flight: int = 0
    """Moves sent and not answered yet, now."""
    attempts: list[tuple[float, float, str]] = field(default_factory=list)
    """Each attempt at a move: when sent, when answered, its outcome."""
    answers: dict[str, int] = field(default_factory=dict)
    """`<method> <status> <code>` (or `<method> timeout`, `<method> dropped`) → how many."""

    def note(self, method: str, outcome: str) -> None:
        label = f"{method} {outcome}"
        self.answers[label] = self.answers.get(label, 0) + 1


ALLOWED = ("200", "201", "409 ", "412 ", "503 outcome_unknown", "503 unavailable")
"""What a request may be answered during a failover (issue 42, item 4), by the start of its
`outcome`: 2xx, 409/412 or an honest 503 — never a 500. No answer in time (`timeout`,
`dropped`) is counted and printed, and is no problem: the client retries with its key."""
NO_ANSWER = ("timeout", "dropped")


def outcome(r: httpx.Response) -> str:
    """`200`, or the status and the problem's code: `503 outcome_unknown`."""
    if r.status_code < 300:
        return str(r.status_code)
    try:
        code = r.json().get("code", "")
    except ValueError:
        code = "not-json"
    return f"{r.status_code} {code}"


class Player:
    """Plays one table to its end, each request on one of the services in turn."""

    def __init__(
        self, clients: list[httpx.AsyncClient], table: Table, record: Record, seed: int
    ) -> None:
        self.clients = clients
        self.table = table
        self.record = record
        self.rng = random.Random(seed)
        self.turns = itertools.cycle(range(len(clients)))
        self.pace_s = 0.0
        self.moves = 0
        self.began = 0.0

    def http(self) -> httpx.AsyncClient:
        return self.clients[next(self.turns)]

    async def get(self, url: str, token: str | None = None) -> dict[str, Any]:
        """A read, retried until it is answered 200 (on a 503 or a 500, or no answer)."""
        while True:
            try:
                r = await self.http().get(url, headers=auth(token))
            except httpx.TimeoutException:
                self.record.note("GET", "timeout")
            except httpx.TransportError:
                self.record.note("GET", "dropped")
            else:
                self.record.note("GET", outcome(r))
                if r.status_code == 200:
                    answer: dict[str, Any] = r.json()
                    return answer
                # A 500 is a problem the checks report (`ALLOWED`); the match goes on meanwhile.
                assert r.status_code >= 500, f"GET {url}: {r.status_code} {r.text}"
            await asyncio.sleep(RETRY_PAUSE_S)

    async def command(self, seat: int, command: dict[str, Any]) -> httpx.Response:
        """A move, retried with its key on a 503 (or a 500) or no answer; the first other
        answer."""
        key = secrets.token_hex(8)
        headers = auth(self.table.players[seat]) | {"Idempotency-Key": key}
        url = f"/v1/games/{self.table.id}/commands"
        while True:
            last_sent = time.monotonic()
            self.record.in_flight += 1
            said = "dropped"
            try:
                r = await self.http().post(url, json=command, headers=headers)
            except httpx.TimeoutException:
                said = "timeout"
            except httpx.TransportError:
                pass
            else:
                said = outcome(r)
                if r.status_code < 500:
                    if r.status_code == 200:
                        done = Acknowledged(
                            self.table, seat, key, r.json(), self.began, last_sent, time.monotonic()
                        )
                        self.record.acknowledged.append(done)
                    return r
            finally:
                self.record.in_flight -= 1
                self.record.note("POST", said)
                self.record.attempts.append((last_sent, time.monotonic(), said))
            await asyncio.sleep(RETRY_PAUSE_S)

    async def play(self, limit: int = 5000) -> None:
        """Legal moves from the views alone, as `Tables.play_to_end` makes them, to the end."""
        base = f"/v1/games/{self.table.id}"
        while self.moves < limit:
            self.began = time.monotonic()
            spectator = await self.get(base)
            if spectator["status"] == "finished":
                return
            seats = [spectator["turn"]]
            cheat = spectator.get("cheat")
            if cheat and cheat["window_open"] and self.rng.random() < 0.25:
                seats.insert(0, self.rng.randrange(len(self.table.players)))
            views = [await self.get(base, self.table.players[seat]) for seat in seats]
            playable = [v for v in views if game_moves(v)]
            if not playable:  # the table moved on between the two reads
                continue
            view = playable[0]
            for command in candidates(view, self.rng):
                r = await self.command(view["me"]["seat"], command)
                if r.status_code == 200:
                    self.moves += 1
                    break
                # A view read before another process's move: the move is refused as a whole.
                assert r.status_code in (409, 412), r.text
                if r.json()["code"] != "illegal_move":
                    break
            await asyncio.sleep(self.pace_s)
        raise AssertionError(f"table {self.table.id}: the match did not end in {limit} moves")
