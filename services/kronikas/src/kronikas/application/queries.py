"""The reading use cases: a table's view, its events (a page, a long-poll, a stream), the lobby.

While the change feed vouches for a table, following it reads nothing from the store: the feed
brings each append, folded once, and each viewer's JSON is made once per process.

What a read costs (docs/api.md, Rate limits): `read_cost` of the events it carries (a view, one).
A read with a token of the table takes that from the token's bucket, in the read's own script
(read.lua); any other read (no token, a token the table does not know, a table that is not there)
takes it from its client address's read bucket (bucket.lua). Either takes it first from the
address's ceiling (application/ceilings.py), which every request from the address draws from,
in the process, and gives it back when Redis refuses: a charge is still one round trip. A
stream or a long-poll pays for its first page when it opens, and holds one of its token's and
one of its address's places while it is open. `client` is the address the transport names
(api/client.py); None for a caller inside the process (the clocks, tests), which has no address
to charge.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator, Callable

from kronikas.application.access import Access, hash_token, seat_of_role, seated
from kronikas.application.ceilings import Ceilings
from kronikas.application.errors import NotFound, RateLimited, Unauthorized, rate_limited
from kronikas.application.folds import Folds
from kronikas.application.house import deadline_text, now_ms
from kronikas.application.ports import Lobby, RateBuckets, Summary, Waiter
from kronikas.application.tables import Seen, Table, seen_of
from kronikas.application.wire import EVENT_PAGE, Answer, Delivered, page_json, view_json
from kronikas.config import Settings


def delivered(seen: list[Seen], seat: int | None) -> list[Delivered]:
    """Events as `seat` sees them, for a page or a stream."""
    return [Delivered(s.version, s.type, s.json(seat)) for s in seen]


def view_of(table: Table, seat: int | None) -> bytes:
    """The table's view as `seat` (None: the host, a spectator) sees it, at its version."""
    deadline = deadline_text(table.engine, table.state, table.at)
    return view_json(table.engine.view(table.state, seat, table.game_id, table.version, deadline))


READ_COST_EVENTS = 50
"""A read pays one, and one more for every this many events it carries."""


def read_cost(events: int) -> int:
    """What a read carrying `events` events costs: one, and one more per `READ_COST_EVENTS` (a
    view or an empty page 1, a full page of 500 events 11: about what it costs to make, in CPU,
    against a view). Any read of events pays this way,
    the whole record of a table (a later read) included: by the events it carries, a page's worth
    a charge. Well below any bucket's burst (a bucket gives at most its burst at once)."""
    return 1 + max(0, events) // READ_COST_EVENTS


HELD_RETRY_AFTER_S = 5
"""What a stream or long-poll over its cap is told to wait: a place frees when one ends."""


class Holds:
    """The streams and long-polls open in this process, counted per token and per client
    address; one more beyond either cap is 429 `rate_limited`."""

    def __init__(self, per_token: int, per_address: int) -> None:
        self.per_token = per_token
        self.per_address = per_address
        self.open: dict[str, int] = {}

    def hold(self, token: str | None, client: str | None) -> Callable[[], None]:
        """Take a place for `token` (a known token, or None) and `client` (or None); answers
        what gives them back (once, however often it is called)."""
        keys: list[str] = []
        if token:
            key = f"t:{hash_token(token)}"
            if self.open.get(key, 0) >= self.per_token:
                raise self._full("this token")
            keys.append(key)
        if client is not None:
            key = f"a:{client}"
            if self.open.get(key, 0) >= self.per_address:
                raise self._full("this address")
            keys.append(key)
        for key in keys:
            self.open[key] = self.open.get(key, 0) + 1
        released = False

        def release() -> None:
            nonlocal released
            if released:
                return
            released = True
            for key in keys:
                left = self.open[key] - 1
                if left:
                    self.open[key] = left
                else:
                    del self.open[key]

        return release

    @staticmethod
    def _full(whose: str) -> RateLimited:
        return RateLimited(
            f"Too many streams and long-polls open from {whose}; close one, or try again in "
            f"{HELD_RETRY_AFTER_S} s.",
            headers={"Retry-After": str(HELD_RETRY_AFTER_S)},
        )


