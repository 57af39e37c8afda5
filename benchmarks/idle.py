"""Idle connections (issue 43, item 4): what one worker spends on seats that wait.

Two sub-phases, each on a fresh one-worker service of its own (so that its memory before the
connections is not what the other left): 10,000 idle seat sockets, then 10,000 idle SSE streams.
Not both at once: each connection is a file on both sides of loopback, and 20,000 of them in one
worker would pass the hard open-file limit this machine gives a process (20,000). The limits
that would refuse them are lifted, not dodged: the service is `benchmarks.served.Service`
(`MAX_CONNECTIONS`, `CONNECTIONS_PER_ADDRESS`, `STREAMS_PER_ADDRESS`, `STREAMS_PER_TOKEN` and
the rate limits lifted) and every client connects from 127.0.0.1; the service raises its own
open-file limit to `MAX_CONNECTIONS` (capped by the hard limit: kronikas/serve.py), and this
process raises its own (benchmarks/crowd.py, `raise_fd_limit`).

Each connection is a seat of a four-seat Cheat table dealt on that worker for the purpose (its
fold held there before the first figure is taken; four seats a table, so that the 2,500 tables
stay within the folds a worker holds, 4,096: with two-seat tables, 5,000 of them, the seats of
tables the cache had let go brought their tables back, and the memory a connection seemed to
cost grew with the connections: 17.9, 22.0 and 25.9 KiB at 1,000, 5,000 and 10,000). A socket
says `hello` with the seat's token and then only pings as a client must (docs/api.md: `ping`
whenever nothing else was sent for `min(heartbeat_s, idle_s / 3)` = 15 s, spread evenly; it
would answer the server's WebSocket pings as any client library does, and the service sends
none); a stream is `GET …/stream` with the seat's token, read and
nothing else (the server sends a `: keep-alive` line every 15 s).

It reports the worker's resident memory (`VmRSS`) before the connections and at a tenth, half
and all of them (the memory a connection costs at each: linear when the three agree), the
worker's CPU while they idle (`--seconds`, 30 by default) beside its CPU with none open (what
their heartbeats cost), what the clients heard meanwhile, and the generator's and Redis's CPU.
A plot of the memory against the connections open is written next to the JSON.

    uv run python -m benchmarks.idle [--connections 10000] [--seconds 30] [--only socket]
    uv run python -m benchmarks.bench --only idle
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import uvloop
from websockets.client import ClientProtocol
from websockets.frames import Frame, Opcode
from websockets.http11 import Response
from websockets.uri import parse_uri

from benchmarks.commands import warm_up
from benchmarks.connection import Connection
from benchmarks.crowd import fd_limit, raise_fd_limit, rss_mib
from benchmarks.served import ROOT, Service, cpu_seconds
from kronikas.adapters.embedded_redis import EmbeddedRedis

CONNECTIONS = 10_000
PING_S = 15.0
"""A client's ping interval: what the SDKs send, `min(heartbeat_s, idle_s / 3)` of `welcome`."""
OPENING = 64
"""Connections opened at once."""
SEATS = 4
"""Seats a table: 10,000 connections are the seats of 2,500 tables."""
SETUP_CONNECTIONS = 16
"""Keep-alive connections the tables are dealt on, in parallel."""
SETTLE_S = 2.0
"""How long the worker is left after a step before its memory is read."""
SHORT_S = 15.0
"""A run idling less than this (`make bench --quick`, the tests' short run) holds `SMALL`
connections, with half-second settles: a smoke run of the phase, not a figure."""
SMALL = 200
KINDS = ("socket", "stream")


# -- the tables ---------------------------------------------------------------------------------


