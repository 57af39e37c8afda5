"""The changing use cases: load the log (or the cached fold) → decide → append at the version.

Each answer's JSON is made before the append, which records it for idempotent retries.
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import itertools
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import msgspec

from kronikas.application.encoding import (
    Answer,
    created_json,
    event_json,
    house_seated_json,
    joined_json,
    result_json,
    version_of,
    view_json,
)
from kronikas.application.engines import ENGINES
from kronikas.application.errors import (
    Forbidden,
    InvalidRequest,
    NotFound,
    Unauthorized,
    Unavailable,
    VersionMismatch,
)
from kronikas.application.folds import (
    HOST,
    Folds,
    hash_token,
    player_role,
    rate_limited,
    seat_of_role,
)
from kronikas.application.house import Turn, deadline_ms, now_ms
from kronikas.application.ports import Idempotency, RandomSource, Summary
from kronikas.application.records import Record, encode, ms_of, utc_text
from kronikas.application.tables import Table, keep
from kronikas.config import Settings
from kronikas.domain.common import DomainError, Join, PlayerJoined, Start, TimeOut
from kronikas.domain.engine import View, tag_of

log = logging.getLogger("kronikas.games")

_RETRIES = 16


def new_token(prefix: str) -> str:
    """An unguessable token: 192 random bits."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


_Response = tuple[bytes, View, list[tuple[str, str]]]


@dataclass
class _Step:
    """One command's decision and answer, re-run on a fresher table after a lost race."""

    decide: Callable[[Table], list[msgspec.Struct]]
    respond: Callable[[Table, object, list[msgspec.Struct], str, str | None], _Response]
    """The answer, from the table before, the state after, the events, their time and the
    table's deadline after them."""
    token_hash: str = ""
    if_match: int | None = None
    idem_key: str | None = None
    fingerprint: str = ""
    viewer: int | None = None
    seen: list[bytes] = field(default_factory=list)
    """The events' JSON as `viewer` sees them, when `respond` made it."""
    calls: bool = True
    """Whether the seats the house plays may call at once (not when a deadline acts: they
    decided when the play was made)."""
    house_owes: bool = False
    """The house acts even when the decision made no event (a deadline that fell due)."""


class Acted(NamedTuple):
    """What acting on a due table did: whether it appended, the table's next deadline, and the
    version that deadline was read at."""

    appended: bool
    following: int | None
    version: int


class _NotDue(Exception):
    """A table's deadline is not due after all (it moved on since the deadline was armed)."""


def _fold_own(
    table: Table,
    before: int,
    state: object,
    folded: list[Record[msgspec.Struct]],
    step: _Step,
) -> None:
    """A command's own events into the table, from the state and JSON it made (no decoding);
    nothing once the table moved on (the change feed folded them in already)."""
    if table.version == before:
        table.state, table.version = state, before + len(folded)
        for seen, json in zip(keep(table, folded), step.seen, strict=False):
            seen.knows(step.viewer, json)