class Queries:
    """What a seat, the host or a spectator may read; none of it changes a table."""

    def __init__(
        self,
        folds: Folds,
        lobby: Lobby,
        buckets: RateBuckets,
        settings: Settings,
        ceilings: Ceilings | None = None,
    ) -> None:
        self.folds = folds
        self.listing, self.buckets = lobby, buckets
        """The lobby (the port), which `lobby` pages through."""
        self.changes = folds.changes
        self.settings = settings
        self.access = Access(folds)
        self.holds = Holds(settings.streams_per_token, settings.streams_per_address)
        if ceilings is None:
            ceilings = Ceilings(settings.address_per_s, settings.address_burst, now_ms)
        self.ceilings = ceilings
        """Every client address's ceiling in this process (`ADDRESS_LIMIT_PER_S`, `_BURST`)."""

    def ceiling(self, client: str | None, cost: int = 1) -> None:
        """Take `cost` from `client`'s ceiling, which every request from the address takes from
        first, whatever token it carries (429 when short; None: no address, nothing taken). The
        caller gives it back (`Ceilings.give_back`) when the store then refuses the request."""
        wait = self.ceilings.take(client, cost)
        if wait:
            raise rate_limited(wait, address=True)

    async def admit(self, client: str | None, cost: int = 1) -> None:
        """Take `cost` from `client`'s ceiling, then from its read bucket, both or neither (429
        when either is short); None: no address."""
        if client is None:
            return
        self.ceiling(client, cost)
        settings = self.settings
        wait = await self.buckets.take(
            f"read:{client}", settings.read_per_s, settings.read_burst, cost
        )
        if wait:
            self.ceilings.give_back(client, cost)
            raise rate_limited(wait, address=True)

    async def reader(
        self, game_id: str, token: str | None, client: str | None, cost: int = 1
    ) -> tuple[Table, str | None]:
        """`Access.reader`, with the read paid for (`cost`): by its address's ceiling and then
        the token's bucket (in the read) when the table knows the token, else by the client's
        address (`admit`)."""
        if not token:
            await self.admit(client, cost)
            return await self.access.reader(game_id, None)
        self.ceiling(client, cost)
        try:
            return await self.access.reader(game_id, token, cost)
        except RateLimited:  # the token's bucket was short: the ceiling is given back
            self.ceilings.give_back(client, cost)
            raise
        except (Unauthorized, NotFound):  # no bucket was charged: the address pays
            self.ceilings.give_back(client, cost)
            await self.admit(client, cost)
            raise

    def page_cost(self, game_id: str, after: int) -> int:
        """What a page of events after `after` costs (`read_cost`), as far as this process knows
        the table: a full page's when it does not hold it."""
        table = self.folds.cache.get(game_id)
        version = after + EVENT_PAGE if table is None else table.version
        return read_cost(min(EVENT_PAGE, version - after))

    async def view(self, game_id: str, token: str | None, client: str | None = None) -> Answer:
        """The table as the token's holder (or a spectator) sees it now."""
        table, role = await self.reader(game_id, token, client)
        return Answer(view_of(table, seated(table, role)), table.version)

    async def held(
        self, game_id: str, token: str | None, at_least: int = 0
    ) -> tuple[Table, int | None]:
        """The table and the token's seat (None: the host, a spectator) after a call that paid
        and let the token in already (a move, a wait): the table this process holds, read when
        older than `at_least` or when it does not know the token; charges nothing. A token
        that holds no role (any more) is `Unauthorized`."""
        folds = self.folds
        table = await folds.followed(game_id)
        if token is None:
            return table, None
        token_hash = hash_token(token)
        if table.version < at_least or token_hash not in table.roles:
            table = await folds.load(game_id, token_hash, rate=False)
        role = table.roles.get(token_hash)
        if role is None:
            raise Unauthorized("This token is not one of this table's.")
        return table, seated(table, role)

    async def lobby(
        self,
        kind: str | None,
        status: str | None,
        offset: int,
        limit: int,
        client: str | None = None,
    ) -> tuple[list[Summary], bool]:
        """Tables newest first, filtered by kind and status, a page; and whether more follow."""
        await self.admit(client)
        return await self.listing.page(kind, status, offset, limit)

    async def events(
        self, game_id: str, token: str | None, after: int, wait: float, client: str | None = None
    ) -> bytes:
        """Events after `after` that the asker may see, waiting up to `wait` s for the first
        (a long-poll, which holds a place of its token's and its address's while it waits)."""
        deadline = time.monotonic() + wait
        table, role = await self.reader(game_id, token, client, self.page_cost(game_id, after))
        if table.version <= after and wait > 0:
            release = self.holds.hold(token, client)
            try:
                async with self.changes.waiting(game_id, seated(table, role)) as waiter:
                    table = await self.folds.followed(game_id)
                    while table.version <= after:
                        remaining = deadline - time.monotonic()
                        if remaining <= 0 or not await waiter.wait(remaining):
                            break
                        waiter.clear()
                        table = await self.folds.followed(game_id)
            finally:
                release()
        # Redacted for whoever the token is now: the seat may have moved, or been given up.
        delivered, version = await self._after(table, after, seated(table, role))
        more = bool(delivered) and delivered[-1].version < version
        return page_json([d.json for d in delivered], version, more)

    async def _after(
        self, table: Table, after: int, seat: int | None
    ) -> tuple[list[Delivered], int]:
        """A page of events after `after` as `seat` sees them, and the version they were read at:
        from the table's latest events when they reach back that far, else from the store. The
        page ends at the table's version: `seat` is the viewer's seat in that state, and later
        events may have moved it."""
        if after >= table.version:
            return [], table.version
        at_hand = table.recent.after(after, table.version)
        if at_hand is not None:
            return delivered(at_hand[:EVENT_PAGE], seat), table.version
        limit = min(EVENT_PAGE, table.version - after)
        result = await self.folds.log.read(table.game_id, after, "", limit, rate=False)
        records = [self.folds.codec.decode(table.kind, raw) for raw in result.records]
        return delivered(seen_of(table, records), seat), result.version

    async def stream(
        self, game_id: str, token: str | None, after: int, client: str | None = None
    ) -> Following:
        """Checks access now (paying for the first page), and takes a place of the token's and
        the address's; the returned stream follows the table from `after` on, and gives the
        place back when it ends (or is closed)."""
        _, role = await self.reader(game_id, token, client, self.page_cost(game_id, after))
        return Following(self, game_id, role, after, self.holds.hold(token, client))


