"""What the arena keeps in its store (adapters/arena_store.py): its log, its entrants, the seat
tokens it hands to entrants, and which tables and sets are its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class ArenaStore(Protocol):
    async def read_log(self, after: int) -> list[bytes]:
        """The log's events after the first `after`."""
        ...

    async def append(self, expected: int, events: Sequence[bytes]) -> bool:
        """Append all of `events` if the log holds `expected` events, else none (False)."""
        ...

    async def add_entrant(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        """Keep a new entrant and its token's hash."""
        ...

    async def entrant(self, entrant_id: str) -> bytes | None:
        """An entrant's record, if any."""
        ...

    async def entrant_of(self, token_hash: str) -> str | None:
        """The entrant an entrant token's hash belongs to (None: revoked, or none)."""
        ...

    async def revoke(self, entrant_id: str, record: bytes, token_hash: str) -> None:
        """Keep the entrant's record as revoked; its token stops working."""
        ...

    async def keep_seats(self, set_id: str, seats: dict[str, bytes], ttl_s: int) -> None:
        """The seats (table, seat, token) of a set's real entrants, each for its entrant only."""
        ...

    async def seat(self, set_id: str, entrant_id: str) -> bytes | None:
        """An entrant's seat in a set (`keep_seats`)."""
        ...

    async def add_tables(self, table_ids: Sequence[str], set_id: str) -> None:
        """Mark tables as the arena's, of set `set_id`."""
        ...

    async def arena_tables(self, table_ids: Sequence[str]) -> set[str]:
        """Those of `table_ids` that are the arena's."""
        ...

    async def finish_sets(self, set_ids: Sequence[str]) -> None:
        """Mark sets finished (their tables open to everyone)."""
        ...

    async def set_finished(self, set_id: str) -> bool: ...

    async def polled(self, entrant_id: str, now_ms: int) -> None:
        """A waiting entrant asked for its ticket now."""
        ...

    async def last_polls(self) -> dict[str, int]:
        """When each waiting entrant last asked (ms)."""
        ...

    async def forget_polls(self, entrant_ids: Sequence[str]) -> None: ...
