"""The append every change ends in (`Commands.change` tells the story), and what makes it fast.

A change is a value (`Change`): how to decide it on a table, how to answer it (from a `Made`),
and what its append carries besides. Decided, it goes to the store as a `Pending`, made in full
before the append is sent. The tricks of the push path (docs/performance.md, Tables followed
by push) are the `Pending`'s and the `Appends`':

- the answer is made while the store works on the append (`Pending.meanwhile`); nothing more is
  stored with a keyed move (the key's record is the append's first event: `Folds.accepted`), and
  nothing kept in memory: a retry with the same `Idempotency-Key` is answered from the table this
  process holds while that append is its latest (made again from the state after it and its
  events at hand), else from the answer the store keeps for the key, else made again once from
  the log and kept there; an answer made again is kept in memory (`Kept`, bounded) for the
  retries after it (`Appends.replayed`). Keeping every keyed move's answer cost the seat socket,
  whose every command is keyed, 5–6% of a move (docs/performance.md);
- the followers come first: as soon as the store has the events (before its answer is awaited,
  where the store can tell), they are folded into the table from the state the decision made,
  without decoding them (`Pending.tell`, `Folds.advance`), and its streams and long-polls
  woken, the mover's last; should the change feed bring the append before its answer does,
  the repository folds it in the same way (`Folds.expect`);
- the store writes the append on its own pipelined line (adapters/script_line.py).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import secrets
from collections import OrderedDict
from collections.abc import Callable
from typing import NamedTuple

import msgspec

from kronikas.application.ceilings import Ceilings
from kronikas.application.errors import InvalidRequest, OutcomeUnknown, Unavailable, rate_limited
from kronikas.application.folds import Folds
from kronikas.application.house import next_deadline, now_ms
from kronikas.application.ports import AppendRequest, AppendResult, Stores, Summary
from kronikas.application.tables import (
    KEY_TTL_MS,
    Accepted,
    Appended,
    Fold,
    Seen,
    key_mark,
    seat_in,
)
from kronikas.application.wire import Answer, Record, encode, utc_text, version_of
from kronikas.config import Settings

KEPT_ANSWERS = 4096
"""How many answers to keyed changes a process keeps in memory for their retries (`Kept`)."""
KEPT_BYTES = 16 * 1024 * 1024
"""How many bytes of such answers it keeps at most, all together."""


class Made(NamedTuple):
    """What a change's answer is made from."""

    table: Fold
    """The table it was decided on, or (an answer made again) one after it: its game and rules."""
    state: object
    """The state after the change's events."""
    records: list[Record[msgspec.Struct]]
    """The change's events, as stored."""
    deadline: str | None
    """The table's next deadline after them (the view's `deadline`)."""
    seat: int | None
    """The mover's seat in `state` (None: no seat, or its player left)."""
    events: list[bytes]
    """The events' JSON as the mover (`seat`) sees them, made once for the answer and the
    mover's streams."""

    @property
    def version(self) -> int:
        """The table's version after the change."""
        return self.records[-1].v


class Change(NamedTuple):
    """A change a use case asks for (a move, a join, a start, a deadline's), as one value."""

    decide: Callable[[Fold], list[msgspec.Struct]]
    """Its events, decided on a table (again on a fresher one after a lost race)."""
    answer: Callable[[Made], bytes]
    """Its answer's JSON. (A function of `Made`, closing over nothing that holds it: a cycle
    would be garbage for the collector on every move.)"""
    mover: str | None = None
    """Whose answer it is: a player's role, or None (the host, a deadline). Its seat is looked
    up in the state each try makes: seats move down when a player leaves."""
    token_hash: str = ""
    """The token that pays for the append (its rate bucket), when there is one."""
    client: str | None = None
    """The client address of the token that pays: its ceiling (`Ceilings`) pays too."""
    auth: tuple[tuple[str, str], ...] = ()
    """Token hashes and the roles the append gives them."""
    if_match: int | None = None
    """The version the client decided on (`If-Match`)."""
    idem_key: str | None = None
    """The scoped `Idempotency-Key` (a hash of the token and the key): the append records it."""
    fingerprint: str = ""
    """The request body's hash: a replay of the key with another body is refused."""
    house_calls: bool = True
    """Whether the seats the house plays may answer the last play at once (not when a deadline
    acts: they decided when the play was made)."""
    house_owes: bool = False
    """The house acts even when the decision made no event (a deadline that fell due)."""


