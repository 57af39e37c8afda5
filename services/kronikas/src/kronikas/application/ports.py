"""The ports the use cases need; adapters implement them (Redis, the random source)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Literal, NamedTuple, Protocol

from kronikas.application.deals import ArenaDeal
from kronikas_rules.common import Randomness


@dataclass(frozen=True)
class ReadResult:
    """A game's log as one read saw it."""

    version: int
    role: str
    """The caller's role at this table: `"host"`, a seat number, or `""` when unknown."""
    retry_after_ms: int
    records: list[bytes]
    """Encoded events after the requested version, in order."""
    stored: int | None = None
    """How many events the log holds, when the read stopped short of them (`WRITE_REPLICAS`: a
    tail its replicas have not confirmed); None when it reached its end."""

    @property
    def length(self) -> int:
        """How many events the log holds (its real end, whatever the read showed of it)."""
        return self.version if self.stored is None else self.stored


@dataclass(frozen=True)
class AppendResult:
    """What an append did."""

    outcome: Literal["ok", "conflict", "limited"]
    version: int = 0
    records: list[bytes] = field(default_factory=list)
    """On a conflict: the events after the expected version."""
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
    seeded: bool = False
    """Whether the table deals from a seed its creator gave (its view's `seeded`)."""


class AppendProgress(Protocol):
    """Told how an append goes, where the store can tell before its caller resumes."""

    def meanwhile(self) -> None:
        """Called once while the store works on the append (once it is on its way, where the
        store can tell): what can be made meanwhile."""
        ...

    def stored(self) -> None:
        """Called once when the append is made and the store can tell before its caller
        resumes (the Redis log on its own line reads the reply), so that its followers are told
        before the caller answers; otherwise the caller tells them."""
        ...


class AppendRequest(NamedTuple):
    """An append: all of `records` or none, only if the log is at `expected`."""

    game_id: str
    expected: int
    records: Sequence[bytes]
    summary: Summary
    """The table's lobby entry after the append (a first append lists the table)."""
    ttl_s: int
    """How long the table's keys live after it."""
    token_hash: str = ""
    """The token that pays for it from its bucket at the table ("": none pays)."""
    auth: Sequence[tuple[str, str]] = ()
    """Token hashes and the roles the append gives them."""
    progress: AppendProgress | None = None


class EventLog(Protocol):
    """A game's events, appended atomically at an expected version; each token's reads and
    appends at a table paid for from its bucket there, in the same step."""

    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        """The version, the token's role and up to `limit` events after `after`. With `rate`, a
        token the table knows takes `cost` from its bucket (`retry_after_ms` when it is short);
        an unknown token has no bucket and takes nothing (the caller charges its client's
        address)."""
        ...

    async def append(self, request: AppendRequest) -> AppendResult:
        """Append the request's records or none (`AppendRequest`), telling its `progress`."""
        ...


