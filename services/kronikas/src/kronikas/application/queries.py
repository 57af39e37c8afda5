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

import time
from collections.abc import Callable

from kronikas import metrics
from kronikas.application.access import HOST, hash_token, role_of
from kronikas.application.ceilings import Ceilings
from kronikas.application.errors import (
    NotFound,
    RateLimited,
    SetInPlay,
    Unauthorized,
    Unavailable,
    rate_limited,
)
from kronikas.application.folds import Folds
from kronikas.application.house import now_ms
from kronikas.application.ids import table_id
from kronikas.application.ports import ArenaTables, LobbyIndex, RateBuckets
from kronikas.application.session import (
    Move,
    Refuse,
    Session,
    Sight,
    caught_up,
    page_after,
    seat_view,
)
from kronikas.application.tables import Fold
from kronikas.application.wire import EVENT_PAGE, Delivered, page_json
from kronikas.config import Settings

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
        lobby: LobbyIndex,
        buckets: RateBuckets,
        settings: Settings,
        ceilings: Ceilings | None = None,
        arena: ArenaTables | None = None,
    ) -> None:
        self.folds = folds
        self.arena = arena
        self.listing, self.buckets = lobby, buckets
        """The lobby (the port), which `lobby` pages through."""
        self.changes = folds.changes
        self.settings = settings
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
    ) -> tuple[Fold, str | None]:
        """The table and the reader's role: a player's (`p:<player id>`), or None for the host
        and spectators; 401 when the token is not the table's, or its player left before the
        start. The caller looks the seat up in the table it delivers from. The read is paid for
        (`cost`): by its address's ceiling and then the token's bucket (in the read) when the
        table knows the token, else by the client's address (`admit`)."""
        folds = self.folds
        if not token:  # a spectator: no role to learn, no bucket of its own
            await self.admit(client, cost)
            table = await folds.followed(table_id(game_id))
            await self.open_to_all(table)
            return table, None
        self.ceiling(client, cost)
        token_hash = hash_token(token)
        try:
            table = await folds.load(table_id(game_id), token_hash, cost=cost)
            role = role_of(folds.role(table, token_hash))
            if role == HOST:
                await self.open_to_all(table)
                return table, None
            folds.seated_now(table, role)
            return table, role
        except RateLimited:  # the token's bucket was short: the ceiling is given back
            self.ceilings.give_back(client, cost)
            raise
        except (Unauthorized, NotFound):  # no bucket was charged: the address pays
            self.ceilings.give_back(client, cost)
            await self.admit(client, cost)
            raise

    async def open_to_all(self, table: Fold) -> None:
        """409 `set_in_play` for an arena table whose set has not finished: only its seats see
        it until then (nothing of one table of a set is opened to another's players)."""
        arena, deal = self.arena, table.arena
        if deal is not None and arena is not None and not await arena.set_finished(deal.set):
            raise SetInPlay(
                "This table is one of an arena set still in play: only its seats see it "
                "until the whole set has finished."
            )

    def page_cost(self, game_id: str, after: int, most: int = EVENT_PAGE) -> int:
        """What a page of at most `most` events after `after` costs (`read_cost`), as far as this
        process knows the table: a full page's when it does not hold it."""
        return read_cost(self.page_size(game_id, after, most))

    def page_size(self, game_id: str, after: int, most: int) -> int:
        """How many of `most` things a version after `after` a page holds, as far as this
        process knows the table: `most` when it does not hold it."""
        table = self.folds.held(game_id)
        version = after + most if table is None else table.version
        return min(most, version - after)

    async def look(self, game_id: str, token: str | None, client: str | None = None) -> Sight:
        """The table as the token's holder (or a spectator) sees it now: a read, paid."""
        table, role = await self.reader(game_id, token, client)
        return seat_view(table, self.folds.seated_now(table, role))

    async def seen(self, game_id: str, token: str | None, at_least: int = 0) -> Sight:
        """The table as the token's holder (None: a spectator) sees it after a call that paid
        and let the token in already (a move, a wait): from the table this process holds, read
        when older than `at_least` or when it does not know the token; charges nothing. A token
        that holds no role (any more) is `Unauthorized`."""
        table, role = await self._known(game_id, token, at_least)
        return seat_view(table, self.folds.seated_now(table, role))

    async def _known(
        self, game_id: str, token: str | None, at_least: int
    ) -> tuple[Fold, str | None]:
        """The table at `at_least` or later and the token's role there, read without paying
        (`seen`)."""
        folds = self.folds
        table = await folds.followed(table_id(game_id))
        if token is None:
            await self.open_to_all(table)
            return table, None
        token_hash = hash_token(token)
        role = folds.role(table, token_hash)
        if table.version < at_least or role is None:
            table = await folds.load(game_id, token_hash, rate=False)
            role = role_of(folds.role(table, token_hash))
        if role == HOST:
            await self.open_to_all(table)
            return table, None
        return table, role

    async def caught_up(
        self,
        game_id: str,
        token: str | None,
        since: int,
        at_least: int = 0,
        client: str | None = None,
        paid: bool = False,
        most: int = EVENT_PAGE,
    ) -> tuple[Sight, list[Delivered], bool]:
        """The table as the token's holder sees it (at `at_least` or later) and the events after
        `since` it may see, `most` at most, from one table (`session.caught_up`). `paid`: a read
        of a page of events after `since`, paid as `events` pays for what it carries; else after
        a call that paid already, as `seen`, charging nothing."""
        if paid:
            cost = self.page_cost(game_id, since, most)
            table, role = await self.reader(game_id, token, client, cost)
            if table.version < at_least:
                table, role = await self._known(game_id, token, at_least)
        else:
            table, role = await self._known(game_id, token, at_least)
        if table.version < since:
            table = await self._reaching(table, since)
        return await caught_up(self.folds, table, role, since, most)

    async def _reaching(self, table: Fold, since: int) -> Fold:
        """The table read again for a viewer at `since`, past `table`. Its log may hold `since`
        while its replicas have not confirmed it again (as after a failover): an answer from a
        table behind it would send the viewer back over versions it had (`Unavailable`: ask
        again). A log that ends before `since` shrank (a failover lost its tail): its end."""
        table, length = await self.folds.reach(table.game_id, rate=False)
        if table.version < min(since, length):
            raise Unavailable(
                "The store's replicas have not confirmed the table's latest versions again yet; "
                "try again."
            )
        return table

    async def events(
        self,
        game_id: str,
        token: str | None,
        after: int,
        wait: float,
        client: str | None = None,
        most: int = EVENT_PAGE,
    ) -> bytes:
        """Events after `after` that the asker may see, `most` at most, waiting up to `wait` s
        for the first (a long-poll, which holds a place of its token's and its address's while
        it waits)."""
        deadline = time.monotonic() + wait
        folds = self.folds
        cost = self.page_cost(game_id, after, most)
        table, role = await self.reader(game_id, token, client, cost)
        if table.version <= after and wait > 0:
            release = self.holds.hold(token, client)
            try:
                with metrics.open_connection("long_poll"):
                    async with self.changes.waiting(
                        game_id, folds.seated_now(table, role)
                    ) as waiter:
                        table = await folds.followed(game_id)
                        while table.version <= after:
                            remaining = deadline - time.monotonic()
                            if remaining <= 0 or not await waiter.wait(remaining):
                                break
                            waiter.clear()
                            table = await folds.followed(game_id)
            finally:
                release()
        # Redacted for whoever the token is now: the seat may have moved, or been given up.
        delivered, version = await page_after(
            folds, table, after, folds.seated_now(table, role), most
        )
        more = bool(delivered) and delivered[-1].version < version
        return page_json([d.json for d in delivered], version, more)

    async def stream(
        self,
        move: Move,
        refuse: Refuse,
        game_id: str,
        token: str | None,
        after: int,
        client: str | None = None,
    ) -> Session:
        """Checks access now (paying for the first page), and takes a place of the token's and
        the address's; the returned session follows the table from `after` on, and gives the
        place back when it ends (or is closed)."""
        _, role = await self.reader(game_id, token, client, self.page_cost(game_id, after))
        release = self.holds.hold(token, client)
        keepalive = self.settings.sse_keepalive_s
        return Session(
            self.folds, move, refuse, game_id, token, role, after, keepalive, client, release
        )