def _made(
    table: Fold,
    state: object,
    folded: list[Record[msgspec.Struct]],
    deadline: str | None,
    seat: int | None,
    seen: list[Seen],
) -> Made:
    return Made(table, state, folded, deadline, seat, [s.json(seat) for s in seen])


def _made_again(table: Fold, state: object, seen: list[Seen], change: Change) -> Answer:
    """A keyed change's answer made again from the state after its append (`seen`, its events)."""
    records = [s.record for s in seen]
    _, deadline = next_deadline(table.engine, state, records[-1].at)
    seat = seat_in(table.engine, state, change.mover)
    made = _made(table, state, records, deadline, seat, seen)
    return Answer(change.answer(made), made.version, records[0].v)


def _ours(after: list[bytes], records: list[bytes]) -> bool:
    """Whether the events after the version an append expected begin with its records (the
    first carries the append's nonce)."""
    return bool(records) and after[: len(records)] == records


class Pending:
    """A decision on its way to the store: its records, the table's deadline after them, its
    events as each viewer sees them (each viewer's JSON made once, for the answer and every
    stream here) and, once made, its answer. Made once a try; nothing in it changes but the
    answer, made once, and whether the followers were told."""

    __slots__ = (
        "_answer",
        "appended",
        "before",
        "change",
        "deadline",
        "due",
        "folded",
        "folds",
        "records",
        "seat",
        "seen",
        "state",
        "table",
        "told",
        "version",
    )

    def __init__(
        self,
        table: Fold,
        state: object,
        events: list[msgspec.Struct],
        change: Change,
        folds: Folds,
        nonce: str,
        now_ms: int,
    ) -> None:
        self.table, self.state, self.change, self.folds = table, state, change, folds
        self.before = before = table.version
        at = utc_text(now_ms)
        mark = None
        if change.idem_key is not None:
            mark = key_mark(change.token_hash, change.idem_key, change.fingerprint)
        self.folded = [Record(v=before + 1, at=at, e=events[0], n=nonce, i=mark)]
        self.folded += [Record(v=before + i, at=at, e=e) for i, e in enumerate(events[1:], 2)]
        self.records = [encode(r) for r in self.folded]
        self.version = before + len(events)
        self.due, self.deadline = next_deadline(table.engine, state, at)
        self.seen = folds.codec.seen(table, self.folded)
        self.seat = seat_in(table.engine, state, change.mover)
        self.appended = Appended(
            table,
            state,
            self.records,
            self.folded,
            self.seen,
            change.auth,
        )
        self._answer: bytes | None = None
        self.told = False
        """Whether the followers were told (once only)."""

    def summary(self) -> Summary:
        """The table's lobby entry after the append."""
        table = self.table
        status, players = table.engine.standing(self.state)
        return Summary(
            table.game_id, table.kind, status, players, table.created_ms, 0, table.seed is not None
        )

    def answer(self) -> bytes:
        """The answer's JSON, made the first time it is asked for."""
        if self._answer is None:
            made = _made(self.table, self.state, self.folded, self.deadline, self.seat, self.seen)
            self._answer = self.change.answer(made)
        return self._answer

    def meanwhile(self) -> None:
        """What can be made while the store works on the append (of no use should it fail):
        the answer, and the events as each viewer following the table here sees them, so that
        its streams only send them once the store has them."""
        self.answer()
        for viewer in self.folds.changes.viewers(self.table.game_id):
            for seen in self.seen:
                seen.json(viewer)

    def tell(self) -> None:
        """Once the store holds the append: the table held here advanced (`Folds.advance`: the
        events folded in, the tokens it gave learnt), and the table's followers woken, the
        mover's last (its answer tells it). Once only: the store calls it where it can tell
        before the use case resumes, else the use case."""
        if self.told:
            return
        self.told = True
        folds = self.folds
        folds.advance(self.appended)
        folds.changes.wake(self.table.game_id, self.version, last=self.seat)

    stored = tell
    """The append's progress (`AppendProgress`): the store tells it the append is stored."""


