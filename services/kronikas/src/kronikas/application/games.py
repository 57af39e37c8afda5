"""The use cases: load the log (or the cached fold) → decide → append at the expected version."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple, Union, cast

import msgspec

from kronikas.application.engines import ENGINES
from kronikas.application.errors import (
    Forbidden,
    InvalidRequest,
    NotFound,
    RateLimited,
    Unauthorized,
    Unavailable,
    VersionMismatch,
)
from kronikas.application.ports import (
    ChangeFeed,
    EventStore,
    Idempotency,
    RandomSource,
    Summary,
)
from kronikas.application.records import Record, encode, ms_of, utc_now
from kronikas.application.results import (
    EVENT_PAGE,
    CommandResult,
    Created,
    EventPage,
    GameEvent,
    Joined,
    game_event,
    wire_type,
)
from kronikas.application.tables import Table
from kronikas.config import Settings
from kronikas.domain.common import DomainError, Join, PlayerJoined, Start
from kronikas.domain.engine import View, tag_of

log = logging.getLogger("kronikas.games")

HOST = "host"
_GAME_ID = re.compile(r"[0-9a-f]{16}")
"""What `create` makes; anything else names no table (and could break a cluster's hash tag)."""
_RETRIES = 16
_CACHE_SIZE = 4096


def hash_token(token: str) -> str:
    """Tokens are kept, compared and cached only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token(prefix: str) -> str:
    """An unguessable token: 192 random bits."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


class Answer(NamedTuple):
    """An answer's JSON body, and the table's version it shows (the `ETag`)."""

    body: bytes
    version: int


class Delivered(NamedTuple):
    """An event for a stream: its version, type and JSON as the stream's viewer sees it."""

    version: int
    type: str
    json: bytes


class _Version(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(_Version)
_encoder = msgspec.json.Encoder()
"""Reads the version of a recorded answer (replays only: a fresh answer knows its own)."""


class _Codec:
    """Per-engine decoders of stored records."""

    def __init__(self) -> None:
        self._decoders: dict[str, msgspec.json.Decoder[Record[msgspec.Struct]]] = {
            kind: msgspec.json.Decoder(Record[Union[game.events]])  # type: ignore[name-defined]  # noqa: UP007
            for kind, game in ENGINES.items()
        }
        self._first = msgspec.json.Decoder(Record[msgspec.Raw])

    def first(self, raw: bytes) -> Record[msgspec.Raw]:
        """The first record, without its event: which engine reads the log, the seed, when."""
        return self._first.decode(raw)

    def decode(self, kind: str, raw: bytes) -> Record[msgspec.Struct]:
        return self._decoders[kind].decode(raw)


class Games:
    """Every use case of the HTTP API, stateless but for a cache of folds keyed by version."""

    def __init__(
        self, store: EventStore, changes: ChangeFeed, randomness: RandomSource, settings: Settings
    ) -> None:
        self.store = store
        self.changes = changes
        self.randomness = randomness
        self.settings = settings
        self.codec = _Codec()
        self.cache: OrderedDict[str, Table] = OrderedDict()
        # Nonces of appends: random per process, then counted (cheaper than random per append).
        self._nonce_prefix = secrets.token_hex(6)
        self._nonces = itertools.count()
        self._gaps = 0
        """Appends heard that could not be folded in (counted, so a read can tell it missed one)."""
        self._reading: dict[str, asyncio.Task[Table]] = {}
        """Tables being read for their followers, each read shared by all of them."""
        changes.listen(self._heard)

    # -- loading ---------------------------------------------------------------------------------

    def _remember(self, table: Table) -> None:
        self.cache[table.game_id] = table
        self.cache.move_to_end(table.game_id)
        while len(self.cache) > _CACHE_SIZE:
            self.cache.popitem(last=False)

    def _new_table(self, game_id: str, first: bytes) -> Table:
        head = self.codec.first(first)
        kind = head.k or ""
        if kind not in ENGINES:
            raise Unavailable(f"table {game_id} has an unreadable log")
        engine = ENGINES[kind]
        # The first event assigns the table's options: fold it into any lobby.
        created = self.codec.decode(kind, first).e
        state = engine.evolve(engine.initial_state(engine.options(), False), created)
        return Table(game_id, kind, engine, head.seed, 1, state, ms_of(head.at))

    def _apply(self, table: Table, records: Sequence[bytes]) -> None:
        engine, state, version = table.engine, table.state, table.version
        folded: list[Record[msgspec.Struct]] = []
        for raw in records:
            record = self.codec.decode(table.kind, raw)
            if record.v <= version:
                continue  # another request on this process folded it in while we awaited Redis
            if record.v != version + 1:
                raise Unavailable(f"table {table.game_id}: event {record.v} after {version}")
            state = engine.evolve(state, record.e)
            version = record.v
            folded.append(record)
        table.state, table.version = state, version
        table.recent.add(folded, table.kind)

    def _heard(self, game_id: str, version: int, records: list[bytes]) -> None:
        """An append heard on the change feed: fold it into the cached table, if it follows on."""
        table = self.cache.get(game_id)
        if table is None or version <= table.version:
            return  # not held here, or our own append (already folded)
        try:
            if not records:
                raise Unavailable("only the version was heard")
            self._apply(table, records)
        except Unavailable:  # a gap: the next reader reads
            table.live = None
            self._gaps += 1

    async def _followed(self, game_id: str) -> Table:
        """The table, current as far as the change feed can vouch; else read (and vouched for
        from then on, when nothing was missed during the read)."""
        table = self.cache.get(game_id)
        generation = self.changes.generation(game_id)
        if table is not None and generation is not None and table.live == generation:
            return table
        # Every stream of a table that falls back to reading shares one read: a crowd of
        # followers woken by one gap must not take the pool's every connection.
        reading = self._reading.get(game_id)
        if reading is None:
            reading = asyncio.create_task(self._read_followed(game_id, generation))
            self._reading[game_id] = reading
            reading.add_done_callback(lambda done: self._read_done(game_id, done))
        return await asyncio.shield(reading)

    async def _read_followed(self, game_id: str, generation: int | None) -> Table:
        gaps = self._gaps
        table = await self.load(game_id, rate=False)
        unbroken = gaps == self._gaps and self.changes.generation(game_id) == generation
        if generation is not None and unbroken:
            table.live = generation
        return table

    def _read_done(self, game_id: str, done: asyncio.Task[Table]) -> None:
        if self._reading.get(game_id) is done:
            del self._reading[game_id]
        if not done.cancelled():
            done.exception()  # retrieved here too: every sharer may have gone

    async def load(self, game_id: str, token_hash: str = "", rate: bool = True) -> Table:
        """The table at its current version (one round trip); also learns the token's role."""
        if not _GAME_ID.fullmatch(game_id):
            raise NotFound(f"There is no table {game_id!r}.")
        table = self.cache.get(game_id)
        after = table.version if table else 0
        result = await self.store.read(game_id, after, token_hash, 1 << 30, rate)
        if result.retry_after_ms:
            raise _rate_limited(result.retry_after_ms)
        if result.version == 0:
            self.cache.pop(game_id, None)
            raise NotFound(f"There is no table {game_id!r}.")
        if table is None or result.version < after:
            if table is not None:  # the log was replaced (expired and made again): start over
                result = await self.store.read(game_id, 0, token_hash, 1 << 30, False)
            table = self._new_table(game_id, result.records[0])
            self._apply(table, result.records[1:])
        else:
            self._apply(table, result.records)
        if result.role:
            table.roles[token_hash] = result.role
        self._remember(table)
        return table

    # -- appending -------------------------------------------------------------------------------

    def _ttl(self, status: str) -> int:
        return self.settings.open_ttl_s if status == "open" else self.settings.finished_ttl_s

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

    def _decide(
        self, table: Table, command: msgspec.Struct, seat: int | None
    ) -> list[msgspec.Struct]:
        return table.engine.decide(table.state, command, seat, self.randomness(table.seed))

    @staticmethod
    def _seen(
        table: Table, version: int, at: str, event: msgspec.Struct, viewer: int | None
    ) -> GameEvent:
        """An event as `viewer` (a seat, or None for a spectator) may see it, on the wire."""
        return game_event(table.kind, version, at, table.engine.redact(event, viewer))

    def _json_of(self, table: Table) -> Callable[[Record[msgspec.Struct], int | None], bytes]:
        def make(record: Record[msgspec.Struct], viewer: int | None) -> bytes:
            return _encoder.encode(self._seen(table, record.v, record.at, record.e, viewer))

        return make

    # -- use cases -------------------------------------------------------------------------------

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        per_min = self.settings.open_per_min
        wait = await self.store.take(f"open:{client}", per_min / 60, max(1, per_min // 3))
        if wait:
            raise _rate_limited(wait)

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
            ttl_s=self.settings.open_ttl_s,
            auth=[(hash_token(host_token), HOST)],
            summary=Summary(game_id, kind, view.status, 0, created_ms, len(events)),
        )
        if result.outcome != "ok":  # pragma: no cover - 64 random bits do not collide
            raise Unavailable("could not create the table; try again")
        await self.store.register(game_id, created_ms)
        table = Table(game_id, kind, engine, seed, len(events), state, created_ms)
        table.roles[hash_token(host_token)] = HOST
        self._remember(table)
        log.info("table created", extra={"game_id": game_id, "kind": kind})
        return msgspec.json.encode(Created(game=view, host_token=host_token))

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
            body = Joined(player_id=player_id, seat=seat, token=token, game=view)
            return msgspec.json.encode(body), view, [(token_hash, str(seat))]

        cached = self.cache.get(game_id)
        table = cached or await self.load(game_id)
        step = _Step(lambda t: self._decide(t, command, None), respond)
        return (await self._execute(table, cached is None, step)).body

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round; answers the table as the host (a spectator) sees it."""
        token_hash = hash_token(token)
        table, fresh = await self._authorised(game_id, token_hash)
        if table.roles[token_hash] != HOST:
            raise Forbidden("Only the host token may start the table.")

        def respond(
            table: Table, state: object, events: list[msgspec.Struct], at: str
        ) -> _Response:
            view = table.engine.view(state, None, game_id, table.version + len(events))
            return msgspec.json.encode(view), view, []

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
        table, fresh = await self._authorised(game_id, token_hash)
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
            view = table.engine.view(state, seat, game_id, table.version + len(events))
            step.seen = [
                _encoder.encode(self._seen(table, first + i, at, event, seat))
                for i, event in enumerate(events)
            ]
            result = CommandResult(
                version=table.version + len(events),
                # the mover's events, as JSON made once for the answer and the mover's streams
                events=cast(list[GameEvent], [msgspec.Raw(j) for j in step.seen]),
                game=view,
            )
            return msgspec.json.encode(result), view, []

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

    async def lobby(
        self, kind: str | None, status: str | None, offset: int, limit: int
    ) -> tuple[list[Summary], bool]:
        """Tables newest first, filtered by kind and status, a page; and whether more follow."""
        return await self.store.lobby(kind, status, offset, limit)

    async def view(self, game_id: str, token: str | None) -> Answer:
        """The table as the token's holder (or a spectator) sees it now."""
        table, seat = await self._reader(game_id, token)
        view = table.engine.view(table.state, seat, game_id, table.version)
        return Answer(msgspec.json.encode(view), table.version)

    async def events(self, game_id: str, token: str | None, after: int, wait: float) -> bytes:
        """Events after `after` that the asker may see, waiting up to `wait` s for the first."""
        deadline = time.monotonic() + wait
        table, seat = await self._reader(game_id, token)
        if table.version <= after and wait > 0:
            async with self.changes.waiting(game_id) as waiter:
                table = await self._followed(game_id)
                while table.version <= after:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or not await waiter.wait(remaining):
                        break
                    waiter.clear()
                    table = await self._followed(game_id)
        delivered, version = await self._after(table, after, seat)
        more = bool(delivered) and delivered[-1].version < version
        events = cast(list[GameEvent], [msgspec.Raw(d.json) for d in delivered])
        return _encoder.encode(EventPage(events=events, version=version, more=more))

    async def _after(
        self, table: Table, after: int, seat: int | None
    ) -> tuple[list[Delivered], int]:
        """A page of events after `after` as `seat` sees them, and the version they were read at:
        from the table's latest events when they reach back that far, else from the store."""
        if after >= table.version:
            return [], table.version
        make = self._json_of(table)
        at_hand = table.recent.after(after, table.version)
        if at_hand is not None:
            page = at_hand[:EVENT_PAGE]
            return [Delivered(s.version, s.type, s.json(seat, make)) for s in page], table.version
        result = await self.store.read(table.game_id, after, "", EVENT_PAGE, rate=False)
        records = [self.codec.decode(table.kind, raw) for raw in result.records]
        delivered = [
            Delivered(r.v, wire_type(table.kind, tag_of(type(r.e))), make(r, seat)) for r in records
        ]
        return delivered, result.version

    async def stream(
        self, game_id: str, token: str | None, after: int
    ) -> Callable[[], AsyncIterator[Delivered | None]]:
        """Checks access now; the returned generator yields events, and None as a keep-alive.

        While the change feed vouches for the table, a stream reads nothing from the store: the
        feed brings each append, folded once, and each viewer's JSON is made once per process.
        """
        _, seat = await self._reader(game_id, token)
        keepalive = self.settings.sse_keepalive_s

        async def events() -> AsyncIterator[Delivered | None]:
            nonlocal after
            async with self.changes.waiting(game_id) as waiter:
                while True:
                    table = await self._followed(game_id)
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

    # -- helpers ---------------------------------------------------------------------------------

    async def _authorised(self, game_id: str, token_hash: str) -> tuple[Table, bool]:
        """The table and whether it was just read; 401 when the token is not of this table."""
        table = self.cache.get(game_id)
        if table is not None and token_hash in table.roles:
            return table, False
        table = await self.load(game_id, token_hash, rate=False)
        if token_hash not in table.roles:
            raise Unauthorized("This token is not one of this table's.")
        return table, True

    async def _reader(self, game_id: str, token: str | None) -> tuple[Table, int | None]:
        if not token:  # a spectator: no role to learn, no rate to count (as a read without one)
            if not _GAME_ID.fullmatch(game_id):
                raise NotFound(f"There is no table {game_id!r}.")
            return await self._followed(game_id), None
        token_hash = hash_token(token)
        table = await self.load(game_id, token_hash)
        role = table.roles.get(token_hash)
        if role is None:
            raise Unauthorized("This token is not one of this table's.")
        return table, None if role == HOST else int(role)

    async def _execute(self, table: Table, fresh: bool, step: _Step) -> Answer:
        game_id = table.game_id
        for _ in range(_RETRIES):
            if step.if_match is not None and step.if_match != table.version:
                if step.if_match > table.version and not fresh:
                    table, fresh = await self.load(game_id, rate=False), True
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
                    table, fresh = await self.load(game_id, rate=False), True
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
                table, fresh = (
                    await self._after_conflict(table, result.records, result.version),
                    True,
                )
                continue
            if result.outcome == "replay":
                return self._replayed(step, result.replay)
            raise _rate_limited(result.retry_after_ms)
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
        return Answer(body, _version.decode(body).version)

    async def _after_conflict(self, table: Table, records: list[bytes], version: int) -> Table:
        if records and version == table.version + len(records):
            self._apply(table, records)
            return table
        return await self.load(table.game_id, rate=False)


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


def _rate_limited(retry_after_ms: int) -> RateLimited:
    seconds = max(1, -(-retry_after_ms // 1000))
    return RateLimited(
        f"Too many requests; try again in {seconds} s.", headers={"Retry-After": str(seconds)}
    )
