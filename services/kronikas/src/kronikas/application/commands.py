"""The changing use cases: create, join, seat the house, start, a deadline's moves and a
player's move, each one atomic append at the version it decided on.

Every change after a table's creation is told by one function, `Commands.change`: load →
decide → house → append → tell the followers → answer. A use case says what it changes as a
value (`Change`: how to decide, how to answer); what makes the append fast sits behind
`Appends` and `Pending` (appends.py).
"""

from __future__ import annotations

import functools
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import msgspec

from kronikas.application.access import (
    HOST,
    as_host,
    hash_token,
    mover,
    new_token,
    player_role,
    seat_of,
)
from kronikas.application.appends import Appends, Change, Made
from kronikas.application.ceilings import Ceilings
from kronikas.application.deals import ArenaDeal
from kronikas.application.errors import (
    NotFound,
    SetInPlay,
    Unavailable,
    VersionMismatch,
    rate_limited,
)
from kronikas.application.folds import Folds
from kronikas.application.house import (
    HOUSE_MOVES,
    Decision,
    deadline_ms,
    host_bucket,
    house_alone,
    now_ms,
)
from kronikas.application.ids import table_id
from kronikas.application.ports import (
    AppendRequest,
    AppendResult,
    RandomSource,
    Stores,
    Summary,
)
from kronikas.application.tables import Fold, body_hash, key_hash
from kronikas.application.wire import (
    Answer,
    Record,
    created_json,
    encode,
    house_seated_json,
    joined_json,
    ms_of,
    result_json,
    utc_text,
    view_json,
)
from kronikas.config import Settings
from kronikas_rules.common import DomainError, Start
from kronikas_rules.seating import Join, PlayerJoined, TimeOut

log = logging.getLogger("kronikas.games")

_RETRIES = 16
"""How many lost races a change decides again after, before it gives up (503)."""


class NotDue(Exception):
    """A table's deadline is not due after all (it moved on since the deadline was armed)."""


class Acted(NamedTuple):
    """What acting on a due table did: whether it appended, the table's next deadline, and the
    version that deadline was read at."""

    appended: bool
    following: int | None
    version: int


@dataclass(slots=True)
class Move:
    """A move as its seat asked for it: the command, its request's body, and what came with
    it (`If-Match`, `Idempotency-Key`, the client's address); and, once the use case has found
    its table, that table's game (`kind`: what the move is counted under, refused or not)."""

    command: msgspec.Struct
    body: bytes
    if_match: int | None = None
    idempotency_key: str | None = None
    client: str | None = None
    kind: str | None = field(default=None, init=False)


def new_table_id() -> str:
    """A new table's id: 64 random bits."""
    return secrets.token_hex(8)