class Kept:
    """The answers to keyed changes this process made again for a retry, for the retries after
    it: the most recent `entries`, `size` bytes of them at most; the least recently used go first.

    Each is kept under its table and scoped key with the version of its append's first event,
    so that a key whose record is another append's (a table made again) is not answered from
    it. Nothing is written to the store for it: a keyed move costs a dict entry here."""

    __slots__ = ("_answers", "_bytes", "entries", "size")

    def __init__(self, entries: int | None = None, size: int | None = None) -> None:
        self.entries = KEPT_ANSWERS if entries is None else entries
        self.size = KEPT_BYTES if size is None else size
        self._answers: OrderedDict[tuple[str, str], tuple[int, Answer]] = OrderedDict()
        self._bytes = 0

    def __len__(self) -> int:
        return len(self._answers)

    @property
    def bytes(self) -> int:
        """The bytes of the answers kept."""
        return self._bytes

    def get(self, game_id: str, key: str, first: int) -> Answer | None:
        """The answer kept for `key` at the table, if its append's first event is at `first`."""
        found = self._answers.get((game_id, key))
        if found is None or found[0] != first:
            return None
        self._answers.move_to_end((game_id, key))
        return found[1]

    def put(self, game_id: str, key: str, first: int, answer: Answer) -> None:
        """Keep `answer` (one larger than `size` is not kept); the oldest beyond the bounds go."""
        answers = self._answers
        old = answers.pop((game_id, key), None)
        if old is not None:
            self._bytes -= len(old[1].body)
        if len(answer.body) > self.size:
            return
        answers[(game_id, key)] = (first, answer)
        self._bytes += len(answer.body)
        while len(answers) > self.entries or self._bytes > self.size:
            _, (_, gone) = answers.popitem(last=False)
            self._bytes -= len(gone.body)


