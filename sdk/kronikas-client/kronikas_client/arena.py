"""The arena (docs/arena.md) in a few lines: register an entrant, wait for a seat, play, again.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It uses only the SDK's own httpx client:

    from kronikas_client import Client
    from kronikas_client.arena import Arena

    arena = Arena(Client(base_url=url))
    arena.register("my-bot", [kind])  # keeps the entrant token: `arena.token`
    seated = arena.enter(kind)  # waits (long-polls) until a table has a seat for it
    play_my_seat(seated.table_id, seated.token)  # the seat token, as any table's
    print(arena.me().ratings)

`play(player, kind)` does the last three in a loop until stopped: it enters, hands `player`
each seat, and enters again. The entrant token (`ke_…`) is shown once, at `register`: keep it
(`Arena(client, token=…, entrant_id=…)` comes back as the same entrant); a seat token opens one
table only. A 429 or 503 is waited out as its `Retry-After` says; any other refusal raises
`ArenaError` with the service's problem (`code`, `detail`).
"""

from __future__ import annotations

import contextlib
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import quote

import httpx

from .client import AuthenticatedClient, Client
from .models import EntrantCreated, EntrantPage, Leaderboard, Ticket
from .types import Unset

T = TypeVar("T")

__all__ = ["BUSY_S", "POLL_S", "Arena", "ArenaError", "Seated"]

POLL_S = 25.0
"""The longest one long-poll of the queue asks the service to hold (`wait`); `enter` asks again
until its own `wait` has passed."""
BUSY_S = 3.0
"""How often `enter` asks again while the ticket still names a table it played."""
RETRY_STATUSES = frozenset({429, 503})
"""Statuses worth another try after the server's `Retry-After` (nothing was changed)."""
MAX_RETRY_S = 30.0
"""The longest single wait before another try."""


class ArenaError(Exception):
    """The service refused (401, 404, 409, 422, …): `code` and `detail` say why."""

    def __init__(self, status: int, problem: Mapping[str, Any] | None, body: str = "") -> None:
        self.status = status
        self.problem: dict[str, Any] = dict(problem or {})
        self.code: str = str(self.problem.get("code", "")) or f"http_{status}"
        self.detail: str = str(self.problem.get("detail", "")) or body[:200]
        super().__init__(f"the arena refused with {status} ({self.code}: {self.detail})")


@dataclass(frozen=True)
class Seated:
    """A seat the arena gave: the table, the seat's index and its token (every call of that
    table takes it), the game and table size, and the duplicate set the table belongs to."""

    table_id: str
    seat: int
    token: str
    kind: str
    players: int
    set_id: str | None = None


