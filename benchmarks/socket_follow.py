"""The follow workload over the seat socket (issue 27): benchmarks/follow.py, one WebSocket a seat.

The same two-seat Cheat tables, the same seats (`follow.Seat`: what they read from the events,
which card they play), the same counts (`follow.follow`, `follow.figures` with `socket_` keys):
only the transport differs. Each seat opens `/v1/games/{id}/socket`, says `hello` with its
token, learns its turn from the `events` the socket pushes and from the events of its own
`result`, and moves with a `command` carrying `if_match` of the version it saw. A move counts
when the mover has its `result`; the push delay runs from writing a move to the other seat's
socket delivering its first event.

As in follow.py, everything is callbacks on an `asyncio.Protocol`: the WebSocket framing is
`websockets`' sans-IO `ClientProtocol` (C-accelerated masking, no task, no future a message),
so that the generator stays cheap beside the service and Redis on the same two cores.

    uv run python -m benchmarks.socket_follow [--transport socket|http|http-keyed ...]
        [--tables 16] [--seconds 20] [--rounds 1] [--ws websockets|wsproto]

runs the phase alone on a fresh bundled Redis and one-worker service, printing the worker's pid
first (for `py-spy record --pid`), then its figures; given several transports and rounds, their
phases take turns on that service and each is compared with the first (the medians of the
pairs): `--transport http --transport http-keyed --transport socket --rounds 8 --seconds 3`
tells the socket's own cost from the idempotency record's (every socket command has an `id`).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import math
import statistics
import tempfile
from collections.abc import Callable
from typing import Any

import msgspec
import uvloop
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from benchmarks import follow
from benchmarks.commands import warm_up
from benchmarks.connection import Connection
from benchmarks.served import Service, cores_busy, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis

# -- the messages a seat reads (msgspec skips every other field unparsed) -------------------------


class _Result(msgspec.Struct):
    events: list[msgspec.Raw] = []


class _Problem(msgspec.Struct):
    status: int = 0


class _Message(msgspec.Struct):
    """A server message: `events`, `result` and `problem` are read, the rest only recognised."""

    type: str
    id: str | None = None
    events: list[msgspec.Raw] = []
    result: _Result | None = None
    problem: _Problem | None = None


class _Envelope(msgspec.Struct):
    """An event's type and version (the seat decodes the fields it needs from the same bytes)."""

    type: str
    version: int


_MESSAGE = msgspec.json.Decoder(_Message)
_ENVELOPE = msgspec.json.Decoder(_Envelope)
_KINDS: dict[str, bytes] = {}
"""Event types as the bytes `follow.Seat.event` compares (an SSE frame's `event:` line)."""


def _kind(name: str) -> bytes:
    kind = _KINDS.get(name)
    if kind is None:
        kind = _KINDS[name] = name.encode()
    return kind


# -- the socket ---------------------------------------------------------------------------------