class Appends:
    """Appends `Pending`s at the version decided on, and replays idempotent answers."""

    def __init__(
        self,
        folds: Folds,
        stores: Stores,
        settings: Settings,
        now: Callable[[], int],
        kept: Kept | None = None,
        ceilings: Ceilings | None = None,
    ) -> None:
        self.folds = folds
        self.log, self.deadlines, self.answers = stores.log, stores.deadlines, stores.answers
        self.settings = settings
        self.now = now
        self.kept = Kept() if kept is None else kept
        """The answers to keyed changes, for their retries."""
        if ceilings is None:
            ceilings = Ceilings(settings.address_per_s, settings.address_burst, now_ms)
        self.ceilings = ceilings
        """The client addresses' ceilings (shared with the reads: `Games` makes one)."""
        self._making: dict[tuple[str, str], asyncio.Task[Answer]] = {}
        """Answers being looked up or made again, each shared by every retry of its key."""
        # Nonces of appends: random per process, then counted (cheaper than random per append).
        self._nonce_prefix = secrets.token_hex(6)
        self._nonces = itertools.count()

    def ttl(self, status: str) -> int:
        """How long a table in `status` is kept after its latest event."""
        return self.settings.open_ttl_s if status == "open" else self.settings.finished_ttl_s

    def pending(
        self, table: Fold, state: object, events: list[msgspec.Struct], change: Change
    ) -> Pending:
        """`events`, decided on `table` and taking it to `state`, ready to append now."""
        nonce = f"{self._nonce_prefix}{next(self._nonces):x}"
        return Pending(table, state, events, change, self.folds, nonce, self.now())

    async def append(self, pending: Pending) -> AppendResult:
        """Append at the version decided on (`ok`, `conflict` or `limited`). The table's next
        deadline is armed first (a crash after the append must not lose it). A conflict whose
        events begin with ours is our append, applied before a lost reply hid its answer (the
        first record's nonce is ours alone): `ok`.

        The paying token's address's ceiling is taken first, in the process (429 from this
        address when short: nothing is sent), and given back unless the append is made: a
        `limited` took nothing from the token, a `conflict` neither (the change is decided again
        and its next try takes it again). An append whose outcome the store cannot tell keeps
        it, and the table held here is dropped: it may be behind the store now, or (replicas not
        confirming the append) ahead of what survives a failover."""
        table, change, records = pending.table, pending.change, pending.records
        client = change.client if change.token_hash else None
        wait = self.ceilings.take(client)
        if wait:
            raise rate_limited(wait, address=True)
        if pending.due is not None:
            await self.deadlines.arm(table.game_id, pending.due)
        summary = pending.summary()
        self.folds.expect(pending.appended)
        unknown = False
        try:
            result = await self.log.append(
                AppendRequest(
                    table.game_id,
                    pending.before,
                    records,
                    summary,
                    self.ttl(summary.status),
                    change.token_hash,
                    change.auth,
                    pending,
                )
            )
        except OutcomeUnknown:
            unknown = True
            raise
        finally:
            self.folds.expected(pending.appended, unknown)
        # (The Redis store knows its own append on its second try; this is for any that does not.)
        if result.outcome == "conflict" and _ours(result.records, records):
            return AppendResult("ok", pending.version)
        if result.outcome != "ok":
            self.ceilings.give_back(client)
        return result

    async def tell(self, pending: Pending) -> None:
        """The table's followers told of a made append, unless the store told them already;
        then one turn of the event loop, so that the woken streams push before the answer."""
        if not pending.told:
            pending.tell()
            await asyncio.sleep(0)

    def answer(self, pending: Pending) -> Answer:
        """The answer to an append made. Not kept: its retries make it again from the table
        held here while the append is its latest (`Accepted.latest`), and keep that."""
        return Answer(pending.answer(), pending.version, pending.before + 1)

    async def replayed(self, table: Fold, change: Change, accepted: Accepted) -> Answer:
        """The first answer to an idempotency key, again; 422 when it was accepted with another
        body. Paid for as any request is: one from its address's ceiling, then from the token's
        bucket (429 when either is empty; the ceiling given back when the token's is).

        Answered from the answer this process keeps (`Kept`: made again for a retry before),
        else made again from the table held here while the key's append is its latest
        (`Accepted.latest`), else from the one the store keeps for the key (`keep_answer`), else
        made again from the log, once, and kept in both. The retries of one key that arrive
        together share one lookup: however many come, the log is read at most once a key in a
        process."""
        if accepted.fingerprint != change.fingerprint:
            raise InvalidRequest("This Idempotency-Key was used with another body.")
        game_id, key = table.game_id, change.idem_key or ""
        wait = self.ceilings.take(change.client)
        if wait:
            raise rate_limited(wait, address=True)
        paid = await self.log.read(game_id, 0, change.token_hash, 0)
        if paid.retry_after_ms:
            self.ceilings.give_back(change.client)
            raise rate_limited(paid.retry_after_ms)
        kept = self.kept.get(game_id, key, accepted.version)
        if kept is not None:
            return kept
        if accepted.latest is not None:  # the state after the key's append is the table's
            answer = _made_again(table, table.state, accepted.latest, change)
            self.kept.put(game_id, key, accepted.version, answer)
            return answer
        making = self._making.get((game_id, key))
        if making is None:
            making = asyncio.create_task(self._again(game_id, key, change, accepted))
            self._making[(game_id, key)] = making
            making.add_done_callback(functools.partial(self._made, (game_id, key)))
        return await asyncio.shield(making)

    def _made(self, key: tuple[str, str], done: asyncio.Task[Answer]) -> None:
        if self._making.get(key) is done:
            del self._making[key]
        if not done.cancelled():
            done.exception()  # retrieved here too: every retry waiting on it may have gone

    async def _again(self, game_id: str, key: str, change: Change, accepted: Accepted) -> Answer:
        """The answer the store keeps for the key, else made again from the log and kept there
        for the rest of the key's day; kept here either way."""
        kept = await self.answers.answer_of(game_id, key)
        if kept is not None:
            answer = Answer(kept, version_of(kept), accepted.version)
            self.kept.put(game_id, key, accepted.version, answer)
            return answer
        before, folded = await self.folds.before(game_id, accepted.version)
        if not folded:  # the log is not the one the key was accepted on (made again)
            raise Unavailable("The table changed under this key; read it and decide again.")
        state = before.state
        for record in folded:
            state = before.engine.evolve(state, record.e)
        answer = _made_again(before, state, self.folds.codec.seen(before, folded), change)
        rest_ms = accepted.at_ms + KEY_TTL_MS - self.now()
        await self.answers.keep_answer(game_id, key, answer.body, rest_ms // 1000)
        self.kept.put(game_id, key, accepted.version, answer)
        return answer
