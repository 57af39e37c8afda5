"""A viewer at a table: the one use case every transport frames.

HTTP (a view, a page of events, a long-poll, a stream, a command), the seat socket and the MCP
tools each open a `Session` (or ask for a `Sight` once) and only frame what it gives: the
viewer's view, made once (`Sight`: its bytes, the seat's legal moves, the deadline, whether
it may act); the changes after a version as the viewer may see them (`next`, `at_hand`,
`until`); a command with its key (`command`); its end when the viewer's player lost its seat
(`Unauthorized` from `next`).

The viewer is a player (its role), never a seat: each delivery is redacted for the seat its
player holds in the table it is made from (seats move down when a player leaves before the
start).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec

from kronikas.application.errors import Unauthorized
from kronikas.application.folds import Folds
from kronikas.application.house import next_deadline
from kronikas.application.ports import Waiter
from kronikas.application.tables import Fold, Seen, player_of_role
from kronikas.application.wire import EVENT_PAGE, Answer, Delivered, view_json
from kronikas_rules.engine import Rules, tag_of
from kronikas_rules.seating import Back, Leave

SEATING = frozenset({tag_of(Leave), tag_of(Back)})
"""The seating commands every game shares: legal for a seat, but not moves of the game."""

BRIEF_LEFT_OUT = frozenset(
    {
        "kind",
        "id",
        "status",
        "version",
        "deadline",
        "legal",
        "options",
        "seeded",
        "last_round",
        "openings",
    }
)
"""What every game's view holds that a brief view leaves out: said beside it by each transport
(the version, the status, the deadline, the legal moves), fixed for the match (the options,
whether it is seeded), past (the last round, which the events that ended it told), or proof of
a fair deal that decides no move (the openings, which the events brought)."""
PLAYER_LEFT_OUT = frozenset({"id", "seat"})
"""What a brief view leaves out of each player: its id, and its seat (its place in the list)."""
BLOCK_LEFT_OUT = frozenset({"commitment", "scheme", "deck_size"})
"""What a brief view leaves out of the game's block: the deal's commitment, its scheme and its
deck's size, which check a fair deal's openings (docs/api.md, Fair deals) and decide no move."""


def _set(values: dict[str, Any], left_out: frozenset[str]) -> dict[str, Any]:
    """`values` less the names in `left_out` and whatever is null, false or empty."""
    return {
        name: value
        for name, value in values.items()
        if name not in left_out and value is not None and value is not False and value != []
    }


@dataclass(frozen=True, slots=True)
class Sight:
    """The table as one viewer sees it at `version`, made once for every transport."""

    game_id: str
    version: int
    seat: int | None
    """The viewer's seat; None for the host and spectators."""
    status: str
    body: bytes
    """The view, as `GET /v1/games/{id}` answers it."""
    deadline: str | None
    """When the clock of the seat the table waits for runs out; None when none runs."""
    legal: Sequence[str]
    """The command types the seat may send now (seating's among them)."""
    kind: str
    _rules: Rules
    _state: object
    """The state the view was made from (a frozen value: later moves do not change it)."""

    @property
    def waited_for(self) -> bool:
        """The table waits for this seat's move (its clock runs)."""
        return self.may_act and self._rules.waiting_for(self._state) == self.seat

    @property
    def may_act(self) -> bool:
        """A move of the game is legal for the seat now (not only leave or come back)."""
        return any(kind not in SEATING for kind in self.legal)

    @property
    def seating(self) -> list[str]:
        """The seating commands the seat may send now (`leave`, `back`)."""
        return [kind for kind in self.legal if kind in SEATING]

    def brief(self) -> dict[str, Any]:
        """The view in short, for a seat that follows the table by its events: the same view
        less what `BRIEF_LEFT_OUT` names and whatever is null, false or empty; each player, and
        the game's block (named by its kind), likewise less what `PLAYER_LEFT_OUT` and
        `BLOCK_LEFT_OUT` name; the seat's own `me` whole."""
        view: dict[str, Any] = msgspec.json.decode(self.body)
        short = _set(view, BRIEF_LEFT_OUT)
        if "players" in short:
            short["players"] = [_set(p, PLAYER_LEFT_OUT) for p in short["players"]]
        if isinstance(block := short.get(self.kind), dict):
            short[self.kind] = _set(block, BLOCK_LEFT_OUT)
        if "me" in view:
            short["me"] = view["me"]
        return short

    def moves(self) -> list[msgspec.Struct]:
        """Every move of the game the seat may send now (no seating command), as the engine
        lists them; none for the host and spectators."""
        if self.seat is None:
            return []
        moves = self._rules.legal_moves(self._state, self.seat)
        return [m for m in moves if tag_of(type(m)) not in SEATING]