class SeatSocket(asyncio.Protocol):
    """One seat's WebSocket: the handshake, `hello`, then commands out and messages in.

    It is the seat's `Sender` (its moves) and its `Follower` (what `Table.finish` closes). The
    server answers a socket's commands in order, one at a time, so an answer is always for the
    oldest command still unanswered.
    """

    def __init__(self, seat: SocketSeat, port: int, token: str) -> None:
        self.seat = seat
        self.token = token
        uri = parse_uri(f"ws://127.0.0.1:{port}/v1/games/{seat.table.game_id}/socket")
        self.ws = ClientProtocol(uri, max_size=None)
        self.transport: asyncio.Transport | None = None
        self.unanswered = 0
        self.closing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def _flush(self) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        for data in self.ws.data_to_send():
            if data:
                transport.write(data)

    def send(self, seat: follow.Seat, request: bytes, version: int) -> None:
        """A move (`request` is its `command` message), written at once."""
        self.unanswered += 1
        seat.table.sent(seat.index, version + 1)
        self.ws.send_text(request)
        self._flush()

    def data_received(self, data: bytes) -> None:
        ws = self.ws
        ws.receive_data(data)
        for event in ws.events_received():
            if type(event) is Frame:
                if event.opcode is Opcode.TEXT and not self.closing:
                    self._message(event.data)
            elif type(event) is Response:
                if event.status_code != 101:
                    self.fail(f"the socket's handshake answered {event.status_code}")
                    return
                hello = {"type": "hello", "token": self.token, "after": 0, "views": False}
                ws.send_text(json.dumps(hello).encode())
        self._flush()  # the hello, a pong to a ping, a close frame's answer
        if ws.close_expected() and not self.closing:
            self.fail(f"the service closed the socket: {ws.close_rcvd}")

    def _message(self, data: bytes) -> None:
        message = _MESSAGE.decode(data)
        kind, seat = message.type, self.seat
        if kind == "events":
            for event in message.events:
                seat.pushed(event)
        elif kind == "result":
            self.unanswered -= 1
            seat.table.phase.answered(seat, 200, b"")
            assert message.result is not None
            for event in message.result.events:
                seat.pushed(event)
        elif kind == "problem":
            if message.id is None:
                self.fail(f"the service could not read a message: {bytes(data[:300])!r}")
                return
            self.unanswered -= 1
            status = message.problem.status if message.problem is not None else 0
            seat.table.phase.answered(seat, status, bytes(data))

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.fail(f"the socket was cut: {exc!r}")
        self._drop()

    def _drop(self) -> None:
        """Moves written and never answered: dropped (their table has ended or broken)."""
        phase = self.seat.table.phase
        while self.unanswered > 0:
            self.unanswered -= 1
            phase.unsent()

    def fail(self, why: str) -> None:
        if not self.closing:
            self.close()
            self.seat.table.phase.broken(self.seat.table, why)

    def close(self) -> None:
        """A close frame (when open), and the connection closed; its table is over."""
        if self.closing:
            return
        self.closing = True
        if self.transport is not None:
            try:
                self.ws.send_close(1000)
                self._flush()
            except Exception:  # not open yet, or closed already
                pass
            self.transport.close()
        self._drop()


# -- seats, slots, the phase --------------------------------------------------------------------


class SocketSeat(follow.Seat):
    """A `follow.Seat` that follows and moves over its own socket."""

    def __init__(self, table: follow.Table, index: int, token: str, port: int) -> None:
        self.table = table  # the socket reads the game's id from it
        self.socket = SeatSocket(self, port, token)
        super().__init__(table, index, token, self.socket)
        self.stream = self.socket
        self.sequence = 0

    def pushed(self, event: msgspec.Raw) -> None:
        """An event from the socket, in its envelope, as an SSE frame's `data:` carries it."""
        envelope = _ENVELOPE.decode(event)
        self.event(envelope.version, _kind(envelope.type), event)  # type: ignore[arg-type]

    def move(self, version: int, accept: bool) -> None:
        self.sequence += 1
        message = b'{"type":"command","id":"m%d","command":%s,"if_match":%d}' % (
            self.sequence,
            self.choose(accept),
            version,
        )
        self.table.phase.send(self, message, version)


class SocketSlot(follow.Slot):
    """A `follow.Slot` whose seats open a socket each (no command connections: the socket
    carries the moves)."""

    async def open(self) -> SocketSlot:
        self.setup = await Connection(self.phase.port).open()
        return self

    async def deal(self) -> follow.Table:
        table, tokens = await self.seated()
        port = self.phase.port
        seats = [SocketSeat(table, index, token, port) for index, token in enumerate(tokens)]
        table.seats.extend(seats)
        loop = asyncio.get_running_loop()
        for seat in seats:
            await loop.create_connection(lambda s=seat.socket: s, "127.0.0.1", port)
        return table


class SocketPhase(follow.Phase):
    """`follow.Phase` with every seat on a seat socket."""

    def slot(self) -> follow.Slot:
        return SocketSlot(self)


