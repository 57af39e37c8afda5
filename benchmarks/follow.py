"""The follow workload (issue 14): two-seat Cheat tables, each seat on its own SSE stream.

A seat moves only when its own stream shows that it is its turn: it learns that, and its hand,
from the events alone (`cheat.round_dealt` shows a seat its own hand and who plays first;
`cheat.cards_played` names who plays next), never from a view. It sends its command with
`If-Match` of the version it saw; a move counts when the mover has its 200 answer. The push delay
is the time from writing a move to the other seat's stream delivering that move's first event.

Everything here is callbacks on `asyncio.Protocol`s, with no task per move and no future per
request: the generator shares two cores with the service and Redis, and must stay cheap.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Generic, Protocol, TypeVar

import msgspec

from benchmarks.connection import Connection, cut_answer

TABLES = 16
T = TypeVar("T")


# -- the events a seat reads (msgspec skips every other field unparsed) ---------------------------


class _Dealt(msgspec.Struct):
    turn: int
    hands: list[list[str] | None]


class _Played(msgspec.Struct):
    seat: int
    count: int
    turn: int


class _Taken(msgspec.Struct):
    seat: int
    count: int
    turn: int | None = None
    cards: list[str] | None = None


class _Framed(msgspec.Struct, Generic[T]):
    """An SSE frame's `data:`: the event as `GET /events` lists it, its fields under `data`."""

    data: T


_DEALT = msgspec.json.Decoder(_Framed[_Dealt])
_PLAYED = msgspec.json.Decoder(_Framed[_Played])
_TAKEN = msgspec.json.Decoder(_Framed[_Taken])
_ACCEPT = b'{"type":"accept"}'
_PLAY = b'{"type":"play","cards":["%s"]}'


# -- the connections ----------------------------------------------------------------------------


class Sender(Protocol):
    """Where a seat's moves go: its command connection here, its socket in socket_follow.py."""

    def send(self, seat: Seat, request: bytes, version: int) -> None: ...


class Follower(Protocol):
    """What a seat follows its table on: its stream here, its socket in socket_follow.py."""

    def close(self) -> None: ...


class Commands(asyncio.Protocol):
    """One seat's keep-alive connection for its commands: one at a time, answers to a callback.

    A move asked for while the previous answer is still on its way waits for it (the stream may
    show the seat's next turn before its own answer arrived); it counts as sent when written.
    """

    def __init__(self, phase: Phase) -> None:
        self.phase = phase
        self.transport: asyncio.Transport
        self.buffer = bytearray()
        self.waiting: Seat | None = None
        self.queued: tuple[Seat, bytes, int] | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def send(self, seat: Seat, request: bytes, version: int) -> None:
        if self.waiting is not None:
            if self.queued is not None:
                self.phase.unsent()  # a newer move replaces the one still queued
            self.queued = (seat, request, version)
            return
        self.waiting = seat
        seat.table.sent(seat.index, version + 1)
        self.transport.write(request)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        while self.waiting is not None:
            if (cut := cut_answer(self.buffer)) is None:
                return
            status, body = cut
            seat, self.waiting = self.waiting, None
            self.phase.answered(seat, status, body)
            if self.queued is not None:
                queued, self.queued = self.queued, None
                if not self.phase.stopping and not queued[0].table.over:
                    self.send(*queued)
                else:
                    self.phase.unsent()

    def connection_lost(self, exc: Exception | None) -> None:
        if self.waiting is not None:
            seat, self.waiting = self.waiting, None
            self.phase.answered(seat, 0, b"the service closed the command connection")
        if self.queued is not None:
            self.queued = None
            self.phase.unsent()

    def close(self) -> None:
        self.transport.close()