class LobbyIndex(Protocol):
    """The tables listed, newest first (a table's first append lists it)."""

    async def page(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables, newest first, filtered; and whether more follow."""
        ...

    async def register(self, game_id: str, created_ms: int) -> None:
        """List a new table its first append did not list."""
        ...


class RateBuckets(Protocol):
    """Token buckets by key, for what no table's token pays: addresses, a table's host."""

    async def take(self, key: str, rate_per_s: float, burst: int, n: int = 1) -> int:
        """Take `n` from a rate bucket (a bucket gives at most its `burst` at once: a request
        dearer than that waits for a full one): 0 when taken, else milliseconds to wait."""
        ...


class StoredAnswers(Protocol):
    """Answers made again for replayed idempotency keys, kept for the retries after them."""

    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        """The answer kept for a replayed idempotency key (`keep_answer`), if any."""
        ...

    async def keep_answer(self, game_id: str, key: str, answer: bytes, ttl_s: int) -> None:
        """Keep the answer made again for a replayed idempotency key for `ttl_s` (the rest of
        its day), so that further retries cost one read, not a read of the whole log."""
        ...


class Deadlines(Protocol):
    """The tables' deadlines: one index of every table's earliest deadline (epoch ms), kept at
    or before the true one, so a deadline may wake its table early (it is then put off) but
    never late. Each process takes the due ones, on lease, and settles each with the next."""

    async def arm(self, game_id: str, due_ms: int) -> None:
        """Wake the table at `due_ms` at the latest (an earlier deadline stays)."""
        ...

    async def due(self, now_ms: int, lease_ms: int, limit: int) -> tuple[int, list[str]]:
        """Up to `limit` tables whose deadline is `now_ms` or before, leased to the caller until
        `now_ms + lease_ms` (no other process takes them before); and that lease's end."""
        ...

    async def settle(self, game_id: str, lease: int, due_ms: int | None) -> None:
        """After acting on a leased table: its next deadline (None when it has none). Should a
        deadline have been armed meanwhile, the earlier of the two stays."""
        ...


@dataclass
class Stores:
    """The store's ports, as the app factory hands them to the use cases (one object may
    implement several): each use case takes those it uses."""

    log: EventLog
    lobby: LobbyIndex
    buckets: RateBuckets
    answers: StoredAnswers
    deadlines: Deadlines


class Waiter(Protocol):
    """Registered before a read, so that a change between the read and the wait counts."""

    viewer: int | None
    """Whose changes it waits for: a seat, or None for the host and spectators."""
    push: Callable[[], bool] | None
    """Called on a change while a wait is on, as the change comes (nothing may await there):
    True when it served the change itself, and the wait goes on (from its start again); False
    ends the wait as the change would."""

    async def wait(self, timeout: float) -> bool:
        """Whether the table changed within `timeout` seconds (and since the last `clear`)."""
        ...

    def clear(self) -> None:
        """Forget the changes seen so far."""
        ...


Appended = Callable[[str, int, list[bytes]], None]
"""Told of an append another request made (perhaps in another process): the table, its version
after the append, and the appended records (empty when only the version was heard)."""


class ChangeFeed(Protocol):
    """Wakes whoever waits on a table when its log grows, and says what was appended."""

    def waiting(
        self, game_id: str, viewer: int | None = None
    ) -> AbstractAsyncContextManager[Waiter]:
        """A waiter for changes of `game_id` that `viewer` (a seat, or None) is shown, for the
        duration of the block.

        Changes made after the block is entered wake it: read the table inside the block.
        """
        ...

    def listen(self, appended: Appended) -> None:
        """Hand every append heard on a table waited on to `appended`, before waking."""
        ...

    def generation(self, game_id: str) -> int | None:
        """An id of the table's current unbroken feed, None while there is none.

        A fold read after the feed began, and kept up with `appended` since, misses nothing as
        long as the generation stays the same.
        """
        ...

    def viewers(self, game_id: str) -> set[int | None]:
        """Whom this process's waiters of a table wait for: seats, and None (spectators)."""
        ...

    def wake(self, game_id: str, version: int | None = None, last: int | None = None) -> None:
        """Wake this process's waiters of a table, after an append made here brought it to
        `version`; the waiters of seat `last` (the mover, whose answer tells it) after the
        others. An append heard later at that version or before wakes nobody again."""
        ...


class ArenaTables(Protocol):
    """Which tables are the arena's and whether their set finished (adapters/arena_store.py):
    an arena table is out of the lobby, and closed to spectators until its set finished."""

    async def arena_tables(self, table_ids: Sequence[str]) -> set[str]:
        """Those of `table_ids` that are the arena's."""
        ...

    async def set_finished(self, set_id: str) -> bool:
        """Whether the set finished (its tables are open to everyone)."""
        ...


class RandomSource(Protocol):
    """Where a table's shuffles come from, from its first record: a secure source, a
    reproducible one for its `seed`, or at an arena table (`arena`) its set's shared deal."""

    def __call__(self, seed: int | None, arena: ArenaDeal | None = None, /) -> Randomness: ...