def seat_view(table: Fold, seat: int | None) -> Sight:
    """The view of `seat` (None: the host, a spectator) of the table at its version."""
    engine, state = table.engine, table.state
    _, deadline = next_deadline(engine, state, table.at)
    made = engine.view(state, seat, table.game_id, table.version, deadline)
    legal: list[str] | None = getattr(made, "legal", None)  # every game's view lists it
    return Sight(
        game_id=table.game_id,
        version=table.version,
        seat=seat,
        status=made.status,
        body=view_json(made),
        deadline=deadline,
        legal=legal or (),
        kind=table.kind,
        _rules=engine,
        _state=state,
    )


def delivered(seen: list[Seen], seat: int | None) -> list[Delivered]:
    """Events as `seat` sees them, for a page or a stream."""
    return [Delivered(s.version, s.type, s.json(seat)) for s in seen]


async def page_after(
    folds: Folds, table: Fold, after: int, seat: int | None, most: int = EVENT_PAGE
) -> tuple[list[Delivered], int]:
    """A page of events after `after` (`most` at most) as `seat` sees them, and the version
    they were read at (`seen_after`). The page ends at the table's version: `seat` is the
    viewer's seat in that state, and later events may have moved it."""
    seen, version = await seen_after(folds, table, after, most)
    return delivered(seen, seat), version


async def seen_after(
    folds: Folds, table: Fold, after: int, most: int = EVENT_PAGE
) -> tuple[list[Seen], int]:
    """The stored events after `after` (`most` at most), up to the table's version, and the
    version they were read at: from the table's latest events when they reach back that far,
    else from the store."""
    if after >= table.version:
        return [], table.version
    at_hand = folds.recent(table, after)
    if at_hand is not None:
        return at_hand[:most], table.version
    limit = min(most, table.version - after)
    result = await folds.log.read(table.game_id, after, "", limit, rate=False)
    records = [folds.codec.decode(table.kind, raw) for raw in result.records]
    return folds.codec.seen(table, records), result.version


async def caught_up(
    folds: Folds, table: Fold, role: str | None, since: int, most: int = EVENT_PAGE
) -> tuple[Sight, list[Delivered], bool]:
    """The table as the viewer `role` sees it, the events after `since` it may see up to that
    version (a page of `most` at most), and whether more events than the page holds lie
    between: one table, so the view and the events agree."""
    seat = folds.seated_now(table, role)
    delivered, _ = await page_after(folds, table, since, seat, most)
    events = [d for d in delivered if d.version <= table.version]
    more = since < table.version and (not events or events[-1].version < table.version)
    return seat_view(table, seat), events, more


Move = Callable[..., Awaitable[Answer]]
"""Where a session's commands go: `Games.command` (its arguments and answer)."""
Refuse = Callable[[str, str | None, str | None], Awaitable[None]]
"""How a command refused before it reached the table is paid for: `Games.refused`."""