class Stream(asyncio.Protocol):
    """One seat's `GET /stream`: chunked transfer-encoding cut into SSE frames as they arrive."""

    def __init__(self, seat: Seat) -> None:
        self.seat = seat
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.body = bytearray()
        self.head = True
        self.chunked = True
        self.closing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        buffer = self.buffer
        buffer += data
        if self.head:
            end = buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(buffer[:end]).lower()
            if head[9:12] != b"200":
                self.fail(f"the stream answered {bytes(buffer[:200])!r}")
                return
            self.chunked = b"transfer-encoding: chunked" in head
            del buffer[: end + 4]
            self.head = False
        body = self.body
        if self.chunked:
            at, size_of = 0, len(buffer)
            while True:
                eol = buffer.find(b"\r\n", at)
                if eol < 0:
                    break
                size = int(buffer[at:eol].split(b";", 1)[0], 16)
                if size == 0:
                    del buffer[:]
                    self.fail("the service ended the stream")
                    return
                start = eol + 2
                if size_of < start + size + 2:
                    break
                body += buffer[start : start + size]
                at = start + size + 2
            del buffer[:at]
        else:
            body += buffer
            del buffer[:]
        if b"\r" in body:
            body = self.body = body.replace(b"\r\n", b"\n")
        while (end := body.find(b"\n\n")) >= 0:
            frame = bytes(body[:end])
            del body[: end + 2]
            if self.closing:
                return
            self._frame(frame)

    def _frame(self, frame: bytes) -> None:
        version, kind, data = -1, b"", b""
        for line in frame.split(b"\n"):
            if line.startswith(b"id:"):
                version = int(line[3:])
            elif line.startswith(b"event:"):
                kind = line[6:].strip()
            elif line.startswith(b"data:"):
                data = line[5:] if not data else data + b"\n" + line[5:]
        if version >= 0:
            self.seat.event(version, kind, data)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.fail(f"the stream was cut: {exc!r}")

    def fail(self, why: str) -> None:
        if not self.closing:
            self.closing = True
            self.seat.table.phase.broken(self.seat.table, why)

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


# -- tables -------------------------------------------------------------------------------------


