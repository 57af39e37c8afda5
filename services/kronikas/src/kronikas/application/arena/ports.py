"""What the arena keeps in its store (adapters/arena_store.py): its log, its entrants, the seat
tokens it hands to entrants, and which tables and sets are its own."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, Protocol


class LogRead(NamedTuple):
    """The arena's log after a version: its events, and the snapshot at `base` first when the
    version asked for lies before the log's trimmed head (`snapshot` None otherwise)."""

    base: int
    """How many events were trimmed from the log's head (the snapshot's version)."""
    snapshot: bytes | None
    records: list[bytes]


class ArenaStore(Protocol):
    async def read_log(self, after: int) -> LogRead:
        """The log's events after the first `after` (with the snapshot, when trimmed)."""
        ...

    async def log_length(self) -> int:
        """How many events the log holds now past its trimmed head: it changes with every
        append and every trim (the cheapest look at whether anything happened)."""
        ...

    async def compact(self, version: int, snapshot: bytes) -> bool:
        """Keep `snapshot`, the fold at `version`, and trim the log's events up to it (none
        when a newer snapshot is kept already)."""
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

    async def entrants(self, entrant_ids: Sequence[str]) -> list[bytes | None]:
        """Entrants' records, in order (None for none)."""
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

    async def keep_results(self, results: dict[str, bytes]) -> None:
        """Keep finished sets' results (`SetRated`), by set."""
        ...

    async def result(self, set_id: str) -> bytes | None:
        """A finished set's result, if any."""
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