class Commands:
    """Create, join, start and move: each one atomic append at the version it decided on."""

    def __init__(
        self,
        folds: Folds,
        randomness: RandomSource,
        settings: Settings,
        now: Callable[[], int] = now_ms,
    ) -> None:
        self.folds = folds
        self.now = now
        self.store = folds.store
        self.changes = folds.changes
        self.randomness = randomness
        self.settings = settings
        # Nonces of appends: random per process, then counted (cheaper than random per append).
        self._nonce_prefix = secrets.token_hex(6)
        self._nonces = itertools.count()

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        per_min = self.settings.open_per_min
        wait = await self.store.take(f"open:{client}", per_min / 60, max(1, per_min // 3))
        if wait:
            raise rate_limited(wait)

    async def create(self, kind: str, options: msgspec.Struct, seed: int | None) -> bytes:
        """A new open table; answers `Created` with the host token."""
        engine = ENGINES[kind]
        engine.validate_options(options)
        game_id = secrets.token_hex(8)
        host_token = new_token("host")
        events = engine.created(options, seed is not None)
        at = utc_text(self.now())
        state = engine.initial_state(options, seed is not None)
        for event in events:
            state = engine.evolve(state, event)
        records = [
            encode(
                Record(v=i, at=at, e=e, k=kind if i == 1 else None, seed=seed if i == 1 else None)
            )
            for i, e in enumerate(events, start=1)
        ]
        created_ms = ms_of(at)
        view = engine.view(state, None, game_id, len(events))
        result = await self.store.append(
            game_id,
            0,
            records,
            ttl_s=self._ttl(view.status),
            auth=[(hash_token(host_token), HOST)],
            summary=Summary(game_id, kind, view.status, 0, created_ms, len(events)),
        )
        if result.outcome != "ok":  # pragma: no cover - 64 random bits do not collide
            raise Unavailable("could not create the table; try again")
        await self.store.register(game_id, created_ms)
        table = Table(game_id, kind, engine, seed, len(events), state, created_ms, at=at)
        table.round.extend(events)
        table.roles[hash_token(host_token)] = HOST
        self.folds.remember(table)
        log.info("table created", extra={"game_id": game_id, "kind": kind})
        return created_json(view, host_token)

    async def join(self, game_id: str, name: str) -> bytes:
        """Take the next free seat; answers `Joined` with the player's token."""
        player_id = secrets.token_hex(6)
        token = new_token("seat")
        token_hash = hash_token(token)
        command = Join(player_id, name)

        def respond(
            table: Table,
            state: object,
            events: list[msgspec.Struct],
            at: str,
            deadline: str | None,
        ) -> _Response:
            seat = next(e.seat for e in events if isinstance(e, PlayerJoined))
            view = table.engine.view(state, seat, game_id, table.version + len(events))
            return (
                joined_json(player_id, seat, token, view),
                view,
                [(token_hash, player_role(player_id))],
            )

        cached = self.folds.cache.get(game_id)
        table = cached or await self.folds.load(game_id)
        step = _Step(lambda t: self._decide(t, command, None), respond)
        return (await self._execute(table, cached is None, step)).body

    async def seat_house(self, game_id: str, token: str, name: str) -> bytes:
        """The host seats a house player; answers `HouseSeated` (no token: nobody plays it)."""
        token_hash = hash_token(token)
        table, fresh = await self.folds.authorised(game_id, token_hash)
        if table.roles[token_hash] != HOST:
            raise Forbidden("Only the host token may seat a house player.")
        player_id = secrets.token_hex(6)
        command = Join(player_id, name, house=True)

        def respond(
            table: Table,
            state: object,
            events: list[msgspec.Struct],
            at: str,
            deadline: str | None,
        ) -> _Response:
            seat = next(e.seat for e in events if isinstance(e, PlayerJoined))
            view = table.engine.view(state, None, game_id, table.version + len(events))
            return house_seated_json(player_id, seat, view), view, []

        step = _Step(lambda t: self._decide(t, command, None), respond)
        return (await self._execute(table, fresh, step)).body

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round; answers the table as the host (a spectator) sees it."""
        token_hash = hash_token(token)
        table, fresh = await self.folds.authorised(game_id, token_hash)
        if table.roles[token_hash] != HOST:
            raise Forbidden("Only the host token may start the table.")

        def respond(
            table: Table,
            state: object,
            events: list[msgspec.Struct],
            at: str,
            deadline: str | None,
        ) -> _Response:
            view = table.engine.view(
                state,
                None,
                game_id,
                table.version + len(events),
                deadline,
            )
            return view_json(view), view, []

        step = _Step(lambda t: self._decide(t, Start(), None), respond)
        return await self._execute(table, fresh, step)

    async def on_deadline(self, game_id: str) -> Acted:
        """Act on a table whose deadline fell due: a person whose clock ran out is away and the
        house plays for them; the house plays after its pause, or goes on where a request
        stopped. Answers whether it appended, and the table's next deadline (None: none)."""
        try:
            table = await self.folds.load(game_id, rate=False)
        except NotFound:
            return Acted(False, None, 0)

        def decide(table: Table) -> list[msgspec.Struct]:
            rules = table.engine
            due = deadline_ms(rules, table.state, table.at)
            if due is None or due > self.now():
                raise _NotDue
            waiting = rules.waiting_for(table.state)
            if waiting is None or waiting in rules.house_seats(table.state):
                return []
            return rules.decide(table.state, TimeOut(waiting), None, self.randomness(table.seed))

        def respond(
            table: Table,
            state: object,
            events: list[msgspec.Struct],
            at: str,
            deadline: str | None,
        ) -> _Response:
            view = table.engine.view(state, None, game_id, table.version + len(events))
            return b"", view, []

        before = table.version
        answer = await self._execute(
            table, True, _Step(decide, respond, calls=False, house_owes=True)
        )
        current = self.folds.cache.get(game_id) or table
        following = deadline_ms(current.engine, current.state, current.at)
        return Acted(answer.version > before, following, current.version)

    async def command(
        self,
        game_id: str,
        token: str,
        command: msgspec.Struct,
        body: bytes,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> Answer:
        """One move by the seat the token holds; answers `CommandResult` as the mover sees it."""
        token_hash = hash_token(token)
        table, fresh = await self.folds.authorised(game_id, token_hash)
        role = table.roles[token_hash]
        if role == HOST:
            raise Forbidden("The host token cannot play: join the table for a player token.")
        if not table.engine.accepts(command):
            raise InvalidRequest(
                f"A {tag_of(type(command))!r} command is not a command of {table.kind}."
            )
        seat = seat_of_role(table, role)
        if seat is None:
            table, fresh = await self.folds.load(game_id, rate=False), True
            seat = seat_of_role(table, role)
            if seat is None:
                raise Unauthorized("This token's player left the table before it started.")

        def respond(
            table: Table,
            state: object,
            events: list[msgspec.Struct],
            at: str,
            deadline: str | None,
        ) -> _Response:
            first = table.version + 1
            version = table.version + len(events)
            view = table.engine.view(state, seat, game_id, version, deadline)
            # the mover's events, as JSON made once for the answer and the mover's streams
            step.seen = [
                event_json(table.engine, table.kind, Record(v=first + i, at=at, e=event), seat)
                for i, event in enumerate(events)
            ]
            return result_json(version, step.seen, view), view, []

        step = _Step(
            lambda t: self._decide(t, command, seat),
            respond,
            token_hash=token_hash,
            if_match=if_match,
            viewer=seat,
        )
        if idempotency_key is not None:
            step.idem_key = hash_token(f"{token_hash}:{idempotency_key}")
            step.fingerprint = hashlib.sha256(body).hexdigest()
        return await self._execute(table, fresh, step)

    # -- the append ------------------------------------------------------------------------------

    def _ttl(self, status: str) -> int:
        return self.settings.open_ttl_s if status == "open" else self.settings.finished_ttl_s

    def _decide(
        self, table: Table, command: msgspec.Struct, seat: int | None
    ) -> list[msgspec.Struct]:
        return table.engine.decide(table.state, command, seat, self.randomness(table.seed))

    def _turn(self, table: Table, events: Sequence[msgspec.Struct], step: _Step) -> Turn:
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

    async def _execute(self, table: Table, fresh: bool, step: _Step) -> Answer:
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
            except _NotDue:
                return Answer(b"", table.version)
            state, events = turn.state, turn.events
            if not events:
                return Answer(b"", table.version)  # nothing to do (a deadline not due after all)
            folded, records, at = self._records(table, events)
            due = deadline_ms(table.engine, state, at)
            body, view, auth = step.respond(
                table, state, events, at, None if due is None else utc_text(due)
            )
            # The version this was decided at, taken before anything awaits: the table is the
            # process's shared fold, which the change feed may move on while we wait.
            before = table.version
            if due is not None:  # armed first: a crash after the append must not lose it
                await self.store.arm(game_id, due)
            idem = (
                Idempotency(step.idem_key, step.fingerprint, body)
                if step.idem_key is not None
                else None
            )
            fold = functools.partial(_fold_own, table, before, state, folded, step)
            self.folds.expect(table, records, fold)
            try:
                result = await self.store.append(
                    game_id,
                    before,
                    records,
                    ttl_s=self._ttl(view.status),
                    token_hash=step.token_hash,
                    auth=auth,
                    idempotency=idem,
                    summary=Summary(
                        game_id, table.kind, view.status, len(view.players), table.created_ms, 0
                    ),
                )
            finally:
                self.folds.expected(game_id, records)
            # A conflict with our own records is our append, applied before a lost connection
            # hid its answer.
            if result.outcome == "ok" or (
                result.outcome == "conflict" and result.records == records
            ):
                fold()
                table.roles.update(auth)
                self.changes.wake(game_id)
                await asyncio.sleep(0)  # the woken streams push before this answer is sent
                return Answer(body, result.version)
            if result.outcome == "conflict":
                table = await self.folds.after_conflict(table, result.records, result.version)
                fresh = True
                continue
            if result.outcome == "replay":
                return self._replayed(step, result.replay)
            raise rate_limited(result.retry_after_ms)
        raise Unavailable("The table is too busy right now; try again.")

    async def _replay_or_raise(self, table: Table, step: _Step, error: Exception) -> Answer:
        if step.idem_key is not None:
            prior = await self.store.idempotent(table.game_id, step.idem_key)
            if prior is not None:
                return self._replayed(step, prior)
        raise error

    @staticmethod
    def _replayed(step: _Step, record: bytes) -> Answer:
        fingerprint, _, body = record.partition(b"\n")
        if fingerprint.decode() != step.fingerprint:
            raise InvalidRequest("This Idempotency-Key was used with another body.")
        return Answer(body, version_of(body))