# -- the phase alone (for a profiler), or the transports in turns ------------------------------

TRANSPORTS: dict[str, Callable[[int, int], follow.Phase]] = {
    "http": follow.Phase,
    "http-keyed": follow.KeyedPhase,
    "socket": SocketPhase,
}
"""The follow workload over SSE and HTTP, the same with an `Idempotency-Key` on every move (what
every socket command records), and over the seat socket."""


async def _phase(
    service: Any, redis: Any, stats: follow.RedisStats, kind: Any, tables: int, seconds: float
) -> dict[str, Any]:
    phase = await follow.follow(
        service.port,
        tables,
        seconds,
        functools.partial(cpu_seconds, service.process.pid),
        functools.partial(cpu_seconds, redis.process.pid),
        cores_busy,
        stats,
        kind,
    )
    return follow.figures([phase], "", follow.script_commands(), "x")


async def _run(
    transports: list[str], tables: int, seconds: float, rounds: int, ws: str | None
) -> None:
    """`rounds` rounds of a phase of each transport, in turns (reversed every other round), on
    one fresh one-worker service and Redis; with one transport and one round, the worker's pid
    is printed first, for `py-spy record --pid`."""
    got: dict[str, list[dict[str, Any]]] = {name: [] for name in transports}
    with (
        tempfile.TemporaryDirectory() as data,
        EmbeddedRedis(data, None, "--appendonly", "no") as redis,
    ):
        service = Service(redis.url, 1, ws=ws)
        try:
            await service.ready()
            await warm_up(service.port)
            print(f"service pid {service.process.pid}", flush=True)
            stats = await follow.RedisStats(redis.port).open()
            for turn in range(rounds):
                for name in transports if turn % 2 == 0 else transports[::-1]:
                    found = await _phase(service, redis, stats, TRANSPORTS[name], tables, seconds)
                    got[name].append(found)
            stats.close()
        finally:
            service.stop()
    print(f"{tables} table(s), {rounds} round(s) of {seconds:g} s; medians of the phases:")
    first = got[transports[0]]
    for name, phases in got.items():

        def median(key: str, phases: list[dict[str, Any]] = phases) -> float:
            return statistics.median(p[f"x_{key}"] for p in phases)

        def ratio(key: str, phases: list[dict[str, Any]] = phases) -> float:
            # A short phase on a busy machine may see no tick of a process's CPU: not a ratio.
            pairs = zip(phases, first, strict=True)
            ratios = [p[f"x_{key}"] / q[f"x_{key}"] for p, q in pairs if q[f"x_{key}"]]
            return statistics.median(ratios) if ratios else math.nan

        problems = sum(p["x_refused"] + p["x_streams_lost"] for p in phases)
        print(
            f"  {name}: service CPU a move {median('service_cpu_us_per_move'):.0f} µs "
            f"(/{transports[0]} {ratio('service_cpu_us_per_move'):.3f}), Redis CPU a move "
            f"{median('redis_cpu_us_per_move'):.1f} µs ({ratio('redis_cpu_us_per_move'):.3f}), "
            f"{median('redis_commands_per_move'):.1f} Redis commands, push p50 "
            f"{median('push_p50_ms'):.3f} ms ({ratio('push_p50_ms'):.3f}), "
            f"{median('moves_per_s'):,.0f} moves/s, other programs "
            f"{median('others_cores'):.2f} cores, {problems} refused or lost"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--transport",
        choices=list(TRANSPORTS),
        action="append",
        help="the phase to run (again for more, taking turns); default: socket",
    )
    parser.add_argument("--tables", type=int, default=follow.TABLES)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--ws", help="the service's SOCKET_IMPLEMENTATION (websockets, wsproto)")
    args = parser.parse_args()
    transports = args.transport or ["socket"]
    uvloop.run(_run(transports, args.tables, args.seconds, args.rounds, args.ws))


if __name__ == "__main__":
    main()