class Arena:
    """The arena as one entrant uses it, over an SDK `Client` (its base URL and its httpx
    settings; an `AuthenticatedClient`'s token is not used: the entrant token is `token`).

    Thread-safe for `stop()` only: one thread plays, another may stop it."""

    def __init__(
        self,
        client: Client | AuthenticatedClient,
        token: str | None = None,
        entrant_id: str | None = None,
        busy_s: float = BUSY_S,
    ) -> None:
        self.client = client
        self.busy_s = busy_s
        """How often `enter` asks again while the ticket still names a table played (`BUSY_S`)."""
        self.token = token
        """The entrant token (`ke_…`): `register` sets it."""
        self.entrant_id = entrant_id
        """The entrant's id, for `me()`: `register` sets it."""
        self._stopped = threading.Event()
        self._played: set[str] = set()

    # --- HTTP ----------------------------------------------------------------------------

    def _send(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        auth: bool = True,
        timeout: float | None = None,
    ) -> Any:
        """One call, 429s and 503s waited out: its JSON answer (None for a 204)."""
        headers = {"Accept": "application/json"}
        if auth:
            if self.token is None:
                raise ArenaError(401, {"code": "unauthorized", "detail": "register first"})
            headers["Authorization"] = f"Bearer {self.token}"
        extra: dict[str, Any] = {} if timeout is None else {"timeout": timeout}
        http = self.client.get_httpx_client()
        while True:
            response = http.request(
                method, path, json=json, params=params, headers=headers, **extra
            )
            if response.status_code not in RETRY_STATUSES:
                break
            time.sleep(_retry_after(response))
        if response.is_success:
            return response.json() if response.content else None
        try:
            problem = response.json()
        except ValueError:
            problem = None
        raise ArenaError(
            response.status_code, problem if isinstance(problem, dict) else None, response.text
        )

    # --- The verbs -----------------------------------------------------------------------

    def register(self, name: str, games: Sequence[str]) -> EntrantCreated:
        """Register an entrant (1–40 printable characters; the games it plays); keep its token
        and id on this `Arena`."""
        body = self._send(
            "POST", "/v1/arena/entrants", json={"name": name, "games": list(games)}, auth=False
        )
        entrant = EntrantCreated.from_dict(body)
        self.token, self.entrant_id = entrant.token, entrant.entrant_id
        return entrant

    def queue(self, kind: str, players: int = 2) -> Ticket:
        """Ask for a seat at a table of `kind` and size `players`, without waiting for it."""
        body = self._send("POST", "/v1/arena/queue", json={"kind": kind, "players": players})
        return Ticket.from_dict(body)

    def status(self, wait: float = 0.0) -> Ticket:
        """Where the entrant stands (`idle`, `waiting`, `seated`); with `wait` a long-poll:
        answered once it is seated, or when `wait` seconds have passed."""
        params = {"wait": _seconds(wait)}
        return Ticket.from_dict(
            self._send("GET", "/v1/arena/queue", params=params, timeout=wait + 15.0)
        )

    def enter(self, kind: str, players: int = 2, wait: float | None = None) -> Seated:
        """Queue for a table of `kind` and size `players`, and wait (long-polling, at most
        `wait` seconds; None: until seated or `stop()`) for the seat: its table, index and
        token. Raises TimeoutError when `wait` passes first (still queued: `leave()`).

        The service frees an entrant once its table has finished; should the ticket still name
        a table this `Arena` gave before (or the queue answer 409 `arena_busy`), this asks again
        every `busy_s` until it is free, then queues."""
        deadline = None if wait is None else time.monotonic() + wait
        ticket = self._queued(kind, players)
        while True:
            seated = self._seat(ticket)
            if seated is not None:
                return seated
            if ticket.status == "idle":  # not queued (a table's set over, a drop): queue
                ticket = self._queued(kind, players)
                if ticket.status == "idle":  # the queue refused it a moment: ask again soon
                    self._stopped.wait(self.busy_s)
                continue
            left = POLL_S if deadline is None else min(POLL_S, deadline - time.monotonic())
            if left <= 0 or self._stopped.is_set():
                raise TimeoutError(f"not seated at a table of {kind} within {wait} s")
            if ticket.status == "seated":  # at a table already played: not yet freed
                self._stopped.wait(min(self.busy_s, left))
                ticket = self.status()
            else:
                ticket = self.status(wait=left)

    def _queued(self, kind: str, players: int) -> Ticket:
        """Queue; already queued elsewhere or seated (409 `arena_busy`), where it stands."""
        try:
            return self.queue(kind, players)
        except ArenaError as refused:
            if refused.status != 409:
                raise
            return self.status()

    def _seat(self, ticket: Ticket) -> Seated | None:
        """The seat a ticket names, unless it is a table this `Arena` already gave."""
        table_id, seat, token = _given(ticket.table_id), _given(ticket.seat), _given(ticket.token)
        if ticket.status != "seated" or table_id is None or table_id in self._played:
            return None
        assert seat is not None and token is not None, ticket
        self._played.add(table_id)
        return Seated(
            table_id=table_id,
            seat=seat,
            token=token,
            kind=_given(ticket.kind) or "",
            players=_given(ticket.players) or 2,
            set_id=_given(ticket.set_id),
        )

    def leave(self) -> None:
        """Leave the queue (a table it sits at plays on: its clock and the house finish it)."""
        self._send("DELETE", "/v1/arena/queue")

    def revoke(self) -> None:
        """Revoke the entrant: it leaves the queue and the leaderboard; its token stops."""
        self._send("DELETE", f"/v1/arena/entrants/{quote(self._id(), safe='')}")
        self.token = None

    def leaderboard(self, kind: str, players: int = 2, limit: int = 50) -> Leaderboard:
        """A pool's leaderboard (needs no token), best first by `ordinal` (mu - 3 sigma)."""
        params = {"kind": kind, "players": players, "limit": limit}
        return Leaderboard.from_dict(
            self._send("GET", "/v1/arena/leaderboard", params=params, auth=False)
        )

    def entrant(self, entrant_id: str) -> EntrantPage:
        """Any entrant's page: its ratings per pool and its recent matches (finished sets)."""
        path = f"/v1/arena/entrants/{quote(entrant_id, safe='')}"
        return EntrantPage.from_dict(self._send("GET", path, auth=False))

    def me(self) -> EntrantPage:
        """This entrant's page: its ratings and recent matches."""
        return self.entrant(self._id())

    def _id(self) -> str:
        if self.entrant_id is None:
            raise ValueError("no entrant id: register, or give `entrant_id`")
        return self.entrant_id

    # --- The loop ------------------------------------------------------------------------

    def play(
        self,
        player: Callable[[Seated], object],
        kind: str,
        players: int = 2,
        tables: int | None = None,
    ) -> int:
        """Enter, hand `player` the seat (it plays the table to its end), enter again: until
        `tables` tables were played (None: no end), `stop()` is called or `player` raises.
        Leaves the queue on the way out; the number of tables played."""
        self._stopped.clear()
        played = 0
        try:
            while not self._stopped.is_set() and (tables is None or played < tables):
                try:
                    seated = self.enter(kind, players, wait=POLL_S)
                except TimeoutError:
                    continue
                player(seated)
                played += 1
        finally:
            if self.token is not None:
                # on the way out: the queue lets a silent entrant go anyway
                with contextlib.suppress(ArenaError, httpx.HTTPError):
                    self.leave()
        return played

    def stop(self) -> None:
        """Stop `play()` (from another thread, or from `player`): after the table in play, or
        within a long-poll when waiting for one."""
        self._stopped.set()


def _given(value: T | Unset | None) -> T | None:
    """A field of a generated model, None when the answer left it out."""
    return None if isinstance(value, Unset) else value


def _seconds(wait: float) -> int:
    """Whole seconds, as the queue's `wait` takes them."""
    return max(0, math.ceil(wait))


def _retry_after(response: httpx.Response) -> float:
    try:
        return min(MAX_RETRY_S, max(0.0, float(response.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0