class Seat:
    """One seat: its hand and the other's card count, both from its own stream."""

    def __init__(self, table: Table, index: int, token: str, commands: Sender) -> None:
        self.table, self.index, self.commands = table, index, commands
        self.hand: list[str] = []
        self.other = 0
        self.dealt = False
        self.stream: Follower | None = None
        path = f"/v1/games/{table.game_id}/commands"
        self.prefix = (
            f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Authorization: Bearer {token}\r\n"
        ).encode()
        self.open_stream = (
            f"GET /v1/games/{table.game_id}/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()

    def event(self, version: int, kind: bytes, data: bytes) -> None:
        table = self.table
        if version == table.sent_version and self.index != table.sent_by:
            table.phase.delays.append(time.perf_counter() - table.sent_at)
            table.sent_version = -1
        if kind == b"cheat.cards_played":
            played = _PLAYED.decode(data).data
            if played.seat != self.index:
                self.other -= played.count
            if played.turn == self.index:
                # The other seat emptied its hand: it may not be played on, only accepted.
                self.move(version, accept=self.other == 0)
        elif kind == b"cheat.round_dealt":
            dealt = _DEALT.decode(data).data
            self.hand = list(dealt.hands[self.index] or ())
            self.other = len(self.hand)  # two seats: the deal leaves both the same count
            if not self.dealt:
                self.dealt = True
                table.seat_dealt()
            if dealt.turn == self.index:
                self.move(version, accept=False)
        elif kind in (b"cheat.pile_taken", b"cheat.penalty_taken"):
            taken = _TAKEN.decode(data).data
            if taken.seat == self.index:
                self.hand += taken.cards or ()
            else:
                self.other += taken.count
            if taken.turn == self.index:
                self.move(version, accept=False)
        elif kind == b"cheat.match_ended":
            table.finish()

    def choose(self, accept: bool) -> bytes:
        """This turn's command, as JSON: accept when told to, else play the hand's last card."""
        return _ACCEPT if accept else _PLAY % self.hand.pop().encode()

    def move(self, version: int, accept: bool) -> None:
        body = self.choose(accept)
        request = b'%sIf-Match: "%d"\r\nContent-Length: %d\r\n\r\n%s' % (
            self.prefix,
            version,
            len(body),
            body,
        )
        self.table.phase.send(self, request, version)


class KeyedSeat(Seat):
    """A seat whose every move carries an `Idempotency-Key`, as every command over the seat
    socket does (its `id`): what the record of each move costs, apart from the transport."""

    def __init__(self, table: Table, index: int, token: str, commands: Sender) -> None:
        super().__init__(table, index, token, commands)
        self.sequence = 0

    def move(self, version: int, accept: bool) -> None:
        self.sequence += 1
        body = self.choose(accept)
        request = b'%sIdempotency-Key: m%d\r\nIf-Match: "%d"\r\nContent-Length: %d\r\n\r\n%s' % (
            self.prefix,
            self.sequence,
            version,
            len(body),
            body,
        )
        self.table.phase.send(self, request, version)


class Table:
    """One two-seat Cheat match of up to 100 rounds, followed by both seats."""

    def __init__(self, phase: Phase, slot: Slot, game_id: str) -> None:
        self.phase, self.slot, self.game_id = phase, slot, game_id
        self.seats: list[Seat] = []
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.over = False
        self.sent_version = -1
        """The version of the first event of the move in flight (-1 once the other seat saw it)."""
        self.sent_by = -1
        self.sent_at = 0.0

    def sent(self, seat: int, version: int) -> None:
        self.sent_version, self.sent_by, self.sent_at = version, seat, time.perf_counter()

    def seat_dealt(self) -> None:
        if all(s.dealt for s in self.seats) and not self.ready.done():
            self.ready.set_result(None)

    def finish(self) -> None:
        """The match ended (or broke): close its streams, and deal a fresh table in its slot."""
        if self.over:
            return
        self.over = True
        for seat in self.seats:
            if seat.stream is not None:
                seat.stream.close()
        if not self.ready.done():
            self.ready.set_result(None)
        if not self.phase.stopping:
            self.phase.spawn(self.slot.deal())


class Slot:
    """Where one table at a time is played: a connection for setting tables up, and one for each
    seat's commands, kept across the tables played in it."""

    def __init__(self, phase: Phase) -> None:
        self.phase = phase
        self.setup: Connection
        self.commands: list[Commands] = []
        self.table: Table | None = None

    async def open(self) -> Slot:
        loop, port = asyncio.get_running_loop(), self.phase.port
        self.setup = await Connection(port).open()
        for _ in range(2):
            _, commands = await loop.create_connection(
                lambda: Commands(self.phase), "127.0.0.1", port
            )
            self.commands.append(commands)
        return self

    async def deal(self) -> Table:
        """Create, seat and start a new table, and open its seats' streams."""
        table, tokens = await self.seated()
        for index, token in enumerate(tokens):
            table.seats.append(self.seat(table, index, token))
        loop, port = asyncio.get_running_loop(), self.phase.port
        for seat in table.seats:
            _, stream = await loop.create_connection(
                lambda seat=seat: Stream(seat), "127.0.0.1", port
            )
            seat.stream = stream
            stream.transport.write(seat.open_stream)  # type: ignore[union-attr]
        return table

    def seat(self, table: Table, index: int, token: str) -> Seat:
        return Seat(table, index, token, self.commands[index])

    async def seated(self) -> tuple[Table, list[str]]:
        """A new table, created, joined by two players and started (its seats not made yet),
        and the players' tokens."""
        conn = self.setup
        status, created = await conn.request(
            "POST", "/v1/games", {"kind": "cheat", "options": {"rounds": 100}}
        )
        if status != 201:
            raise RuntimeError(f"create refused: {status} {created}")
        game_id, host = created["game"]["id"], created["host_token"]
        table = self.table = Table(self.phase, self, game_id)
        tokens = []
        for name in ("A", "B"):
            status, joined = await conn.request(
                "POST", f"/v1/games/{game_id}/players", {"name": name}
            )
            if status != 201:
                raise RuntimeError(f"join refused: {status} {joined}")
            tokens.append(joined["token"])
        status, started = await conn.request("POST", f"/v1/games/{game_id}/start", token=host)
        if status != 200:
            raise RuntimeError(f"start refused: {status} {started}")
        return table, tokens

    def close(self) -> None:
        if self.table is not None:
            self.table.over = True
            for seat in self.table.seats:
                if seat.stream is not None:
                    seat.stream.close()
        self.setup.close()
        for commands in self.commands:
            commands.close()


class KeyedSlot(Slot):
    def seat(self, table: Table, index: int, token: str) -> Seat:
        return KeyedSeat(table, index, token, self.commands[index])


class Phase:
    """`tables` tables on one service: set up, then played from `go()` until `stop()`."""

    def __init__(self, port: int, tables: int) -> None:
        self.port, self.tables = port, tables
        self.slots: list[Slot] = []
        self.going = False
        self.stopping = False
        self.pending: list[tuple[Seat, bytes, int]] = []
        self.in_flight = 0
        self.moves = 0
        self.refused: list[str] = []
        self.lost: list[str] = []
        self.delays: list[float] = []
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.tasks: set[asyncio.Task[Any]] = set()

    async def open(self) -> None:
        """Every table dealt and both its seats shown their hands, no move made yet."""
        self.slots = [await self.slot().open() for _ in range(self.tables)]
        tables = [await slot.deal() for slot in self.slots]
        async with asyncio.timeout(30):
            await asyncio.gather(*(t.ready for t in tables))

    def slot(self) -> Slot:
        """A place for one table at a time (its seats on SSE streams and HTTP commands)."""
        return Slot(self)

    def go(self) -> None:
        self.going = True
        pending, self.pending = self.pending, []
        for seat, request, version in pending:
            self.send(seat, request, version)

    def stop(self) -> None:
        """No new move from now; `done` once every move in flight has its answer."""
        self.stopping = True
        if self.in_flight == 0 and not self.done.done():
            self.done.set_result(None)

    def send(self, seat: Seat, request: bytes, version: int) -> None:
        if self.stopping or seat.table.over:
            return
        if not self.going:
            self.pending.append((seat, request, version))
            return
        self.in_flight += 1
        seat.commands.send(seat, request, version)

    def unsent(self) -> None:
        """A move counted in flight was dropped before it was written."""
        self.in_flight -= 1
        if self.stopping and self.in_flight == 0 and not self.done.done():
            self.done.set_result(None)

    def answered(self, seat: Seat, status: int, body: bytes) -> None:
        self.in_flight -= 1
        if status == 200:
            self.moves += 1
        else:
            self.refused.append(f"{status} {body[:300]!r}")
            seat.table.finish()  # the seats' counts may be wrong now: deal a fresh table
        if self.stopping and self.in_flight == 0 and not self.done.done():
            self.done.set_result(None)

    def broken(self, table: Table, why: str) -> None:
        if not table.over:
            self.lost.append(why)
            table.finish()

    def spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self._settled)

    def _settled(self, task: asyncio.Task[Any]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            self.lost.append(f"a table could not be dealt: {task.exception()!r}")

    async def close(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        if self.tasks:
            await asyncio.wait(list(self.tasks), timeout=5)
        for slot in self.slots:
            slot.close()


class KeyedPhase(Phase):
    """`Phase` with an `Idempotency-Key` on every move (`KeyedSeat`)."""

    def slot(self) -> Slot:
        return KeyedSlot(self)


# -- Redis's own counts -------------------------------------------------------------------------


def script_commands() -> frozenset[str]:
    """The commands the service's Lua scripts run (Redis counts them in `commandstats` too)."""
    lua = resources.files("kronikas.adapters").joinpath("lua")
    found: set[str] = set()
    for script in lua.iterdir():
        if script.name.endswith(".lua"):
            found |= {
                c.lower() for c in re.findall(r"redis\.p?call\(\s*'(\w+)'", script.read_text())
            }
    return frozenset(found)


class RedisStats:
    """`INFO commandstats` over a raw socket (the bench sends Redis nothing else)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader
        self.writer: asyncio.StreamWriter

    async def open(self) -> RedisStats:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        return self

    async def calls(self) -> dict[str, int]:
        """Calls so far by command (lower case), without the bench's own INFO."""
        self.writer.write(b"*2\r\n$4\r\nINFO\r\n$12\r\ncommandstats\r\n")
        head = await self.reader.readline()
        if not head.startswith(b"$"):
            raise RuntimeError(f"INFO answered {head!r}")
        text = (await self.reader.readexactly(int(head[1:]) + 2)).decode()
        calls: dict[str, int] = {}
        for line in text.splitlines():
            if line.startswith("cmdstat_"):
                name, _, stats = line[8:].partition(":")
                calls[name] = int(stats.split(",", 1)[0].removeprefix("calls="))
        calls.pop("info", None)
        return calls

    def close(self) -> None:
        self.writer.close()


# -- one measured phase -------------------------------------------------------------------------


@dataclass
class Followed:
    """One phase's moves, delays, and what each party spent on them."""

    moves: int
    wall_s: float
    delays: list[float]
    service_cpu_s: float
    redis_cpu_s: float
    generator_cpu_s: float
    cores_busy: float
    others_cpu_s: float
    """CPU the machine spent on anything but the service, Redis and the generator (another
    program's load shows here, and makes the phase's figures suspect)."""
    redis_calls: dict[str, int]
    refused: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


async def follow(
    port: int,
    tables: int,
    seconds: float,
    service_cpu: Callable[[], float],
    redis_cpu: Callable[[], float],
    cores: Callable[[], tuple[float, float]],
    stats: RedisStats,
    kind: Callable[[int, int], Phase] = Phase,
    around: AbstractAsyncContextManager[object] | None = None,
) -> Followed:
    """Set up `tables` tables, play them for `seconds`, and take every count around the play
    (`kind`: the seats over SSE and HTTP, or `socket_follow.SocketPhase` over a seat socket;
    `around`, entered once the tables are set up and left once the counts are taken: a profiler
    attached to the service, in benchmarks/profile_diff.py)."""
    phase = kind(port, tables)
    try:
        await phase.open()
        async with around or contextlib.nullcontext():
            redis0 = await stats.calls()
            service0, store0, busy0 = service_cpu(), redis_cpu(), cores()
            generator0, wall0 = time.process_time(), time.perf_counter()
            phase.go()
            await asyncio.sleep(seconds)
            phase.stop()
            async with asyncio.timeout(30):
                await phase.done
            wall, generator = time.perf_counter() - wall0, time.process_time() - generator0
            service, store, busy1 = service_cpu() - service0, redis_cpu() - store0, cores()
            redis1 = await stats.calls()
    finally:
        await phase.close()
    await asyncio.sleep(0.2)  # the closed streams' goodbyes fall outside the next phase
    delta = {name: n - redis0.get(name, 0) for name, n in redis1.items()}
    busy = (busy1[0] - busy0[0]) / (busy1[1] - busy0[1]) if busy1[1] > busy0[1] else 0.0
    others = (busy1[0] - busy0[0]) / os.sysconf("SC_CLK_TCK") - service - store - generator
    return Followed(
        phase.moves,
        wall,
        phase.delays,
        service,
        store,
        generator,
        busy,
        max(0.0, others),
        {name: n for name, n in delta.items() if n},
        phase.refused,
        phase.lost,
    )


def figures(
    phases: list[Followed], suffix: str, scripted: frozenset[str], workload: str = "follow"
) -> dict[str, Any]:
    """The keys of `bench-results.json` for phases of one configuration (`suffix`), named
    `follow_…` (or `socket_…` for the same workload over the seat socket)."""
    moves = sum(p.moves for p in phases)
    wall = sum(p.wall_s for p in phases)
    delays = sorted(d for p in phases for d in p.delays)
    calls: dict[str, int] = {}
    for p in phases:
        for name, n in p.redis_calls.items():
            calls[name] = calls.get(name, 0) + n
    # A script call counts once; a command sent outside scripts counts once; the commands the
    # scripts run inside count only among all the commands Redis ran, and so do a replica's
    # acknowledgements (REPLCONF ACK, which a WAIT asks of it).
    sent = sum(
        n
        for name, n in calls.items()
        if name in ("evalsha", "eval") or (name not in scripted and name != "replconf")
    )
    per = max(moves, 1)
    generator = sum(p.generator_cpu_s for p in phases)
    return {
        f"{workload}_moves_per_s{suffix}": moves / wall if wall else 0.0,
        f"{workload}_push_p50_ms{suffix}": delays[len(delays) // 2] * 1000 if delays else 0.0,
        f"{workload}_push_p99_ms{suffix}": delays[int(len(delays) * 0.99)] * 1000
        if delays
        else 0.0,
        f"{workload}_service_cpu_us_per_move{suffix}": sum(p.service_cpu_s for p in phases)
        / per
        * 1e6,
        f"{workload}_redis_cpu_us_per_move{suffix}": sum(p.redis_cpu_s for p in phases) / per * 1e6,
        f"{workload}_redis_calls_per_move{suffix}": sent / per,
        f"{workload}_redis_commands_per_move{suffix}": sum(calls.values()) / per,
        f"{workload}_generator_cpu_us_per_move{suffix}": generator / per * 1e6,
        f"{workload}_generator_cpu_share{suffix}": generator / wall if wall else 0.0,
        f"{workload}_cores_busy{suffix}": sum(p.cores_busy * p.wall_s for p in phases) / wall
        if wall
        else 0.0,
        f"{workload}_others_cores{suffix}": sum(p.others_cpu_s for p in phases) / wall
        if wall
        else 0.0,
        f"{workload}_redis_per_move{suffix}": {
            name: round(n / per, 3)
            for name, n in sorted(calls.items(), key=lambda c: -c[1])
            if n / per >= 0.0005
        },
        f"{workload}_refused{suffix}": sum(len(p.refused) for p in phases),
        f"{workload}_streams_lost{suffix}": sum(len(p.lost) for p in phases),
        f"{workload}_problems{suffix}": [why for p in phases for why in (p.refused + p.lost)][:5],
    }