class Commands:
    """Create, join, start and move: each one atomic append at the version it decided on."""

    def __init__(
        self,
        folds: Folds,
        stores: Stores,
        randomness: RandomSource,
        settings: Settings,
        now: Callable[[], int] = now_ms,
        ceilings: Ceilings | None = None,
    ) -> None:
        self.folds = folds
        self.now = now
        self.log, self.lobby, self.buckets = stores.log, stores.lobby, stores.buckets
        self.randomness = randomness
        self.settings = settings
        self.appends = Appends(folds, stores, settings, now, ceilings=ceilings)

    async def admit(self, client: str) -> None:
        """Hold back one address that creates tables or takes seats too fast (429)."""
        per_min = self.settings.open_per_min
        wait = await self.buckets.take(f"open:{client}", per_min / 60, max(1, per_min // 3))
        if wait:
            raise rate_limited(wait)

    async def create(
        self,
        kind: str,
        options: msgspec.Struct,
        seed: int | None,
        arena: ArenaDeal | None = None,
        game_id: str | None = None,
    ) -> bytes:
        """A new open table; answers `Created` with the host token. `arena`: a table of an
        arena's set, dealing from the set's secret (kept on its first record, never shown), its
        id `game_id` chosen (and kept out of the lobby) before it is made."""
        engine = self.folds.engines[kind]
        engine.validate_options(options)
        game_id = game_id or new_table_id()
        host_token = new_token("host")
        events = engine.created(options, seed is not None)
        at = utc_text(self.now())
        state = engine.initial_state(options, seed is not None)
        for event in events:
            state = engine.evolve(state, event)
        records = [
            encode(
                Record(
                    v=i,
                    at=at,
                    e=e,
                    k=kind if i == 1 else None,
                    seed=seed if i == 1 else None,
                    a=arena if i == 1 else None,
                )
            )
            for i, e in enumerate(events, start=1)
        ]
        created_ms = ms_of(at)
        view = engine.view(state, None, game_id, len(events))
        summary = Summary(game_id, kind, view.status, 0, created_ms, len(events), seed is not None)
        result = await self.log.append(
            AppendRequest(
                game_id,
                0,
                records,
                summary,
                self.appends.ttl(view.status),
                auth=[(hash_token(host_token), HOST)],
            )
        )
        if result.outcome != "ok":  # pragma: no cover - 64 random bits do not collide
            raise Unavailable("could not create the table; try again")
        await self.lobby.register(game_id, created_ms)
        made = Fold(
            game_id, kind, engine, seed, len(events), state, created_ms, at, tuple(events), arena
        )
        self.folds.made(made, [(hash_token(host_token), HOST)])
        log.info("table created", extra={"game_id": game_id, "kind": kind})
        return created_json(view, host_token)

    async def join(self, game_id: str, name: str, arena: bool = False) -> bytes:
        """Take the next free seat; answers `Joined` with the player's token. An arena table
        seats only whom its arena seats there (`arena`): nobody else joins it."""
        game_id = table_id(game_id)
        player_id = secrets.token_hex(6)
        token = new_token("seat")
        command = Join(player_id, name)
        cached = self.folds.held(game_id)
        table = cached or await self.folds.load(game_id)
        if table.arena is not None and not arena:
            raise SetInPlay("This table is one of an arena set: only the arena seats it.")
        change = Change(
            lambda t: self._decide(t, command, None),
            functools.partial(_joined, player_id, token),
            auth=((hash_token(token), player_role(player_id)),),
        )
        return (await self.change(table, cached is None, change)).body

    async def seat_house(self, game_id: str, token: str, name: str) -> bytes:
        """The host seats a house player; answers `HouseSeated` (no token: nobody plays it)."""
        table, fresh = await self._host(game_id, token, "seat a house player")
        player_id = secrets.token_hex(6)
        command = Join(player_id, name, house=True)
        change = Change(
            lambda t: self._decide(t, command, None), functools.partial(_house_seated, player_id)
        )
        return (await self.change(table, fresh, change)).body

    async def start(self, game_id: str, token: str) -> Answer:
        """The host deals the first round; answers the table as the host (a spectator) sees it."""
        table, fresh = await self._host(game_id, token, "start the table")
        return await self.change(
            table, fresh, Change(lambda t: self._decide(t, Start(), None), _started)
        )

    async def _host(self, game_id: str, token: str, may: str) -> tuple[Fold, bool]:
        """The table of a host token, and whether it was just read; 403 for any other token of
        the table (`may`: what only the host may do, for the refusal)."""
        table, role, fresh = await self.folds.for_token(table_id(game_id), hash_token(token))
        as_host(role, may)
        return table, fresh

    async def seat_move(self, game_id: str, token: str, move: Move) -> Answer:
        """One move by the seat the token holds; answers `CommandResult` as the mover sees it.
        Its token pays (in the append), and its `client` address's ceiling (`Appends.append`).
        Load (the table, the token's role and seat: one call), judge (`access.mover`), then
        `change` decides, appends and tells."""
        game_id = table_id(game_id)
        command, token_hash = move.command, hash_token(token)
        table, role, seat, fresh = await self.folds.for_move(game_id, token_hash)
        move.kind = table.kind
        seat = mover(table, role, command, seat)
        seated_in = table
        idem_key, fingerprint = None, ""
        if move.idempotency_key is not None:
            idem_key = key_hash(token_hash, move.idempotency_key)
            fingerprint = body_hash(move.body)
        change = Change(
            # the mover's seat in the fold decided on, every try: it may have moved meanwhile
            lambda t: self._decide(t, command, seat if t is seated_in else seat_of(t, role)),
            _moved,
            mover=role,
            token_hash=token_hash,
            client=move.client,
            if_match=move.if_match,
            idem_key=idem_key,
            fingerprint=fingerprint,
        )
        return await self.change(table, fresh, change)

    async def change(self, table: Fold, fresh: bool, change: Change) -> Answer:
        """Every change's story: load → decide → house → append → tell the followers → answer.

        `table` is the fold this process holds (`fresh`: just read from the store). A decision
        refused, or a client's `If-Match` ahead of it, on a fold not just read is tried again on
        a read; a lost race on the winner's events. A retry with an idempotency key the table's
        log records gets its first answer again, paid for as any request (on a fold not just
        read, a refusal reads first: the key may be in the store's log yet)."""
        for _ in range(_RETRIES):
            if change.idem_key is not None:
                accepted = self.folds.accepted(table, change.idem_key, self.now())
                if accepted is not None:
                    return await self.appends.replayed(table, change, accepted)
            lost: AppendResult | None = None
            if change.if_match is not None and change.if_match != table.version:
                # load: a client that saw a later version than this fold holds reads first
                if fresh or (change.if_match < table.version and not change.idem_key):
                    stale = f"The table is at version {table.version}, not {change.if_match}."
                    raise VersionMismatch(stale)
            else:
                try:
                    # decide, then the house plays on where it is then to act
                    decision = Decision.on(table, self.randomness(table.seed, table.arena))
                    decision.add(change.decide(table))
                    decision.play_on(change.house_calls, change.house_owes)
                except DomainError:
                    if fresh:  # else decided on a fold the store may be ahead of: read again
                        raise
                except NotDue:
                    return Answer(b"", table.version)
                else:
                    if not decision.events:  # nothing to do (a deadline not due after all)
                        return Answer(b"", table.version)
                    # append at the version decided on (the answer made while the store works)
                    pending = self.appends.pending(table, decision.state, decision.events, change)
                    result = await self.appends.append(pending)
                    if result.outcome == "ok":
                        # tell the followers (at once, where the store could), then answer
                        await self.appends.tell(pending)
                        return self.appends.answer(pending)
                    if result.outcome != "conflict":
                        raise rate_limited(result.retry_after_ms)
                    lost = result
            # decide again: after a lost race's winner, else on a read
            table, fresh = await self.folds.after_conflict(table, lost), True
        raise Unavailable("The table is too busy right now; try again.")

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

        def decide(table: Fold) -> list[msgspec.Struct]:
            rules = table.engine
            due = deadline_ms(rules, table.state, table.at)
            if due is None or due > self.now():
                raise NotDue
            waiting = rules.waiting_for(table.state)
            if waiting is None:
                return []
            if house_alone(rules, table.state):
                # The house's paid moves; the request that follows makes no unpaid one.
                decision = Decision.on(table, self.randomness(table.seed, table.arena), alone=paid)
                decision.play_house(calls=False, paused=True)
                return decision.events
            if waiting in rules.house_seats(table.state):
                return []
            return rules.decide(
                table.state, TimeOut(waiting), None, self.randomness(table.seed, table.arena)
            )

        before = table.version
        change = Change(decide, _nobody, house_calls=False, house_owes=True)
        answer = await self.change(table, True, change)
        current = self.folds.held(game_id) or table
        following = deadline_ms(current.engine, current.state, current.at)
        return Acted(answer.version > before, following, current.version)

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
            wait = await self.buckets.take(host_bucket(game_id), rate, burst)
            if wait:
                return taken, wait
            taken += 1
        return taken, 0

    def _decide(
        self, table: Fold, command: msgspec.Struct, seat: int | None
    ) -> list[msgspec.Struct]:
        return table.engine.decide(
            table.state, command, seat, self.randomness(table.seed, table.arena)
        )


def _joined(player_id: str, token: str, made: Made) -> bytes:
    """A taken seat's answer (`Joined`): the table as the new player sees it, and its token."""
    seat = next(r.e.seat for r in made.records if isinstance(r.e, PlayerJoined))
    view = made.table.engine.view(made.state, seat, made.table.game_id, made.version)
    return joined_json(player_id, seat, token, view)


def _house_seated(player_id: str, made: Made) -> bytes:
    """A house player's seat (`HouseSeated`): the table as the host sees it."""
    seat = next(r.e.seat for r in made.records if isinstance(r.e, PlayerJoined))
    view = made.table.engine.view(made.state, None, made.table.game_id, made.version)
    return house_seated_json(player_id, seat, view)


def _started(made: Made) -> bytes:
    """A start's answer: the table as the host (a spectator) sees it."""
    table = made.table
    return view_json(
        table.engine.view(made.state, None, table.game_id, made.version, made.deadline)
    )


def _moved(made: Made) -> bytes:
    """A move's answer (`CommandResult`): the new version, the events as the mover sees them
    (made once for the answer and the mover's streams) and the table as the mover sees it,
    without its openings: the mover was sent each in the event that opened it (docs/api.md)."""
    table = made.table
    view = table.engine.view(
        made.state, made.seat, table.game_id, made.version, made.deadline, openings=False
    )
    return result_json(made.version, made.events, view)


def _nobody(made: Made) -> bytes:
    """A deadline's answer: nobody asked."""
    return b""