async def deal(
    port: int, tables: int, rounds: int = 100, read: bool = False, seats: int = 2
) -> list[tuple[str, str]]:
    """`tables` Cheat tables of `seats` seats created, joined and started; each seat's (table,
    token).
    With `read`, each seat then reads its view and its events once over HTTP: what the table
    holds for its seats (their events' JSON, their views' openings) is held before any
    connection opens, and is not counted as the connections' own."""
    found: list[tuple[str, str]] = []
    left = iter(range(tables))

    async def dealer() -> None:
        conn = await Connection(port).open()
        try:
            for _ in left:
                status, created = await conn.request(
                    "POST", "/v1/games", {"kind": "cheat", "options": {"rounds": rounds}}
                )
                if status != 201:
                    raise RuntimeError(f"create refused: {status} {created}")
                game_id, host = created["game"]["id"], created["host_token"]
                tokens = []
                for name in "ABCDEFGH"[:seats]:
                    status, joined = await conn.request(
                        "POST", f"/v1/games/{game_id}/players", {"name": name}
                    )
                    if status != 201:
                        raise RuntimeError(f"join refused: {status} {joined}")
                    tokens.append(joined["token"])
                status, started = await conn.request(
                    "POST", f"/v1/games/{game_id}/start", token=host
                )
                if status != 200:
                    raise RuntimeError(f"start refused: {status} {started}")
                found.extend((game_id, token) for token in tokens)
                for token in tokens if read else ():
                    for path in (f"/v1/games/{game_id}", f"/v1/games/{game_id}/events?after=0"):
                        status, seen = await conn.request("GET", path, token=token)
                        if status != 200:
                            raise RuntimeError(f"a seat's read refused: {status} {seen}")
        finally:
            conn.close()

    await asyncio.gather(*(dealer() for _ in range(min(SETUP_CONNECTIONS, tables))))
    return found


# -- the clients --------------------------------------------------------------------------------


class Heard:
    """What the idle clients of a sub-phase heard, and what they lost."""

    def __init__(self) -> None:
        self.messages = 0
        """Messages (frames of the socket's own protocol, or keep-alive lines) received."""
        self.pings = 0
        """WebSocket pings of the server's (answered by the client's protocol)."""
        self.lost: list[str] = []


class IdleClient(asyncio.Protocol):
    """What an idle socket and an idle stream share: a connection that tells `heard` when it is
    lost, and a `ready` future that fails with it."""

    what = "connection"

    def __init__(self, heard: Heard) -> None:
        self.heard = heard
        self.transport: asyncio.Transport | None = None
        self.ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.closing = False

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.fail(f"the {self.what} was cut: {exc!r}")

    def fail(self, why: str) -> None:
        if not self.closing:
            self.heard.lost.append(why)
            self.close()
        if not self.ready.done():
            self.ready.set_exception(RuntimeError(why))

    def close(self) -> None:
        self.closing = True
        if self.transport is not None:
            self.transport.close()


class IdleSocket(IdleClient):
    """A seat socket that says `hello` and then only pings: websockets' sans-IO client, with no
    task or future of its own once open."""

    what = "socket"

    def __init__(self, port: int, game_id: str, token: str, heard: Heard) -> None:
        super().__init__(heard)
        self.token = token
        uri = parse_uri(f"ws://127.0.0.1:{port}/v1/games/{game_id}/socket")
        self.ws = ClientProtocol(uri, max_size=None)

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        self.ws.send_request(self.ws.connect())
        self._flush()

    def _flush(self) -> None:
        transport = self.transport
        if transport is not None and not transport.is_closing():
            for data in self.ws.data_to_send():
                if data:
                    transport.write(data)

    def ping(self) -> None:
        if not self.closing and self.ready.done():
            self.ws.send_text(b'{"type":"ping"}')
            self._flush()

    def data_received(self, data: bytes) -> None:
        ws, heard = self.ws, self.heard
        ws.receive_data(data)
        for event in ws.events_received():
            if type(event) is Frame:
                if event.opcode is Opcode.TEXT:
                    heard.messages += 1
                    if not self.ready.done() and event.data.startswith(b'{"type":"welcome"'):
                        self.ready.set_result(None)
                elif event.opcode is Opcode.PING:
                    heard.pings += 1
            elif type(event) is Response:
                if event.status_code != 101:
                    self.fail(f"the handshake answered {event.status_code}")
                    return
                hello = {"type": "hello", "token": self.token, "after": 0, "views": False}
                ws.send_text(json.dumps(hello).encode())
        self._flush()  # the hello, a pong to the server's ping
        if ws.close_expected() and not self.closing:
            self.fail(f"the service closed the socket: {ws.close_rcvd}")

    def close(self) -> None:
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


