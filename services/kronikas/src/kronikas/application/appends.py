"""The append every changing use case ends in: decide on the fold, let the house play on, append
at the version decided on, fold the events in and tell the table's followers, then answer; again
on a fresher fold after a lost race.

The followers come first: as soon as the store has the events (before its answer is awaited,
where the store can tell), they are folded in and the table's streams and long-polls woken, the
mover's last (its answer tells it); the mover's answer is made after that. Only an answer that
the append must keep, for a retry with the same `Idempotency-Key`, is made before it."""

from __future__ import annotations

import asyncio
import functools
import itertools
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from kronikas.application.access import seat_in
from kronikas.application.encoding import Answer, version_of
from kronikas.application.errors import (
    InvalidRequest,
    Unavailable,
    VersionMismatch,
    rate_limited,
)
from kronikas.application.folds import Folds
from kronikas.application.house import Turn, deadline_ms
from kronikas.application.ports import ChangeFeed, Idempotency, RandomSource, Summary
from kronikas.application.records import Record, encode, utc_text
from kronikas.application.tables import Seen, Table, keep, seen_of
from kronikas.config import Settings
from kronikas.domain.common import DomainError

_RETRIES = 16


@dataclass
class Step:
    """One command's decision and answer, re-run on a fresher table after a lost race."""

    decide: Callable[[Table], list[msgspec.Struct]]
    respond: Callable[[Table, object, list[Record[msgspec.Struct]], str | None, list[bytes]], bytes]
    """The answer's JSON, from the table, the state after, the records of the events, the
    table's deadline after them and the events' JSON as `viewer` sees them. (It takes those as
    arguments: a closure over the step would make a reference cycle, garbage for the collector
    on every move.)"""
    auth: list[tuple[str, str]] = field(default_factory=list)
    """Token hashes and the roles the append gives them."""
    token_hash: str = ""
    if_match: int | None = None
    idem_key: str | None = None
    fingerprint: str = ""
    mover: str | None = None
    """Whose answer this is: a player's role, or None (the host, a deadline). Its seat is looked
    up in the state each try makes, never kept: seats move down when a player leaves."""
    seen: list[Seen] = field(default_factory=list)
    """The events as the table will keep them, each viewer's JSON made once for the answer and
    the streams of this process."""
    answer: bytes | None = None
    """The answer's JSON, once made."""
    calls: bool = True
    """Whether the seats the house plays may call at once (not when a deadline acts: they
    decided when the play was made)."""
    house_owes: bool = False
    """The house acts even when the decision made no event (a deadline that fell due)."""

    def made(
        self,
        table: Table,
        state: object,
        records: list[Record[msgspec.Struct]],
        deadline: str | None,
    ) -> bytes:
        """The answer, made, with the events' JSON as the mover sees them in `state` (made once
        for the answer and the mover's streams)."""
        seat = seat_in(table.engine, state, self.mover)
        return self.respond(table, state, records, deadline, [s.json(seat) for s in self.seen])


def _ours(after: list[bytes], records: list[bytes]) -> bool:
    """Whether the events after the version an append expected begin with its records (the
    first carries the append's nonce)."""
    return bool(records) and after[: len(records)] == records


class NotDue(Exception):
    """A table's deadline is not due after all (it moved on since the deadline was armed)."""


def _fold_own(
    table: Table,
    before: int,
    state: object,
    folded: list[Record[msgspec.Struct]],
    step: Step,
) -> None:
    """A command's own events into the table, from the state and JSON it made (no decoding);
    nothing once the table moved on (the change feed folded them in already)."""
    if table.version == before:
        table.state, table.version = state, before + len(folded)
        keep(table, folded, step.seen)


class _Stored:
    """Called once the store holds a step's append: its events folded in, the table's tokens
    learnt, and its followers woken, the mover's last. The store calls it where it can tell
    before `execute` resumes; `execute` calls it otherwise, and lets the followers run first."""

    __slots__ = ("changes", "fold", "last", "step", "table", "told", "version")

    def __init__(
        self,
        changes: ChangeFeed,
        table: Table,
        step: Step,
        version: int,
        last: int | None,
        fold: Callable[[], None],
    ) -> None:
        self.changes, self.table, self.step, self.fold = changes, table, step, fold
        self.version = version
        """The table's version after the append."""
        self.last = last
        """The mover's seat after the append: its streams are woken last."""
        self.told = False

    def __call__(self) -> None:
        if self.told:
            return
        self.told = True
        self.fold()
        self.table.roles.update(self.step.auth)
        self.changes.wake(self.table.game_id, self.version, last=self.last)