class Following:
    """One stream's place in a table's events: the events its viewer is owed after `after`, the
    version it was last sent.

    The viewer is a player (its role), never a seat: each delivery is redacted for the seat its
    player holds in the table it is made from, and once its player has left before the start
    (its token lost its seat) nothing more is delivered: `next` raises `Unauthorized`.

    Inside `async with`, it waits on the table's change feed. `next` waits for the events owed;
    `at_hand` gives them at once, without awaiting anything, when the table this process holds
    is vouched for by the change feed and still has them all (a stream served as the change
    comes, from the waiter's `push`). Called, it is an iterator of the events, and of None for a
    keep-alive.
    """

    def __init__(
        self,
        queries: Queries,
        game_id: str,
        role: str | None,
        after: int,
        release: Callable[[], None] | None = None,
    ) -> None:
        self.queries = queries
        self.game_id = game_id
        self.role = role
        """The viewer: a player's role, or None (the host, a spectator)."""
        self.after = after
        self.keepalive = queries.settings.sse_keepalive_s
        self._waiting: contextlib.AbstractAsyncContextManager[Waiter] | None = None
        self.waiter: Waiter | None = None
        self._release = release
        """Gives the stream's place back (`Holds`)."""

    def close(self) -> None:
        """The stream is over: its place is given back (once). Leaving `async with` does it."""
        release, self._release = self._release, None
        if release is not None:
            release()

    async def __aenter__(self) -> Following:
        table = self.queries.folds.cache.get(self.game_id)
        seat = None if table is None else seat_of_role(table, self.role)
        self._waiting = self.queries.changes.waiting(self.game_id, seat)
        self.waiter = await self._waiting.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        waiting, self._waiting, self.waiter = self._waiting, None, None
        self.close()
        if waiting is not None:
            await waiting.__aexit__(None, None, None)

    async def next(self) -> list[Delivered] | None:
        """The events owed (a page) when there are any; else waits for a change: [] once one
        came (perhaps served by `push`, perhaps owing nothing new), None after `keepalive` s
        without one."""
        waiter = self.waiter
        assert waiter is not None, "inside `async with`"
        table = await self.queries.folds.followed(self.game_id)
        seat = waiter.viewer = seated(table, self.role)
        if table.version > self.after:
            delivered, _ = await self.queries._after(table, self.after, seat)
            if delivered:
                return delivered
        changed = await waiter.wait(self.keepalive)
        waiter.clear()
        return [] if changed else None

    async def until(self, last: int) -> list[Delivered]:
        """The events owed after `after` up to `last` (a page at most), as its viewer's seat
        sees them now: what a transport sends before an answer that carries the events after
        `last` (api/socket.py). `Unauthorized` once its player left."""
        table = await self.queries.folds.followed(self.game_id)
        delivered, _ = await self.queries._after(table, self.after, seated(table, self.role))
        return [d for d in delivered if d.version <= last]

    def at_hand(self) -> list[Delivered] | None:
        """The events owed ([] when none), from the table this process holds, when the change
        feed vouches for it and it has them all, a page at most; None otherwise (`next` will
        read them, or find that the viewer lost its seat)."""
        table = self.queries.folds.vouched(self.game_id)
        if table is None:
            return None
        if table.version <= self.after:
            return []
        seen = table.recent.after(self.after, table.version)
        if seen is None or len(seen) > EVENT_PAGE:
            return None
        seat = seat_of_role(table, self.role)
        if seat is None and self.role is not None:
            return None  # its player left: `next` ends the stream
        return delivered(seen, seat)

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