class IdleStream(IdleClient):
    """A seat's `GET …/stream`, read and counted (its frames and keep-alive lines), no more."""

    what = "stream"

    def __init__(self, port: int, game_id: str, token: str, heard: Heard) -> None:
        super().__init__(heard)
        self.request = (
            f"GET /v1/games/{game_id}/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Accept: text/event-stream\r\nAuthorization: Bearer {token}\r\n\r\n"
        ).encode()
        self.head = bytearray()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        transport.write(self.request)  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if not self.ready.done():
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            if self.head[9:12] != b"200":
                self.fail(f"the stream answered {bytes(self.head[:200])!r}")
                return
            self.head = bytearray()
            self.ready.set_result(None)
        self.heard.messages += data.count(b"\r\n\r\n")

    def ping(self) -> None:
        """A stream's client sends nothing."""


Client = IdleSocket | IdleStream
CLIENTS: dict[str, Callable[[int, str, str, Heard], Client]] = {
    "socket": IdleSocket,
    "stream": IdleStream,
}


class Pinger:
    """Every open socket pings once every `PING_S`, the sockets spread evenly over it: one timer
    a second walks the slice whose turn it is."""

    def __init__(self, clients: list[Client]) -> None:
        self.clients = clients
        self.loop = asyncio.get_running_loop()
        self.turn = 0
        self.handle = self.loop.call_later(1.0, self._tick)

    def _tick(self) -> None:
        slices = int(PING_S)
        clients = self.clients
        for i in range(self.turn % slices, len(clients), slices):
            clients[i].ping()
        self.turn += 1
        self.handle = self.loop.call_later(1.0, self._tick)

    def stop(self) -> None:
        self.handle.cancel()


async def open_clients(
    port: int, kind: str, seats: list[tuple[str, str]], heard: Heard, into: list[Client]
) -> None:
    """A client of `kind` for each seat, `OPENING` at a time, each open once it said hello (a
    socket: its `welcome` came) or its stream's head came; appended to `into`."""
    loop = asyncio.get_running_loop()
    limit = asyncio.Semaphore(OPENING)
    make = CLIENTS[kind]

    async def one(game_id: str, token: str) -> None:
        async with limit:
            client = make(port, game_id, token, heard)
            into.append(client)
            await loop.create_connection(lambda: client, "127.0.0.1", port)
            async with asyncio.timeout(30):
                await client.ready

    await asyncio.gather(*(one(g, t) for g, t in seats))


# -- one sub-phase -----------------------------------------------------------------------------