class Appends:
    """Appends at the version decided on, for every changing use case (`execute`)."""

    def __init__(
        self, folds: Folds, randomness: RandomSource, settings: Settings, now: Callable[[], int]
    ) -> None:
        self.folds = folds
        self.store = folds.store
        self.changes = folds.changes
        self.randomness = randomness
        self.settings = settings
        self.now = now
        # Nonces of appends: random per process, then counted (cheaper than random per append).
        self._nonce_prefix = secrets.token_hex(6)
        self._nonces = itertools.count()

    def ttl(self, status: str) -> int:
        """How long a table in `status` is kept after its latest event."""
        return self.settings.open_ttl_s if status == "open" else self.settings.finished_ttl_s

    def _turn(self, table: Table, events: Sequence[msgspec.Struct], step: Step) -> Turn:
        """`events` folded, followed by the house's moves when it is then to act."""
        turn = Turn(
            table.engine,
            table.game_id,
            table.version,
            table.state,
            table.round,
            self.randomness(table.seed),
            table.seed,
        )
        turn.add(events)
        if (turn.events or step.house_owes) and table.engine.house_seats(turn.state):
            turn.play_house(step.calls, paused=step.house_owes)
        return turn

    def _records(
        self, table: Table, events: Sequence[msgspec.Struct]
    ) -> tuple[list[Record[msgspec.Struct]], list[bytes], str]:
        """The records of `events` (and as stored), and their time."""
        records, at = [], utc_text(self.now())
        nonce = f"{self._nonce_prefix}{next(self._nonces):x}"
        for offset, event in enumerate(events, start=1):
            first = nonce if offset == 1 else None
            records.append(Record(v=table.version + offset, at=at, e=event, n=first))
        return records, [encode(r) for r in records], at

    async def execute(self, table: Table, fresh: bool, step: Step) -> Answer:
        """Decide `step` on `table`, append, and answer; decide again after a lost race."""
        game_id = table.game_id
        for _ in range(_RETRIES):
            if step.if_match is not None and step.if_match != table.version:
                if step.if_match > table.version and not fresh:
                    table, fresh = await self.folds.load(game_id, rate=False), True
                    continue
                return await self._replay_or_raise(
                    table,
                    step,
                    VersionMismatch(
                        f"The table is at version {table.version}, not {step.if_match}."
                    ),
                )
            try:
                turn = self._turn(table, step.decide(table), step)
            except DomainError as refusal:
                if not fresh:
                    table, fresh = await self.folds.load(game_id, rate=False), True
                    continue
                return await self._replay_or_raise(table, step, refusal)
            except NotDue:
                return Answer(b"", table.version)
            state, events = turn.state, turn.events
            if not events:
                return Answer(b"", table.version)  # nothing to do (a deadline not due after all)
            folded, records, at = self._records(table, events)
            due = deadline_ms(table.engine, state, at)
            deadline = None if due is None else utc_text(due)
            status, players = table.engine.standing(state)
            # The version this was decided at, taken before anything awaits: the table is the
            # process's shared fold, which the change feed may move on while we wait.
            before = table.version
            step.seen, step.answer = seen_of(table, folded), None
            idem = None
            if step.idem_key is not None:  # kept with the append: made before it
                step.answer = step.made(table, state, folded, deadline)
                idem = Idempotency(step.idem_key, step.fingerprint, step.answer)
            if due is not None:  # armed first: a crash after the append must not lose it
                await self.store.arm(game_id, due)
            stored = _Stored(
                self.changes,
                table,
                step,
                before + len(records),
                seat_in(table.engine, state, step.mover),
                functools.partial(_fold_own, table, before, state, folded, step),
            )
            self.folds.expect(table, records, stored.fold)
            try:
                result = await self.store.append(
                    game_id,
                    before,
                    records,
                    ttl_s=self.ttl(status),
                    token_hash=step.token_hash,
                    auth=step.auth,
                    idempotency=idem,
                    summary=Summary(game_id, table.kind, status, players, table.created_ms, 0),
                    stored=stored,
                    meanwhile=functools.partial(
                        self._meanwhile, table, state, folded, deadline, step
                    ),
                )
            finally:
                self.folds.expected(game_id, records)
            # A conflict whose events after `before` begin with ours is our append, applied
            # before a lost reply hid its answer: the first record's nonce is ours alone, and
            # whatever was appended after it since does not make it another's. (The Redis store
            # knows it already on its second try; this is for any store that does not.)
            mine = result.outcome == "conflict" and _ours(result.records, records)
            if result.outcome == "ok" or mine:
                if not stored.told:
                    stored()
                    await asyncio.sleep(0)  # the woken streams push before this answer is sent
                if step.answer is None:
                    step.answer = step.made(table, state, folded, deadline)
                return Answer(step.answer, before + len(records) if mine else result.version)
            if result.outcome == "conflict":
                table = await self.folds.after_conflict(table, result.records, result.version)
                fresh = True
                continue
            if result.outcome == "replay":
                return self._replayed(step, result.replay)
            raise rate_limited(result.retry_after_ms)
        raise Unavailable("The table is too busy right now; try again.")

    def _meanwhile(
        self,
        table: Table,
        state: object,
        folded: list[Record[msgspec.Struct]],
        deadline: str | None,
        step: Step,
    ) -> None:
        """What can be made while the store works on the append (it is of no use should the
        append fail): the answer, and the events as each viewer following the table here sees
        them, so that its streams only send them once the store has them."""
        if step.answer is None:
            step.answer = step.made(table, state, folded, deadline)
        for viewer in self.changes.viewers(table.game_id):
            for seen in step.seen:
                seen.json(viewer)

    async def _replay_or_raise(self, table: Table, step: Step, error: Exception) -> Answer:
        if step.idem_key is not None:
            prior = await self.store.idempotent(table.game_id, step.idem_key)
            if prior is not None:
                return self._replayed(step, prior)
        raise error

    @staticmethod
    def _replayed(step: Step, record: bytes) -> Answer:
        fingerprint, _, body = record.partition(b"\n")
        if fingerprint.decode() != step.fingerprint:
            raise InvalidRequest("This Idempotency-Key was used with another body.")
        return Answer(body, version_of(body))