class Session:
    """One viewer's place at a table: the events it is owed after `after`, the version it was
    last sent, and its commands.

    Opened by `Games.stream` (access checked, the first page paid, a place of its token's and
    address's held). Inside `async with`, it waits on the table's change feed: `next` waits for
    the events owed; `at_hand` gives them at once, without awaiting anything, when the table
    this process holds is vouched for by the change feed and still has them all (a stream served
    as the change comes, from the waiter's `push`). Once its player has left before the start
    (its token lost its seat) nothing more is delivered: `next` raises `Unauthorized`. Called,
    it is an iterator of the events, and of None for a keep-alive.
    """

    def __init__(
        self,
        folds: Folds,
        move: Move,
        refuse: Refuse,
        game_id: str,
        token: str | None,
        role: str | None,
        after: int,
        keepalive: float,
        client: str | None = None,
        release: Callable[[], None] | None = None,
    ) -> None:
        self.folds = folds
        self.move, self.refuse = move, refuse
        self.game_id = game_id
        self.token = token
        self.client = client
        self.role = role
        """The viewer: a player's role, or None (the host, a spectator)."""
        self.after = after
        self.keepalive = keepalive
        self._waiting: contextlib.AbstractAsyncContextManager[Waiter] | None = None
        self.waiter: Waiter | None = None
        self._release = release
        """Gives the session's place back (`Holds`)."""

    @property
    def player_id(self) -> str | None:
        """The viewer's player id; None for the host and spectators."""
        return player_of_role(self.role)

    def close(self) -> None:
        """The session is over: its place is given back (once). Leaving `async with` does it."""
        release, self._release = self._release, None
        if release is not None:
            release()

    async def __aenter__(self) -> Session:
        table = self.folds.held(self.game_id)
        seat = None if table is None else self.folds.seat_held(table, self.role)
        self._waiting = self.folds.changes.waiting(self.game_id, seat)
        self.waiter = await self._waiting.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        waiting, self._waiting, self.waiter = self._waiting, None, None
        self.close()
        if waiting is not None:
            await waiting.__aexit__(None, None, None)

    # -- the view ---------------------------------------------------------------------------

    async def view(self, push: Callable[[], bool] | None = None) -> Sight:
        """The table as the viewer sees it now (inside `async with`: nothing after it is
        missed); `push` serves each change as it comes (the waiter's). `Unauthorized` once its
        player left."""
        waiter = self.waiter
        assert waiter is not None, "inside `async with`"
        table = await self._within()
        seat = waiter.viewer = self.folds.seated_now(table, self.role)
        waiter.push = push
        return seat_view(table, seat)

    async def _within(self) -> Fold:
        """The table followed. A viewer past it is told of a shrink by a read of the log's
        length, not by the version shown: past the log's end (it shrank: a failover lost its
        tail) it is owed the events from that end on; within the log (its tail not yet
        confirmed by the replicas again, as after a failover) it waits, sent nothing twice."""
        table = await self.folds.followed(self.game_id)
        if table.version < self.after:
            table, length = await self.folds.reach(self.game_id, rate=False)
            self.after = min(self.after, length)
        return table

    def view_at(self, version: int) -> bytes | None:
        """The view's bytes at `version`, when the table this process holds is at it (else
        None: a later push brings the view)."""
        table = self.folds.held(self.game_id)
        if table is None or table.version != version:
            return None
        return seat_view(table, self.folds.seat_held(table, self.role)).body

    # -- the changes --------------------------------------------------------------------------

    async def next(self) -> list[Delivered] | None:
        """The events owed (a page) when there are any; else waits for a change: [] once one
        came (perhaps served by `push`, perhaps owing nothing new), None after `keepalive` s
        without one."""
        waiter = self.waiter
        assert waiter is not None, "inside `async with`"
        table = await self._within()
        seat = waiter.viewer = self.folds.seated_now(table, self.role)
        if table.version > self.after:
            delivered, _ = await page_after(self.folds, table, self.after, seat)
            if delivered:
                return delivered
        changed = await waiter.wait(self.keepalive)
        waiter.clear()
        return [] if changed else None

    async def until(self, last: int) -> list[Delivered]:
        """The events owed after `after` up to `last` (a page at most), as its viewer's seat
        sees them now: what a transport sends before an answer that carries the events after
        `last`. `Unauthorized` once its player left."""
        table = await self.folds.followed(self.game_id)
        delivered, _ = await page_after(
            self.folds, table, self.after, self.folds.seated_now(table, self.role)
        )
        return [d for d in delivered if d.version <= last]

    def at_hand(self) -> list[Delivered] | None:
        """The events owed ([] when none), from the table this process holds, when the change
        feed vouches for it and it has them all, a page at most; None otherwise (`next` will
        read them, or find that the viewer lost its seat)."""
        found = self.folds.at_hand(self.game_id, self.after, self.role)
        if found is None:
            return None
        seen, seat = found
        if not seen:
            return []
        if len(seen) > EVENT_PAGE:
            return None
        if seat is None and self.role is not None:
            return None  # its player left: `next` ends the session
        return delivered(seen, seat)

    def owed_bytes(self) -> int | None:
        """The bytes of the events owed, when this process has them at hand (0 when it may not
        tell); None when the viewer is behind by more than a page."""
        events = self.at_hand()
        if events is not None:
            return sum(len(event.json) for event in events)
        table = self.folds.held(self.game_id)
        if table is not None and table.version - self.after > EVENT_PAGE:
            return None
        return 0

    def wake(self) -> None:
        """Wake the waiter, as a change would: `next` then reads what is owed."""
        self.folds.changes.wake(self.game_id)

    async def __call__(self) -> AsyncIterator[Delivered | None]:
        async with self:
            while True:
                delivered = await self.next()
                if delivered is None:
                    yield None
                    continue
                for event in delivered:
                    yield event
                    self.after = event.version

    # -- commands -----------------------------------------------------------------------------

    async def command(
        self, command: msgspec.Struct, body: bytes, key: str | None, if_match: int | None
    ) -> Answer:
        """A move by the viewer's seat under the idempotency `key`, as `POST …/commands` makes
        it (`Games.command`): the same answer, the same refusals, paid the same way."""
        if self.token is None:
            raise Unauthorized("This needs a token.")
        return await self.move(
            self.game_id,
            self.token,
            command,
            body,
            if_match=if_match,
            idempotency_key=key,
            client=self.client,
        )

    async def refused(self) -> None:
        """A command refused before it reached the table is paid for too (`Games.refused`)."""
        await self.refuse(self.game_id, self.token, self.client)
