"""The reading use cases: a table's view, its events (a page, a long-poll, a stream), the lobby.

While the change feed vouches for a table, following it reads nothing from the store: the feed
brings each append, folded once, and each viewer's JSON is made once per process.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable

from kronikas.application.encoding import Answer, Delivered, page_json, view_json
from kronikas.application.folds import Folds
from kronikas.application.house import deadline_text
from kronikas.application.ports import Summary
from kronikas.application.results import EVENT_PAGE
from kronikas.application.tables import Table, seen_of
from kronikas.config import Settings


class Queries:
    """What a seat, the host or a spectator may read; none of it changes a table."""

    def __init__(self, folds: Folds, settings: Settings) -> None:
        self.folds = folds
        self.store = folds.store
        self.changes = folds.changes
        self.settings = settings

    async def view(self, game_id: str, token: str | None) -> Answer:
        """The table as the token's holder (or a spectator) sees it now."""
        table, seat = await self.folds.reader(game_id, token)
        deadline = deadline_text(table.engine, table.state, table.at)
        view = table.engine.view(table.state, seat, game_id, table.version, deadline)
        return Answer(view_json(view), table.version)

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables newest first, filtered by kind and status, a page; and whether more follow."""
        return await self.store.lobby(kind, status, offset, limit)

    async def events(self, game_id: str, token: str | None, after: int, wait: float) -> bytes:
        """Events after `after` that the asker may see, waiting up to `wait` s for the first."""
        deadline = time.monotonic() + wait
        table, seat = await self.folds.reader(game_id, token)
        if table.version <= after and wait > 0:
            async with self.changes.waiting(game_id, seat) as waiter:
                table = await self.folds.followed(game_id)
                while table.version <= after:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not await waiter.wait(remaining):
                        break
                    waiter.clear()
                    table = await self.folds.followed(game_id)
        delivered, version = await self._after(table, after, seat)
        more = bool(delivered) and delivered[-1].version < version
        return page_json([d.json for d in delivered], version, more)

    async def _after(
        self, table: Table, after: int, seat: int | None
    ) -> tuple[list[Delivered], int]:
        """A page of events after `after` as `seat` sees them, and the version they were read at:
        from the table's latest events when they reach back that far, else from the store."""
        if after >= table.version:
            return [], table.version
        at_hand = table.recent.after(after, table.version)
        if at_hand is not None:
            page = at_hand[:EVENT_PAGE]
            return [Delivered(s.version, s.type, s.json(seat)) for s in page], table.version
        result = await self.store.read(table.game_id, after, "", EVENT_PAGE, rate=False)
        records = [self.folds.codec.decode(table.kind, raw) for raw in result.records]
        return [Delivered(s.version, s.type, s.json(seat)) for s in seen_of(table, records)], (
            result.version
        )

    async def stream(
        self, game_id: str, token: str | None, after: int
    ) -> Callable[[], AsyncIterator[Delivered | None]]:
        """Checks access now; the returned generator yields events, and None as a keep-alive."""
        _, seat = await self.folds.reader(game_id, token)
        keepalive = self.settings.sse_keepalive_s

        async def events() -> AsyncIterator[Delivered | None]:
            nonlocal after
            async with self.changes.waiting(game_id, seat) as waiter:
                while True:
                    table = await self.folds.followed(game_id)
                    if table.version > after:
                        delivered, _ = await self._after(table, after, seat)
                        for event in delivered:
                            yield event
                            after = event.version
                        continue
                    if not await waiter.wait(keepalive):
                        yield None
                    waiter.clear()

        return events
