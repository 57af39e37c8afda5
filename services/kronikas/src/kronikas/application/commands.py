"""The changing use cases: load the log (or the cached fold) → decide → append at the version.

Each answer's JSON is made before the append, which records it for idempotent retries.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

from kronikas.application.encoding import (
    Answer,
    created_json,
    event_json,
    joined_json,
    result_json,
    version_of,
    view_json,
)
from kronikas.application.engines import ENGINES
from kronikas.application.errors import Forbidden, InvalidRequest, Unavailable, VersionMismatch
from kronikas.application.folds import HOST, Folds, hash_token, rate_limited
from kronikas.application.ports import Idempotency, RandomSource, Summary
from kronikas.application.records import Record, encode, ms_of, utc_now
from kronikas.application.tables import Table
from kronikas.config import Settings
from kronikas.domain.common import DomainError, Join, PlayerJoined, Start
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
    respond: Callable[[Table, object, list[msgspec.Struct], str], _Response]
    token_hash: str = ""
    if_match: int | None = None
    idem_key: str | None = None
    fingerprint: str = ""
    viewer: int | None = None
    seen: list[bytes] = field(default_factory=list)
    """The events' JSON as `viewer` sees them, when `respond` made it."""


class Commands:
    """Create, join, start and move: each one atomic append at the version it decided on."""

    def __init__(self, folds: Folds, randomness: RandomSource, settings: Settings) -> None:
        self.folds = folds
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
        at = utc_now()
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
        table = Table(game_id, kind, engine, seed, len(events), state, created_ms)
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
            table: Table, state: object, events: list[msgspec.Struct], at: str
        ) -> _Response:
            seat = next(e.seat for e in events if isinstance(e, PlayerJoined))
            view = table.engine.view(state, seat, game_id, table.version + len(events))
            return joined_json(player_id, seat, token, view), view, [(token_hash, str(seat))]

        cached = self.folds.cache.get(game_id)
        table = cached or await self.folds.load(game_id)
        step = _Step(lambda t: self._decide(t, command, None), respond)
        return (await self._execute(table, cached is None, step)).body

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round; answers the table as the host (a spectator) sees it."""
        token_hash = hash_token(token)
        table, fresh = await self.folds.authorised(game_id, token_hash)
        if table.roles[token_hash] != HOST:
            raise Forbidden("Only the host token may start the table.")

        def respond(
            table: Table, state: object, events: list[msgspec.Struct], at: str
        ) -> _Response:
            view = table.engine.view(state, None, game_id, table.version + len(events))
            return view_json(view), view, []

        step = _Step(lambda t: self._decide(t, Start(), None), respond)
        return await self._execute(table, fresh, step)

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
        seat = int(role)

        def respond(
            table: Table, state: object, events: list[msgspec.Struct], at: str
        ) -> _Response:
            first = table.version + 1
            version = table.version + len(events)
            view = table.engine.view(state, seat, game_id, version)
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

    def _fold(
        self, table: Table, events: Sequence[msgspec.Struct]
    ) -> tuple[object, list[Record[msgspec.Struct]], list[bytes], str]:
        """The state after `events`, their records (and as stored), and their time."""
        state, records, at = table.state, [], utc_now()
        nonce = f"{self._nonce_prefix}{next(self._nonces):x}"
        for offset, event in enumerate(events, start=1):
            state = table.engine.evolve(state, event)
            first = nonce if offset == 1 else None
            records.append(Record(v=table.version + offset, at=at, e=event, n=first))
        return state, records, [encode(r) for r in records], at

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
                events = step.decide(table)
            except DomainError as refusal:
                if not fresh:
                    table, fresh = await self.folds.load(game_id, rate=False), True
                    continue
                return await self._replay_or_raise(table, step, refusal)
            state, folded, records, at = self._fold(table, events)
            body, view, auth = step.respond(table, state, events, at)
            idem = (
                Idempotency(step.idem_key, step.fingerprint, body)
                if step.idem_key is not None
                else None
            )
            result = await self.store.append(
                game_id,
                table.version,
                records,
                ttl_s=self._ttl(view.status),
                token_hash=step.token_hash,
                auth=auth,
                idempotency=idem,
                summary=Summary(
                    game_id, table.kind, view.status, len(view.players), table.created_ms, 0
                ),
            )
            # A conflict with our own records is our append, applied before a lost connection
            # hid its answer.
            if result.outcome == "ok" or (
                result.outcome == "conflict" and result.records == records
            ):
                if table.version < result.version:  # else the change feed brought it already
                    table.state, table.version = state, result.version
                    for seen, json in zip(
                        table.recent.add(folded, table.kind), step.seen, strict=False
                    ):
                        seen.knows(step.viewer, json)
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
