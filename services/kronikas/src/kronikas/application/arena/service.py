"""The arena's use cases: entrants, the queue and its long-poll, matchmaking, the leaderboard
and finished sets (docs/arena.md). Any number of processes run them on one Redis: every
decision is an event of the arena's log appended at the version it was decided on
(application/arena/log.py), so a lost race is decided again on the winner's events.

A tick — on every queue request and long-poll, and every `ARENA_TICK_S` in each process —
drops waiting entrants that stopped polling, forms the sets that can be formed, opens their
tables, abandons a set whose tables were never opened, and notes the tables that finished;
once a whole set has finished, it rates the set (once: `SetRated` is appended at a version).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Callable

from kronikas.application.arena import rating, reads, snapshot
from kronikas.application.arena.entrants import Entrant, Entrants
from kronikas.application.arena.log import (
    ArenaEvent,
    ArenaState,
    InPlay,
    Left,
    Queued,
    Revoked,
    SetAbandoned,
    SetFormed,
    SetOpened,
    SetRated,
    TableFinished,
    decode_event,
    encode,
)
from kronikas.application.arena.matchmaking import form, standing_of
from kronikas.application.arena.ports import ArenaStore, LogRead
from kronikas.application.arena.sets import SetTables, TableGone, decode_seat
from kronikas.application.arena.wire import (
    EntrantCreated,
    EntrantPage,
    Leaderboard,
    SetPage,
    Ticket,
)
from kronikas.application.errors import ArenaBusy, InvalidRequest, Unavailable, quoted, rate_limited
from kronikas.application.games import Games
from kronikas.application.house import now_ms
from kronikas.application.wire import utc_text
from kronikas.config import Settings

log = logging.getLogger("kronikas.arena")

_RETRIES = 16
POLL_S = 0.25
"""How often a long-poll looks at the log again while its entrant waits."""
STOP_WAIT_S = 5.0
"""How long a stopping process waits for its tick to end."""
TICK_EVERY_MS = 200
"""A process ticks at most this often on requests (the log is read on each)."""

Decide = Callable[[ArenaState], list[ArenaEvent]]


class Arena:
    """The arena as one process serves it: a fold of the log, and the use cases on it."""

    def __init__(
        self,
        store: ArenaStore,
        games: Games,
        settings: Settings,
        now: Callable[[], int] = now_ms,
    ) -> None:
        self.store, self.games, self.settings, self.now = store, games, settings, now
        self.engines = games.engines
        self.entrants = Entrants(store, games.stores.buckets, settings, self.engines, now)
        self.tables = SetTables(games, store, self.entrants, settings)
        self.state = ArenaState()
        self._folding = asyncio.Lock()
        self._ticking = asyncio.Lock()
        self._ticked = 0
        self._task: asyncio.Task[None] | None = None
        self._length = 0  # the log's length (past its trimmed head) as last read (`_due`)
        self._last: bytes | None = None  # the last event folded (None: none since a snapshot)
        self._stopping = False

    # the log

    async def refresh(self) -> ArenaState:
        """The fold, caught up with the log (`_read`)."""
        async with self._folding:
            read = await self._read()
            if read.snapshot is not None:  # behind the trimmed head: from the snapshot on
                self.state, self._last = snapshot.restore(read.snapshot), None
            rated: dict[str, bytes] = {}
            for raw in read.records:
                event = decode_event(raw)
                self.state.apply(event)
                self._last = raw
                if isinstance(event, SetRated):
                    rated[event.set_id] = raw
            self._length = self.state.version - read.base
            if self.state.version - read.base >= self.settings.arena_compact_every:
                await self.store.compact(self.state.version, snapshot.snapshot(self.state))
        if rated:  # every process keeps them (idempotent); then the sets' tables open to all
            await self.store.keep_results(rated)
            await self.store.finish_sets(list(rated))
        return self.state

    async def _read(self) -> LogRead:
        """The log after the fold, read from its last event: a log without it (emptied, or a
        failover lost its tail) is folded again from its start, never decided on blindly."""
        version, last = self.state.version, self._last
        if last is None:  # nothing folded, or a snapshot alone: nothing to compare
            return await self.store.read_log(version)
        read = await self.store.read_log(version - 1)
        if read.snapshot is not None:  # trimmed past the fold since: the snapshot is the log's
            return read
        if read.records[:1] == [last]:
            return read._replace(records=read.records[1:])
        log.warning("the arena's log is not the one folded here", extra={"version": version})
        self.state, self._last = ArenaState(), None
        return await self.store.read_log(0)

    async def decide(self, decide: Decide) -> bool:
        """Decide on the fold and append at its version (again on a lost race): appended?"""
        for _ in range(_RETRIES):
            state = await self.refresh()
            version = state.version
            events = decide(state)
            if not events:
                return False
            if await self.store.append(version, [encode(e) for e in events]):
                await self.refresh()
                return True
        raise Unavailable("The arena is too busy right now; try again.")

    # entrants

    async def register(self, name: str, games: list[str], client: str | None) -> EntrantCreated:
        """Register an entrant (`Entrants.register`)."""
        return await self.entrants.register(name, games, client)

    async def revoke(self, entrant_id: str, token: str) -> None:
        """Revoke an entrant: it leaves any queue and the leaderboard; its token stops."""
        entrant = await self.entrants.revoke(entrant_id, token)
        await self.decide(lambda s: [] if entrant_id in s.revoked else [Revoked(entrant_id)])
        await self.store.forget_polls([entrant.entrant_id])

    async def _entrant(self, token: str, client: str | None) -> Entrant:
        """The token's entrant, its queue requests limited (per entrant and per address)."""
        await self.games.read_paid(client)
        entrant = await self.entrants.of_token(token)
        per_min = self.settings.arena_queue_per_min
        wait = await self.games.stores.buckets.take(
            f"arena-queue:{entrant.entrant_id}", per_min / 60, per_min
        )
        if wait:
            raise rate_limited(wait)
        return entrant

    async def entrant_page(self, entrant_id: str, client: str | None) -> EntrantPage:
        """An entrant's page: its ratings and its recent matches (finished sets only)."""
        await self.games.read_paid(client)
        entrant = await self.entrants.get(entrant_id)
        return reads.entrant_page(await self.refresh(), entrant)

    async def leaderboard(
        self, kind: str, players: int, limit: int, client: str | None
    ) -> Leaderboard:
        """A pool's leaderboard, best first by ordinal."""
        await self.games.read_paid(client)
        if kind not in self.engines:
            raise InvalidRequest(f"There is no game {quoted(kind)} here (`GET /v1/kinds`).")
        state = await self.refresh()
        return await reads.leaderboard(state, self.entrants, kind, players, limit)

    async def set_page(self, set_id: str, client: str | None) -> SetPage:
        """A finished set; 409 `set_in_play` before it finished."""
        await self.games.read_paid(client)
        state = await self.refresh()
        raw = None if len(set_id) > 64 else await self.store.result(set_id)
        rated = None if raw is None else decode_event(raw)
        return reads.set_page(state, set_id, rated if isinstance(rated, SetRated) else None)

    # the queue

    async def enqueue(self, token: str, kind: str, players: int, client: str | None) -> Ticket:
        """Wait in the pool (`kind`, `players`): the ticket (`waiting`, or `seated` at once)."""
        entrant = await self._entrant(token, client)
        engine = self.engines.get(kind)
        if engine is None or kind not in entrant.games:
            raise InvalidRequest(f"This entrant plays {entrant.games!r}, not {quoted(kind)}.")
        options = engine.options()
        if not engine.seats.least <= players <= engine.max_players(options):
            raise InvalidRequest(
                f"A {kind!r} table seats {engine.seats.least} to "
                f"{engine.max_players(options)}, not {players}."
            )
        entrant_id, at = entrant.entrant_id, self.now()
        await self._settle(entrant_id)

        def queued(state: ArenaState) -> list[ArenaEvent]:
            waiting = state.waiting.get(entrant_id)
            if waiting is not None and (waiting.kind, waiting.players) == (kind, players):
                return []
            if waiting is not None or entrant_id in state.seated:
                raise ArenaBusy("This entrant is waiting in another pool or seated: leave first.")
            return [Queued(entrant_id, kind, players, entrant.owner, at)]

        await self.decide(queued)
        await self.store.polled(entrant_id, self.now())
        await self.tick()
        return await self._ticket(entrant_id)

    async def leave(self, token: str, client: str | None) -> None:
        """Leave the queue (nothing when not waiting; a seat is the table's to leave)."""
        entrant = await self._entrant(token, client)
        entrant_id = entrant.entrant_id
        await self.decide(lambda s: [Left(entrant_id, "left")] if entrant_id in s.waiting else [])
        await self.store.forget_polls([entrant_id])

    async def ticket(
        self, token: str, wait: float, client: str | None, prepaid: bool = False
    ) -> Ticket:
        """Where the entrant stands; while it waits, up to `wait` s for a seat. `prepaid`: asked
        in the call of a queue request, which paid for both (MCP's `arena_enter`)."""
        entrant = await (self.entrants.of_token(token) if prepaid else self._entrant(token, client))
        entrant_id = entrant.entrant_id
        loop = asyncio.get_running_loop()
        until = loop.time() + wait
        # a long-poll holds a place of its token's and its address's, as the tables' do
        release = self.games.queries.holds.hold(token, client) if wait > 0 else None
        try:
            while True:
                await self.tick()
                await self._settle(entrant_id)
                found = await self._ticket(entrant_id)
                if found.status == "waiting":
                    await self.store.polled(entrant_id, self.now())
                left = until - loop.time()
                if found.status != "waiting" or left <= 0:
                    return found
                await asyncio.sleep(min(POLL_S, left))
        finally:
            if release is not None:
                release()

    async def _settle(self, entrant_id: str) -> None:
        """Note at once that the entrant's table finished, if it did: it may queue again (and
        its ticket says `idle`) without waiting for a tick."""
        at = self.state.seated.get(entrant_id)
        held = None if at is None else self.state.in_play.get(at[0])
        if at is None or held is None or held.tables is None:
            return
        with contextlib.suppress(TableGone):  # the tick drops its set
            if await self.tables.places(held.tables[at[1]]) is not None:
                await self._finish_set(held)  # its table, and the set if it was the last

    async def _ticket(self, entrant_id: str) -> Ticket:
        state = self.state
        waiting = state.waiting.get(entrant_id)
        if waiting is not None:
            return Ticket("waiting", waiting.kind, waiting.players, utc_text(waiting.since_ms))
        at = state.seated.get(entrant_id)
        held = None if at is None else state.in_play.get(at[0])
        if at is None or held is None:
            return Ticket("idle")
        raw = None if held.tables is None else await self.store.seat(held.set_id, entrant_id)
        if raw is None:  # its set's tables are being made
            return Ticket("waiting", held.kind, held.players, utc_text(held.formed_ms))
        seat = decode_seat(raw)
        return Ticket(
            "seated",
            held.kind,
            held.players,
            None,
            held.set_id,
            seat.table_id,
            seat.seat,
            seat.token,
        )

    # the tick

    def run(self) -> None:
        """Tick every `ARENA_TICK_S` in this process."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop ticking: the task is cancelled, and ends at its next step should a store call
        it was in have turned the cancellation into an error it logged."""
        self._stopping = True
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            await asyncio.wait([task], timeout=STOP_WAIT_S)

    async def _run(self) -> None:
        while not self._stopping:
            await asyncio.sleep(self.settings.arena_tick_s)
            try:
                if await self._due():
                    await self.tick(force=True)
            except Unavailable:  # the store said so (a warning line); the next tick tries again
                if not self._stopping:
                    log.warning("arena: the store does not answer; the next tick tries again")
            except Exception:  # the next tick tries again
                if not self._stopping:
                    log.exception("the arena's tick failed")

    async def _due(self) -> bool:
        """Whether the periodic tick has anything to do: while the fold holds waiting entrants
        or sets in play, else once the log moved (one LLEN: an idle arena reads no log)."""
        if self.state.waiting or self.state.in_play:
            return True
        return await self.store.log_length() != self._length

    async def tick(self, force: bool = False) -> None:
        """Catch up with the log, and do what falls due (the module's docstring)."""
        now = self.now()
        if self._ticking.locked() or (not force and now - self._ticked < TICK_EVERY_MS):
            await self.refresh()
            return
        async with self._ticking:
            self._ticked = now
            await self.refresh()
            await self._drop_idle(now)
            await self._form(now)
            await self._abandon(now)
            await self._finish()

    async def _drop_idle(self, now: int) -> None:
        """Drop the waiting entrants that stopped asking for their tickets."""
        idle_ms = self.settings.arena_idle_s * 1000
        polls = await self.store.last_polls()
        stale = [
            e
            for e, w in self.state.waiting.items()
            if now - max(polls.get(e, 0), w.since_ms) > idle_ms
        ]
        if not stale:
            return
        await self.decide(lambda s: [Left(e, "dropped") for e in stale if e in s.waiting])
        await self.store.forget_polls(stale)

    async def _form(self, now: int) -> None:
        """Form the sets the pools can form now, and open their tables."""
        fill_ms = self.settings.arena_fill_s * 1000
        pools = sorted({(w.kind, w.players) for w in self.state.waiting.values()})
        for kind, players in pools:
            for seats in form(self.state, kind, players, now, fill_ms, rating.ordinal):
                await self._form_set(kind, players, seats, now)

    async def _form_set(self, kind: str, players: int, seats: list[list[str]], now: int) -> None:
        """Claim the set's entrants (if all still wait in the pool), then open its tables."""
        set_id = f"set_{secrets.token_hex(8)}"
        real = [e for row in seats for e in row if standing_of(e) is None]

        def formed(state: ArenaState) -> list[ArenaEvent]:
            for entrant in real:
                waiting = state.waiting.get(entrant)
                if waiting is None or (waiting.kind, waiting.players) != (kind, players):
                    return []
            return [SetFormed(set_id, kind, players, seats, now)]

        if await self.decide(formed):
            await self._open(set_id, kind, players, seats)

    async def _open(self, set_id: str, kind: str, players: int, seats: list[list[str]]) -> None:
        try:
            tables = await self.tables.open(set_id, kind, players, seats)
        except Exception:  # left unopened, the set is abandoned (`_abandon`)
            log.exception("a set's tables could not be opened", extra={"set_id": set_id})
            return
        await self.decide(
            lambda s: (
                [SetOpened(set_id, tables)]
                if set_id in s.in_play and s.in_play[set_id].tables is None
                else []
            )
        )
        await self.store.forget_polls([e for row in seats for e in row])

    async def _abandon(self, now: int) -> None:
        """Abandon the sets whose tables were not opened in time: their entrants are free."""
        late = now - self.settings.arena_open_s * 1000
        stale = [
            s.set_id for s in self.state.in_play.values() if s.tables is None and s.formed_ms < late
        ]
        if stale:
            await self.decide(
                lambda s: [
                    SetAbandoned(i) for i in stale if i in s.in_play and s.in_play[i].tables is None
                ]
            )

    async def _finish(self) -> None:
        """Note the tables that finished; rate each set whose tables all did."""
        for held in list(self.state.in_play.values()):
            await self._finish_set(held)

    async def _finish_set(self, held: InPlay) -> None:
        """Note the set's tables that finished; rate it once they all did."""
        if held.tables is None:
            return
        try:
            places: list[list[float] | None] = [await self.tables.places(t) for t in held.tables]
        except TableGone:  # never rated: its entrants are free again
            log.warning("an arena table is gone", extra={"set_id": held.set_id})
            await self._drop_set(held.set_id)
            return
        done = [j for j, p in enumerate(places) if p is not None and j not in held.finished]
        if done:
            await self._finished(held.set_id, done)
        if all(p is not None for p in places):
            await self._rate(held.set_id, [p for p in places if p is not None])

    async def _drop_set(self, set_id: str) -> None:
        await self.decide(lambda s: [SetAbandoned(set_id)] if set_id in s.in_play else [])

    async def _finished(self, set_id: str, done: list[int]) -> None:
        def finished(state: ArenaState) -> list[ArenaEvent]:
            held = state.in_play.get(set_id)
            if held is None:
                return []
            return [TableFinished(set_id, j) for j in done if j not in held.finished]

        await self.decide(finished)

    async def _rate(self, set_id: str, places: list[list[float]]) -> None:
        finished_at = utc_text(self.now())

        def rated(state: ArenaState) -> list[ArenaEvent]:
            held = state.in_play.get(set_id)
            if held is None or held.tables is None:
                return []  # rated (or abandoned) already
            pool = state.ratings.get((held.kind, held.players), {})
            return [rating.rate(held, held.tables, places, pool, finished_at)]

        if await self.decide(rated):
            log.info("arena set rated", extra={"set_id": set_id})


__all__ = ["Arena"]
