"""The arena (docs/arena.md) in a few lines: register an entrant, wait for a seat, play, again.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It uses only the SDK's own httpx client:

    from kronikas_client import Client
    from kronikas_client.arena import Arena

    arena = Arena(Client(base_url=url))
    arena.register("my-bot", ["cheat"])  # keeps the entrant token: `arena.token`
    seated = arena.enter("cheat")  # waits (long-polls) until a table has a seat for it
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
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

import httpx

from .client import AuthenticatedClient, Client

__all__ = [
    "BUSY_S",
    "POLL_S",
    "Arena",
    "ArenaError",
    "Entrant",
    "EntrantPage",
    "Leaderboard",
    "Match",
    "Rank",
    "Rating",
    "Seated",
    "Ticket",
]

POLL_S = 25.0
"""The longest one long-poll of the queue asks the service to hold (`wait`); `enter` asks again
until its own `wait` has passed."""
BUSY_S = 3.0
"""How often `enter` asks again while the set of a table it played is still in play."""
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
class Entrant:
    """A registered entrant: its `token` (`ke_…`) is shown only this once."""

    entrant_id: str
    name: str
    games: list[str]
    token: str
    created_at: str


@dataclass(frozen=True)
class Ticket:
    """Where the entrant stands in the arena's queue: `idle` (not queued), `waiting` (for a
    `kind` and table size since `since`) or `seated` (at `table_id`, seat `seat`, with the
    seat's `token`)."""

    status: str
    kind: str | None = None
    players: int | None = None
    since: str | None = None
    set_id: str | None = None
    table_id: str | None = None
    seat: int | None = None
    token: str | None = None


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


@dataclass(frozen=True)
class Rating:
    """An entrant's OpenSkill rating in one pool (a game and a table size)."""

    kind: str
    players: int
    mu: float
    sigma: float
    ordinal: float
    matches: int
    last_played: str | None = None


@dataclass(frozen=True)
class Match:
    """One table an entrant played, of a finished set: its place there (1 best)."""

    set_id: str
    table_id: str
    kind: str
    players: int
    seat: int
    position: int
    place: float
    finished_at: str | None = None


@dataclass(frozen=True)
class EntrantPage:
    """An entrant's page: its ratings and its recent matches (of finished sets only)."""

    entrant_id: str
    name: str
    games: list[str]
    standing: bool
    ratings: list[Rating] = field(default_factory=list)
    matches: list[Match] = field(default_factory=list)


@dataclass(frozen=True)
class Rank:
    """One line of a leaderboard, ordered by `ordinal` (mu - 3 sigma)."""

    rank: int
    entrant_id: str
    name: str
    standing: bool
    mu: float
    sigma: float
    ordinal: float
    matches: int
    last_played: str | None = None


@dataclass(frozen=True)
class Leaderboard:
    """A pool's leaderboard, best first."""

    kind: str
    players: int
    entries: list[Rank]


def _pick(cls: type[Any], src: Mapping[str, Any]) -> Any:
    """An instance of the dataclass `cls` from the fields of `src` it knows (a newer service
    may send more)."""
    names = cls.__dataclass_fields__
    return cls(**{k: v for k, v in src.items() if k in names})


def _ratings(src: Any) -> list[Rating]:
    """Ratings as a list, or as a mapping keyed by pool (`"cheat/2"` → rating)."""
    if isinstance(src, Mapping):
        found = []
        for key, value in src.items():
            kind, _, players = str(key).rpartition("/")
            found.append(_pick(Rating, {"kind": kind, "players": int(players or 2), **value}))
        return found
    return [_pick(Rating, r) for r in src or []]


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
        """How often `enter` asks again while a played table's set is in play (`BUSY_S`)."""
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

    def register(self, name: str, games: Sequence[str]) -> Entrant:
        """Register an entrant (1–40 printable characters; the games it plays); keep its token
        and id on this `Arena`."""
        body = self._send(
            "POST", "/v1/arena/entrants", json={"name": name, "games": list(games)}, auth=False
        )
        entrant: Entrant = _pick(Entrant, body)
        self.token, self.entrant_id = entrant.token, entrant.entrant_id
        return entrant

    def queue(self, kind: str, players: int = 2) -> Ticket:
        """Ask for a seat at a table of `kind` and size `players`, without waiting for it."""
        body = self._send("POST", "/v1/arena/queue", json={"kind": kind, "players": players})
        ticket: Ticket = _pick(Ticket, body)
        return ticket

    def status(self, wait: float = 0.0) -> Ticket:
        """Where the entrant stands; with `wait` a long-poll: answered when it is seated or
        `wait` seconds have passed."""
        body = self._send(
            "GET",
            "/v1/arena/queue",
            params={"wait": _seconds(wait)},
            timeout=wait + 15.0,
        )
        ticket: Ticket = _pick(Ticket, body)
        return ticket

    def enter(self, kind: str, players: int = 2, wait: float | None = None) -> Seated:
        """Queue for a table of `kind` and size `players`, and wait (long-polling, at most
        `wait` seconds; None: until seated or `stop()`) for the seat: its table, index and
        token. Raises TimeoutError when `wait` passes first (still queued: `leave()`).

        An entrant is seated until its whole set has finished: after a table it played, this
        asks again every `busy_s` until the set is over, then queues."""
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
            if ticket.status == "seated":  # at a table already played: its set plays on
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
        if ticket.status != "seated" or ticket.table_id in self._played:
            return None
        assert ticket.table_id is not None and ticket.seat is not None and ticket.token
        self._played.add(ticket.table_id)
        return Seated(
            table_id=ticket.table_id,
            seat=ticket.seat,
            token=ticket.token,
            kind=ticket.kind or "",
            players=ticket.players or 2,
            set_id=ticket.set_id,
        )

    def leave(self) -> None:
        """Leave the queue (a table it sits at plays on: its clock and the house finish it)."""
        self._send("DELETE", "/v1/arena/queue")

    def revoke(self) -> None:
        """Revoke the entrant: it leaves the queue and the leaderboard; its token stops."""
        self._send("DELETE", f"/v1/arena/entrants/{quote(self._id(), safe='')}")
        self.token = None

    def leaderboard(self, kind: str, players: int = 2, limit: int = 50) -> Leaderboard:
        """A pool's leaderboard (needs no token), best first."""
        body = self._send(
            "GET",
            "/v1/arena/leaderboard",
            params={"kind": kind, "players": players, "limit": limit},
            auth=False,
        )
        entries = [_pick(Rank, e) for e in body.get("entries", [])]
        return Leaderboard(kind=body["kind"], players=body["players"], entries=entries)

    def entrant(self, entrant_id: str) -> EntrantPage:
        """Any entrant's page: its ratings and recent matches."""
        body = self._send("GET", f"/v1/arena/entrants/{quote(entrant_id, safe='')}", auth=False)
        page: EntrantPage = _pick(EntrantPage, body)
        return EntrantPage(
            entrant_id=page.entrant_id,
            name=page.name,
            games=page.games,
            standing=page.standing,
            ratings=_ratings(body.get("ratings")),
            matches=[_pick(Match, m) for m in body.get("matches") or []],
        )

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
        """Stop `play` (from another thread, or from `player`): after the table in play, or
        within a long-poll when waiting for one."""
        self._stopped.set()


def _seconds(wait: float) -> int:
    """Whole seconds, as the queue's `wait` takes them."""
    return max(0, math.ceil(wait))


def _retry_after(response: httpx.Response) -> float:
    try:
        return min(MAX_RETRY_S, max(0.0, float(response.headers.get("Retry-After", "1"))))
    except ValueError:
        return 1.0
