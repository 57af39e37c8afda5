"""The use cases of the HTTP API, in one place for the API layer: changes and reads apart.

Here too each request pays for itself, whatever transport brought it (docs/api.md, Rate limits),
and each first takes from its client address's ceiling (application/ceilings.py), in the
process, given back when Redis then refuses: a command takes one from its token's bucket,
accepted (in the append's own script) or refused (after the refusal: nothing else is spent on
the accepted path); a start takes one from the host token's; a request whose token the table
does not know, or that names no table, takes one from its client address's read bucket.
`client` is the address the transport names (api/client.py); None for a caller inside the
process (the clocks, tests), which has no address to charge.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import msgspec

from kronikas import metrics
from kronikas.application import accounts
from kronikas.application.access import hash_token
from kronikas.application.ceilings import Ceilings
from kronikas.application.clocks import Clocks
from kronikas.application.commands import Commands, Move
from kronikas.application.deals import ArenaDeal
from kronikas.application.engines import Registry
from kronikas.application.errors import (
    ApiError,
    Forbidden,
    InvalidRequest,
    NotFound,
    RateLimited,
    Unauthorized,
    VersionMismatch,
    rate_limited,
)
from kronikas.application.folds import Folds
from kronikas.application.house import now_ms
from kronikas.application.ids import is_table_id
from kronikas.application.ports import (
    ArenaTables,
    ChangeFeed,
    RandomSource,
    Stores,
    Summary,
)
from kronikas.application.queries import Queries
from kronikas.application.records import Records
from kronikas.application.session import Session, Sight
from kronikas.application.wire import EVENT_PAGE, Answer, Delivered
from kronikas.config import Settings
from kronikas_rules.common import DomainError, Refusal

__all__ = ["Answer", "Delivered", "Games", "Session", "Sight"]

REFUSED = (DomainError, VersionMismatch, InvalidRequest, Forbidden)
"""A command refused by a token the table knows (409, 412, 422, 403): its token pays."""


class Games:
    """Every use case: `commands` change tables, `queries` read them; both share one cache of
    folds, kept current by the change feed. Stateless but for that cache. `engines`: the games
    it runs (the app factory's registry), which every use case reaches through the folds."""

    def __init__(
        self,
        stores: Stores,
        changes: ChangeFeed,
        randomness: RandomSource,
        settings: Settings,
        engines: Registry,
        now: Callable[[], int] = now_ms,
        *,
        arena: ArenaTables | None = None,
    ) -> None:
        self.stores = stores
        self.arena = arena
        """The arena's tables (out of the lobby; closed until their set finished), if any."""
        self.settings = settings
        self.engines = engines
        self.folds = Folds(stores.log, changes, engines)
        ceilings = Ceilings(settings.address_per_s, settings.address_burst, now)
        self.commands = Commands(self.folds, stores, randomness, settings, now, ceilings)
        self.queries = Queries(
            self.folds, stores.lobby, stores.buckets, settings, ceilings, arena=arena
        )
        self.clocks = Clocks(self.commands, stores.deadlines, now)
        self.records = Records(self.queries)

    def run_clocks(self) -> None:
        """Start acting on due deadlines (the turn clocks) in this process."""
        self.clocks.start()

    async def stop_clocks(self) -> None:
        await self.clocks.stop()

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        await self.commands.admit(client)

    async def create(
        self,
        kind: str,
        options: msgspec.Struct,
        seed: int | None,
        arena: ArenaDeal | None = None,
        game_id: str | None = None,
    ) -> bytes:
        """A new open table; answers `Created` with the host token (`arena`: a table of an
        arena's set, dealing from its secret, its id `game_id` chosen before)."""
        return await self.commands.create(kind, options, seed, arena, game_id)

    async def join(self, game_id: str, name: str, arena: bool = False) -> bytes:
        """Take the next free seat; answers `Joined` with the player's token (an arena table:
        only when the arena seats it, `arena`)."""
        return await self.commands.join(game_id, name, arena)

    async def seat_house(self, game_id: str, token: str, name: str) -> bytes:
        """The host seats a house player."""
        return await self.commands.seat_house(game_id, token, name)

    async def start(self, game_id: str, token: str, client: str | None = None) -> Answer:
        """The host deals the first round (one from the host token's bucket, first)."""
        await self.charge(game_id, token, client)
        return await self.commands.start(game_id, token)

    async def command(
        self,
        game_id: str,
        token: str,
        command: msgspec.Struct,
        body: bytes,
        if_match: int | None = None,
        idempotency_key: str | None = None,
        client: str | None = None,
    ) -> Answer:
        """One move by the seat the token holds (`Commands.seat_move`). Accepted, it paid with
        its append (its address's ceiling, then its token in the append); refused, it is paid
        for now (`_refused`). Either way it is counted once, under the game of the table the
        use case found (`Move.kind`)."""
        move = Move(command, body, if_match, idempotency_key, client)
        try:
            answer = await self.commands.seat_move(game_id, token, move)
        except Refusal as refusal:
            await self._refused(refusal, game_id, token, move)
        metrics.moved(move.kind or "none")
        return answer

    async def _refused(self, refusal: Refusal, game_id: str, token: str, move: Move) -> NoReturn:
        """A refused move paid for (`refused`): by its token when the table knows it
        (`REFUSED`), by its address when not (401, 404); a limit, or the store away, pays
        nothing more. Counted with the code it is answered with (a rate limit's, when it could
        not be paid), then raised."""
        try:
            if isinstance(refusal, Unauthorized | NotFound):
                await self.refused(game_id, None, move.client)
            elif isinstance(refusal, REFUSED):
                await self.refused(game_id, token, move.client)
        except Refusal as limit:
            metrics.move_refused(move.kind or "none", limit.code)
            raise
        metrics.move_refused(move.kind or "none", refusal.code)
        raise refusal

    async def charge(self, game_id: str, token: str | None, client: str | None) -> None:
        """Take one request from its address's ceiling and the token's bucket at the table, or
        from the client address's ceiling and read bucket when there is no token, no such table,
        or the table does not know the token; 429 when one is short (then neither is taken)."""
        if token and is_table_id(game_id):
            queries = self.queries
            queries.ceiling(client)
            read = await self.stores.log.read(game_id, 0, hash_token(token), 0)
            if read.role and not read.retry_after_ms:
                return
            queries.ceilings.give_back(client)
            if read.retry_after_ms:
                raise rate_limited(read.retry_after_ms)
        await self.queries.admit(client)

    async def refused(self, game_id: str, token: str | None, client: str | None) -> None:
        """A refused command's payment (`charge`): a 429 when it cannot be paid, else nothing,
        and the refusal stands (as it does should the store not answer: it was decided)."""
        try:
            await self.charge(game_id, token, client)
        except RateLimited:
            raise
        except ApiError:
            pass

    async def view(self, game_id: str, token: str | None, client: str | None = None) -> Answer:
        """The table as the token's holder (or a spectator) sees it now."""
        seen = await self.queries.look(game_id, token, client)
        return Answer(seen.body, seen.version)

    async def look(self, game_id: str, token: str | None, client: str | None = None) -> Sight:
        """The table as the token's holder (or a spectator) sees it now, with its legal moves
        and deadline: a read, paid as `view`."""
        return await self.queries.look(game_id, token, client)

    async def seen(self, game_id: str, token: str | None, at_least: int = 0) -> Sight:
        """The table as the token's holder sees it after a call that paid already
        (`Queries.seen`): at `at_least` or later."""
        return await self.queries.seen(game_id, token, at_least)

    async def caught_up(
        self, game_id: str, token: str | None, since: int, at_least: int = 0
    ) -> tuple[Sight, list[Delivered], bool]:
        """The table as the token's holder sees it after a call that paid already (at
        `at_least` or later), the events after `since` it may see, from one table, and whether
        more lie between (`Queries.caught_up`): what a seat that follows the table by its
        events reads after a move or a wait."""
        return await self.queries.caught_up(game_id, token, since, at_least)

    async def read_since(
        self,
        game_id: str,
        token: str | None,
        since: int,
        client: str | None,
        most: int = EVENT_PAGE,
    ) -> tuple[Sight, list[Delivered], bool]:
        """The same as `caught_up`, as a read of a page of at most `most` events after `since`,
        paid as `events` pays for such a page."""
        return await self.queries.caught_up(
            game_id, token, since, client=client, paid=True, most=most
        )

    async def read_paid(self, client: str | None) -> None:
        """Take one read from `client`'s ceiling and read bucket (429 when either is short): a
        call that names no table pays this way."""
        await self.queries.admit(client)

    async def lobby(
        self,
        kind: str | None,
        status: str | None,
        offset: int,
        limit: int,
        client: str | None = None,
    ) -> tuple[list[Summary], bool]:
        """Tables newest first, filtered by kind and status, a page; and whether more follow
        (a read, paid by `client`'s address)."""
        await self.queries.admit(client)
        found, more = await self.queries.listing.page(kind, status, offset, limit)
        if self.arena is not None and found:  # the arena's tables are not in the lobby
            hidden = await self.arena.arena_tables([s.game_id for s in found])
            found = [s for s in found if s.game_id not in hidden]
        return found, more

    async def events(
        self,
        game_id: str,
        token: str | None,
        after: int,
        wait: float,
        client: str | None = None,
        most: int = EVENT_PAGE,
    ) -> bytes:
        """Events after `after` that the asker may see (`most` at most: a page costs what it
        carries), waiting up to `wait` s for the first."""
        return await self.queries.events(game_id, token, after, wait, client, most)

    async def record(
        self, game_id: str, token: str | None, after: int, limit: int, client: str | None = None
    ) -> bytes:
        """A page of the table's record after `after`: the table, its events and their
        openings as the asker may see them (`GameRecord`), paid as an events page."""
        return await self.records.record(game_id, token, after, limit, client)

    async def account(
        self, game_id: str, token: str | None, after: int, limit: int, client: str | None = None
    ) -> accounts.Account:
        """The same page as `record`, told in words by the table's game (`Engine.account`) to
        the asker: what `Accept: text/plain` on the record and the MCP tool `record` answer."""
        return await accounts.account(self.queries, game_id, token, after, limit, client)

    async def past_views(
        self, game_id: str, token: str | None, after: int, limit: int, client: str | None = None
    ) -> bytes:
        """The views the asker was served at the versions after `after`, `limit` at most
        (`PastViews`), paid as that many views."""
        return await self.records.views(game_id, token, after, limit, client)

    async def stream(
        self, game_id: str, token: str | None, after: int, client: str | None = None
    ) -> Session:
        """A viewer's session at the table: access checked now; it follows the table from
        `after` on (called, it yields events, and None as a keep-alive) and takes the viewer's
        commands, holding a place of its token's and its address's until it ends
        (`Session.close`)."""
        return await self.queries.stream(self.command, self.refused, game_id, token, after, client)