def _steps(connections: int) -> list[int]:
    return sorted({max(1, connections // 10), max(1, connections // 2), connections})


async def _cpu_share(pids: list[int], seconds: float) -> tuple[list[float], float]:
    """Each process's CPU over `seconds` as a share of a core, and this process's."""
    cpu0, own0, wall0 = [cpu_seconds(p) for p in pids], time.process_time(), time.perf_counter()
    await asyncio.sleep(seconds)
    wall = time.perf_counter() - wall0
    shares = [(cpu_seconds(p) - c) / wall for p, c in zip(pids, cpu0, strict=True)]
    return shares, (time.process_time() - own0) / wall


async def hold(
    port: int,
    pid: int,
    redis_pid: int,
    kind: str,
    connections: int,
    seconds: float,
) -> dict[str, Any]:
    """`connections` idle clients of `kind` on the worker `pid`, held `seconds`; the figures,
    keyed `idle_<kind>_…`."""
    settle = SETTLE_S if seconds >= SHORT_S else 0.5
    needed = connections + 300
    for who, limit in (("the generator", raise_fd_limit()), ("the service", fd_limit(pid))):
        if limit < needed:
            raise RuntimeError(
                f"{who} may open {limit} files, and {connections} connections need about "
                f"{needed}: raise `ulimit -n` (RLIMIT_NOFILE)"
            )
    key = f"idle_{kind}"
    rss_empty = rss_mib(pid)
    dealing = time.perf_counter()
    seats = await deal(port, -(-connections // SEATS), read=True, seats=SEATS)
    deal_s = time.perf_counter() - dealing
    seats = seats[:connections]
    heard = Heard()
    clients: list[Client] = []
    # A few opened and closed first: the worker's first socket or stream pays for what no
    # later one does (imports, caches).
    await open_clients(port, kind, seats[:50], heard, clients)
    for client in clients:
        client.close()
    clients.clear()
    await asyncio.sleep(settle)
    (empty_cpu, empty_redis), _ = await _cpu_share([pid, redis_pid], min(5.0, seconds / 2))
    rss = {0: rss_mib(pid)}
    open_s, done = 0.0, 0
    pinger = Pinger(clients)
    try:
        for step in _steps(connections):
            opening = time.perf_counter()
            await open_clients(port, kind, seats[done:step], heard, clients)
            open_s += time.perf_counter() - opening
            done = step
            await asyncio.sleep(settle)
            rss[step] = rss_mib(pid)
        messages0, pings0 = heard.messages, heard.pings
        wall0 = time.perf_counter()
        (idle_cpu, idle_redis), generator = await _cpu_share([pid, redis_pid], seconds)
        wall = time.perf_counter() - wall0
        heard_per_s = (heard.messages - messages0) / wall
        pings_per_s = (heard.pings - pings0) / wall
        rss_held = rss_mib(pid)
    finally:
        pinger.stop()
        for client in clients:
            client.close()
    await asyncio.sleep(settle)
    rss_closed = rss_mib(pid)
    figures: dict[str, Any] = {
        f"{key}_connections": len(clients),
        f"{key}_open_s": open_s,
        f"{key}_deal_s": deal_s,
        f"{key}_rss_mib_empty": rss_empty,
        f"{key}_kib_per_table": (rss[0] - rss_empty) * 1024 / max(1, len(seats) // SEATS),
        f"{key}_rss_mib_before": rss[0],
        f"{key}_rss_mib_held": rss_held,
        f"{key}_rss_mib_closed": rss_closed,
        f"{key}_rss_mib_steps": {str(n): round(m, 2) for n, m in rss.items()},
        f"{key}_kib_per_connection": (max(rss[connections], rss_held) - rss[0])
        * 1024
        / connections,
        f"{key}_kib_per_connection_steps": {
            str(n): round((m - rss[0]) * 1024 / n, 2) for n, m in rss.items() if n
        },
        f"{key}_cpu_share_empty": empty_cpu,
        f"{key}_cpu_share_idle": idle_cpu,
        f"{key}_heartbeat_cpu_share": max(0.0, idle_cpu - empty_cpu),
        f"{key}_heartbeat_cpu_us_per_connection_s": max(0.0, idle_cpu - empty_cpu)
        / connections
        * 1e6,
        f"{key}_redis_cpu_share_empty": empty_redis,
        f"{key}_redis_cpu_share_idle": idle_redis,
        f"{key}_generator_cpu_share": generator,
        f"{key}_heard_per_s": heard_per_s,
        f"{key}_server_pings_per_s": pings_per_s,
        f"{key}_lost": len(heard.lost),
        f"{key}_problems": heard.lost[:5],
    }
    if len(rss) > 2:  # the slope between the last two steps: what one more connection costs
        (a, ra), (b, rb) = sorted(rss.items())[-2:]
        figures[f"{key}_kib_per_connection_marginal"] = (rb - ra) * 1024 / (b - a)
    return figures


async def measure(
    redis: EmbeddedRedis,
    seconds: float = 30.0,
    connections: int | None = None,
    kinds: tuple[str, ...] = KINDS,
    plot: Path | None = Path("bench-idle.png"),
    ws: str | None = None,
    source: Path | None = None,
) -> dict[str, Any]:
    """Each of `kinds` held idle for `seconds` on a fresh one-worker service of its own,
    `connections` of them (`CONNECTIONS`; `SMALL` for a run shorter than `SHORT_S`); the plot
    of memory against connections written to `plot` (none when None)."""
    if connections is None:
        connections = CONNECTIONS if seconds >= SHORT_S else SMALL
    # Before the services start: they inherit it. Where the hard limit allows fewer, fewer.
    allowed = raise_fd_limit() - 300
    redis_pid = redis.process.pid if redis.process else 0
    results: dict[str, Any] = {"idle_seconds": seconds, "idle_asked": connections}
    if allowed < connections:
        print(f"idle: the open-file limit allows {allowed} connections, not {connections}")
        connections = allowed
    for kind in kinds:
        service = Service(redis.url, 1, source=source or ROOT, ws=ws)
        try:
            await service.ready()
            await warm_up(service.port)
            found = await hold(
                service.port, service.process.pid, redis_pid, kind, connections, seconds
            )
            results |= found
        finally:
            try:
                service.stop()
            except subprocess.TimeoutExpired:  # thousands of connections may outlast its grace
                service.process.kill()
                service.process.wait()
    if plot is not None:
        draw(results, kinds, plot)
        results["idle_plot"] = str(plot)
    return results


def draw(results: dict[str, Any], kinds: tuple[str, ...], path: Path) -> None:
    """The worker's memory against the idle connections it holds, one line a kind."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 4.5))
    for kind in kinds:
        steps = results.get(f"idle_{kind}_rss_mib_steps")
        if not steps:
            continue
        points = sorted((int(n), m) for n, m in steps.items())
        per = results[f"idle_{kind}_kib_per_connection"]
        axes.plot(
            [n for n, _ in points],
            [m for _, m in points],
            marker="o",
            label=f"seat {'sockets' if kind == 'socket' else 'SSE streams'} ({per:.1f} KiB each)",
        )
    axes.set_xlabel("idle connections open on one worker")
    axes.set_ylabel("worker RSS, MiB")
    axes.set_title("Idle connections: one worker's memory")
    axes.grid(True, alpha=0.3)
    axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


ROWS = [
    (f"idle_{kind}_{figure}", label.format(what=what), fmt, target if kind == "socket" else "")
    for kind, what in (("socket", "seat sockets"), ("stream", "SSE streams"))
    for figure, label, fmt, target in (
        ("connections", "idle: {what} one worker holds", "{:,.0f}", "10,000"),
        ("open_s", "  seconds to open them (hello said, or head read)", "{:.1f}", ""),
        ("kib_per_table", "  memory a table dealt (and its seats' reads) costs, KiB", "{:.1f}", ""),
        ("rss_mib_before", "  the worker's memory (RSS) before them, MiB", "{:.1f}", ""),
        ("rss_mib_held", "  with them open and idle, MiB", "{:.1f}", ""),
        ("kib_per_connection", "  memory a connection costs, KiB", "{:.1f}", "≤ 20"),
        ("kib_per_connection_marginal", "    between half and all of them, KiB", "{:.1f}", ""),
        ("rss_mib_closed", "  once they closed, MiB", "{:.1f}", ""),
        ("cpu_share_empty", "  the worker's share of a core with none open", "{:.1%}", ""),
        ("cpu_share_idle", "  with them open and idle (pinging)", "{:.1%}", ""),
        (
            "heartbeat_cpu_us_per_connection_s",
            "  their heartbeats: µs a connection a s",
            "{:.2f}",
            "",
        ),
        ("heard_per_s", "  messages the clients heard a second", "{:,.0f}", ""),
        ("generator_cpu_share", "  the generator's share of a core", "{:.1%}", ""),
    )
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--connections", type=int, help=f"{CONNECTIONS:,} ({SMALL} under {SHORT_S:g} s)"
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="how long they idle")
    parser.add_argument("--only", choices=KINDS, help="only the sockets, or only the streams")
    parser.add_argument("--output", default="idle-results.json")
    parser.add_argument("--ws", help="the service's SOCKET_IMPLEMENTATION (websockets, wsproto)")
    parser.add_argument("--repo", type=Path, help="serve this checkout's code (default: this one)")
    args = parser.parse_args()
    output = Path(args.output)
    kinds = (args.only,) if args.only else KINDS

    async def run() -> dict[str, Any]:
        with (
            tempfile.TemporaryDirectory() as data,
            EmbeddedRedis(data, None, "--appendonly", "no") as redis,
        ):
            plot = output.with_suffix(".png")
            return await measure(
                redis, args.seconds, args.connections, kinds, plot, args.ws, args.repo
            )

    results = uvloop.run(run())
    width = max(len(label) for _, label, _, _ in ROWS)
    for key, label, fmt, target in ROWS:
        if key in results:
            print(f"  {label:<{width}}  {fmt.format(results[key]):>10}  {target}")
    for kind in kinds:
        steps = results[f"idle_{kind}_kib_per_connection_steps"]
        print(f"  {kind}: KiB a connection at each step: {steps}")
        if results.get(f"idle_{kind}_problems"):
            print(f"  {kind}: lost: {results[f'idle_{kind}_problems']}")
    output.write_text(json.dumps(results, indent=2) + "\n")
    print(f"wrote {output} and {results.get('idle_plot')}")


if __name__ == "__main__":
    main()
