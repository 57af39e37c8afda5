"""The use cases of the HTTP API, in one place for the API layer: changes and reads apart."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from kronikas.application.clocks import Clocks
from kronikas.application.commands import Commands
from kronikas.application.encoding import Answer, Delivered
from kronikas.application.folds import Folds
from kronikas.application.house import now_ms
from kronikas.application.ports import ChangeFeed, EventStore, RandomSource, Summary
from kronikas.application.queries import Following, Queries
from kronikas.config import Settings

__all__ = ["Answer", "Delivered", "Games"]


class Games:
    """Every use case: `commands` change tables, `queries` read them; both share one cache of
    folds, kept current by the change feed. Stateless but for that cache."""

    def __init__(
        self,
        store: EventStore,
        changes: ChangeFeed,
        randomness: RandomSource,
        settings: Settings,
        now: Callable[[], int] = now_ms,
    ) -> None:
        self.store = store
        self.settings = settings
        self.folds = Folds(store, changes)
        self.commands = Commands(self.folds, randomness, settings, now)
        self.queries = Queries(self.folds, settings)
        self.clocks = Clocks(self.commands, store, now)

    def run_clocks(self) -> None:
        """Start acting on due deadlines (the turn clocks) in this process."""
        self.clocks.start()

    async def stop_clocks(self) -> None:
        await self.clocks.stop()

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        await self.commands.admit(client)

    async def create(self, kind: str, options: msgspec.Struct, seed: int | None) -> bytes:
        """A new open table; answers `Created` with the host token."""
        return await self.commands.create(kind, options, seed)

    async def join(self, game_id: str, name: str) -> bytes:
        """Take the next free seat; answers `Joined` with the player's token."""
        return await self.commands.join(game_id, name)

    async def seat_house(self, game_id: str, token: str, name: str) -> bytes:
        """The host seats a house player."""
        return await self.commands.seat_house(game_id, token, name)

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round."""
        return await self.commands.start(game_id, token)

    async def command(
        self,
        game_id: str,
        token: str,
        command: msgspec.Struct,
        body: bytes,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Answer:
        """One move by the seat the token holds."""
        return await self.commands.command(
            game_id, token, command, body, if_match=if_match, idempotency_key=idempotency_key
        )

    async def view(self, game_id: str, token: str | None) -> Answer:
        """The table as the token's holder (or a spectator) sees it now."""
        return await self.queries.view(game_id, token)

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables newest first, filtered by kind and status, a page; and whether more follow."""
        return await self.queries.lobby(kind, status, offset, limit)

    async def events(self, game_id: str, token: str | None, after: int, wait: float) -> bytes:
        """Events after `after` that the asker may see, waiting up to `wait` s for the first."""
        return await self.queries.events(game_id, token, after, wait)

    async def stream(self, game_id: str, token: str | None, after: int) -> Following:
        """Checks access now; the returned stream follows the table from `after` on (called,
        it yields events, and None as a keep-alive)."""
        return await self.queries.stream(game_id, token, after)
