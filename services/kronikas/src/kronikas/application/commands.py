"""The changing use cases: load the log (or the cached fold) → decide → append at the version.

Each use case says how to decide and how to answer (a `Step`); `appends.py` makes the append
and the answer (before the append only when an idempotent retry must get it again).
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Callable
from typing import NamedTuple

import msgspec

from kronikas.application.access import (
    HOST,
    Access,
    hash_token,
    new_token,
    player_role,
    seat_in,
    seated,
)
from kronikas.application.appends import Appends, NotDue, Step
from kronikas.application.encoding import (
    Answer,
    created_json,
    house_seated_json,
    joined_json,
    result_json,
    view_json,
)
from kronikas.application.errors import NotFound, Unavailable, rate_limited
from kronikas.application.folds import Folds
from kronikas.application.house import (
    HOUSE_MOVES,
    Turn,
    deadline_ms,
    host_bucket,
    house_alone,
    now_ms,
)
from kronikas.application.ports import RandomSource, Summary
from kronikas.application.records import Record, encode, ms_of, utc_text
from kronikas.application.tables import Table
from kronikas.config import Settings
from kronikas.domain.common import Join, PlayerJoined, Start, TimeOut

log = logging.getLogger("kronikas.games")


class Acted(NamedTuple):
    """What acting on a due table did: whether it appended, the table's next deadline, and the
    version that deadline was read at."""

    appended: bool
    following: int | None
    version: int


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
        self.randomness = randomness
        self.settings = settings
        self.access = Access(folds)
        self.appends = Appends(folds, randomness, settings, now)

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        per_min = self.settings.open_per_min
        wait = await self.store.take(f"open:{client}", per_min / 60, max(1, per_min // 3))
        if wait:
            raise rate_limited(wait)

    async def create(self, kind: str, options: msgspec.Struct, seed: int | None) -> bytes:
        """A new open table; answers `Created` with the host token."""
        engine = self.folds.engines[kind]
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
            ttl_s=self.appends.ttl(view.status),
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
            records: list[Record[msgspec.Struct]],
            deadline: str | None,
            events: list[bytes],
        ) -> bytes:
            seat = next(r.e.seat for r in records if isinstance(r.e, PlayerJoined))
            view = table.engine.view(state, seat, game_id, records[-1].v)
            return joined_json(player_id, seat, token, view)

        cached = self.folds.cache.get(game_id)
        table = cached or await self.folds.load(game_id)
        step = Step(
            lambda t: self._decide(t, command, None),
            respond,
            auth=[(token_hash, player_role(player_id))],
        )
        return (await self.appends.execute(table, cached is None, step)).body

    async def seat_house(self, game_id: str, token: str, name: str) -> bytes:
        """The host seats a house player; answers `HouseSeated` (no token: nobody plays it)."""
        table, fresh = await self.access.host(game_id, token, "seat a house player")
        player_id = secrets.token_hex(6)
        command = Join(player_id, name, house=True)

        def respond(
            table: Table,
            state: object,
            records: list[Record[msgspec.Struct]],
            deadline: str | None,
            events: list[bytes],
        ) -> bytes:
            seat = next(r.e.seat for r in records if isinstance(r.e, PlayerJoined))
            view = table.engine.view(state, None, game_id, records[-1].v)
            return house_seated_json(player_id, seat, view)

        step = Step(lambda t: self._decide(t, command, None), respond)
        return (await self.appends.execute(table, fresh, step)).body

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round; answers the table as the host (a spectator) sees it."""
        table, fresh = await self.access.host(game_id, token, "start the table")

        def respond(
            table: Table,
            state: object,
            records: list[Record[msgspec.Struct]],
            deadline: str | None,
            events: list[bytes],
        ) -> bytes:
            view = table.engine.view(state, None, game_id, records[-1].v, deadline)
            return view_json(view)

        step = Step(lambda t: self._decide(t, Start(), None), respond)
        return await self.appends.execute(table, fresh, step)

    async def on_deadline(self, game_id: str) -> Acted:
        """Act on a table whose deadline fell due: a person whose clock ran out is away and the
        house plays for them; the house plays after its pause, or goes on where a request
        stopped. Answers whether it appended, and the table's next deadline (None: none)."""
        try:
            table = await self.folds.load(game_id, rate=False)
        except NotFound:
            return Acted(False, None, 0)
        paid = 0
        due = deadline_ms(table.engine, table.state, table.at)
        if due is not None and due <= self.now() and house_alone(table.engine, table.state):
            paid, wait = await self._house_tokens(game_id)
            if not paid:  # the host's bucket is empty: the house moves when it has refilled
                return Acted(False, self.now() + wait, table.version)

        def decide(table: Table) -> list[msgspec.Struct]:
            rules = table.engine
            due = deadline_ms(rules, table.state, table.at)
            if due is None or due > self.now():
                raise NotDue
            waiting = rules.waiting_for(table.state)
            if waiting is None:
                return []
            if house_alone(rules, table.state):
                # The house's paid moves; the request that follows makes no unpaid one.
                turn = Turn(
                    rules,
                    table.game_id,
                    table.version,
                    table.state,
                    table.round,
                    self.randomness(table.seed),
                    table.seed,
                    alone=paid,
                )
                turn.play_house(calls=False, paused=True)
                return turn.events
            if waiting in rules.house_seats(table.state):
                return []
            return rules.decide(table.state, TimeOut(waiting), None, self.randomness(table.seed))

        def respond(
            table: Table,
            state: object,
            records: list[Record[msgspec.Struct]],
            deadline: str | None,
            events: list[bytes],
        ) -> bytes:
            return b""  # nobody asked

        before = table.version
        answer = await self.appends.execute(
            table, True, Step(decide, respond, calls=False, house_owes=True)
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
        table, fresh, role = await self.access.mover(game_id, token_hash, command)

        def respond(
            table: Table,
            state: object,
            records: list[Record[msgspec.Struct]],
            deadline: str | None,
            events: list[bytes],
        ) -> bytes:
            version = records[-1].v
            seat = seat_in(table.engine, state, role)  # None once its player left
            view = table.engine.view(state, seat, game_id, version, deadline)
            # the mover's events, as JSON made once for the answer and the mover's streams
            return result_json(version, events, view)

        step = Step(
            # the mover's seat in the state decided on, every try: it may have moved meanwhile
            lambda t: self._decide(t, command, seated(t, role)),
            respond,
            token_hash=token_hash,
            if_match=if_match,
            mover=role,
        )
        if idempotency_key is not None:
            step.idem_key = hash_token(f"{token_hash}:{idempotency_key}")
            step.fingerprint = hashlib.sha256(body).hexdigest()
        return await self.appends.execute(table, fresh, step)

    async def _house_tokens(self, game_id: str) -> tuple[int, int]:
        """Tokens taken from the host's bucket of a table where the house plays every seat, one
        a move, up to a request's worth (`HOUSE_MOVES`); and, when it ran dry, the milliseconds
        until it has one again. Its rate and burst are a token's (`rate_per_s`, `rate_burst`; a
        rate of 0, as tokens have then, limits nothing)."""
        rate, burst = self.settings.rate_per_s, self.settings.rate_burst
        if rate <= 0:
            return HOUSE_MOVES, 0
        taken = 0
        while taken < HOUSE_MOVES:
            wait = await self.store.take(host_bucket(game_id), rate, burst)
            if wait:
                return taken, wait
            taken += 1
        return taken, 0

    def _decide(
        self, table: Table, command: msgspec.Struct, seat: int | None
    ) -> list[msgspec.Struct]:
        return table.engine.decide(table.state, command, seat, self.randomness(table.seed))
