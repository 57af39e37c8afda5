"""The ports the use cases need; adapters implement them (Redis, the random source)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

from kronikas.domain.common import Randomness


@dataclass(frozen=True)
class ReadResult:
    """A game's log as one read saw it."""

    version: int
    role: str
    """The caller's role at this table: `"host"`, a seat number, or `""` when unknown."""
    retry_after_ms: int
    records: list[bytes]
    """Encoded events after the requested version, in order."""


@dataclass(frozen=True)
class Idempotency:
    """An idempotency record to check before, and write with, an append."""

    key: str
    """Already scoped: a hash of the token and the client's key."""
    fingerprint: str
    response: bytes


@dataclass(frozen=True)
class AppendResult:
    """What an append did."""

    outcome: Literal["ok", "conflict", "replay", "limited"]
    version: int = 0
    records: list[bytes] = field(default_factory=list)
    """On a conflict: the events after the expected version."""
    replay: bytes = b""
    """On a replay: the recorded `fingerprint \\n response`."""
    retry_after_ms: int = 0


@dataclass(frozen=True)
class Summary:
    """One lobby entry."""

    game_id: str
    kind: str
    status: str
    players: int
    created_ms: int
    version: int


class EventStore(Protocol):
    """A game's events, appended atomically at an expected version."""

    async def read(
        self, game_id: str, after: int, token_hash: str, limit: int, rate: bool = True
    ) -> ReadResult:
        """The version, the token's role and up to `limit` events after `after`."""
        ...

    async def append(
        self,
        game_id: str,
        expected: int,
        records: Sequence[bytes],
        *,
        ttl_s: int,
        token_hash: str = "",
        auth: Sequence[tuple[str, str]] = (),
        summary: Summary,
        idempotency: Idempotency | None = None,
    ) -> AppendResult:
        """Append all of `records` or none, only if the log is at `expected`."""
        ...

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables, newest first, filtered; and whether more follow."""
        ...


class RandomSource(Protocol):
    """Where a table's randomness comes from."""

    def for_table(self, seed: int | None) -> Randomness:
        """A secure source, or a reproducible one for a seeded table."""
        ...
