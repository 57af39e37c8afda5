"""Limits by cost, and a ceiling per address (docs/api.md, Rate limits; docs/security.md), against
real service processes, clients bound to their own loopback addresses.

- A read pays by what it carries: a page of 500 events what eleven views do (`read_cost`).
- Every token used from one address shares that address's ceiling: eighteen tokens of one
  address flooding reads are refused past it (429, "from this address"), while another address
  is served.
- The ceiling's defaults let four players behind one address, and two of the SDK README's bots,
  play at full pace without meeting it.

Every bound asserted is a bucket's own arithmetic over the time the test measured (burst + rate ×
elapsed), so a slow machine only loosens it. Tables are built under a service with the suite's
generous limits; each test then serves the same Redis with the limits it is about.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import random
import secrets
import socket
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from kronikas.application.queries import read_cost
from kronikas.config import Settings
from tests.api.tables import Table, Tables, auth, candidates, game_moves
from tests.conftest import ServiceProcess, serving
from tests.reliability.test_fair_limits import REAL_LIMITS
from tests.socket.wire import WAIT_S, greeted, heard

DEFAULTS = Settings()
SLOW_READER = 4508
OPEN = -1
LONG = 500
"""Events the long table holds at least: `events?after=0` of it is a full page."""


def at(service: ServiceProcess, host: int) -> httpx.AsyncClient:
    """A client whose connections come from 127.0.0.`host`."""
    transport = httpx.AsyncHTTPTransport(
        local_address=f"127.0.0.{host}",
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=50),
    )
    return httpx.AsyncClient(base_url=service.url, transport=transport, timeout=60)


@dataclass
class Built:
    long: Table
    """One person and seven house seats of Cheat, played to at least `LONG` events."""
    eights: list[Table]
    """Two started eight-seat tables: with their hosts', eighteen tokens."""


async def play_against_the_house(tables: Tables, table: Table, events: int) -> None:
    """The person plays (the house answers at once) until the log holds `events`."""
    rng = random.Random(7)
    token = table.players[0]
    while True:
        view = await tables.view(table, token)
        assert view["status"] != "finished", "the match ended before the log was long"
        if view["version"] >= events:
            return
        if not game_moves(view):
            continue
        for command in candidates(view, rng):
            r = await tables.send(table, 0, command)
            if r.status_code == 200:
                break
            assert r.status_code in (409, 412), r.text


@pytest.fixture(scope="module")
def built(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The tables, made under the suite's generous limits (then that service stops)."""
    log: Path = tmp_path_factory.mktemp("cost") / "builder.log"

    async def build(service: ServiceProcess) -> Built:
        async with at(service, 9) as client:
            tables = Tables(client)
            options = {"decks": 2, "rounds": 100, "house_pause_seconds": 0}
            long = await tables.create("cheat", options)
            await tables.join(long, "Person")
            for n in range(7):
                r = await client.post(
                    f"/v1/games/{long.id}/house-players",
                    json={"name": f"House {n}"},
                    headers=auth(long.host),
                )
                assert r.status_code == 201, r.text
            await tables.start(long)
            await play_against_the_house(tables, long, LONG)
            eights = [await tables.ready("cheat", 8, {"decks": 2}, seed=None) for _ in range(2)]
            return Built(long, eights)

    with serving(redis_url, log) as service:
        return asyncio.run(build(service))


@contextlib.contextmanager
def limited(redis_url: str, log: Path, **env: str) -> Iterator[ServiceProcess]:
    """A service on the suite's Redis with `env`'s limits ("": the setting's default)."""
    with serving(redis_url, log, **env) as service:
        yield service


class Tally:
    """Answers by status, the 429s by whom they blame, and the time they took."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.by_address = 0
        self.started = time.monotonic()
        self.elapsed = 0.0

    def add(self, r: httpx.Response) -> None:
        assert r.status_code < 500, r.text
        self.statuses[r.status_code] += 1
        if r.status_code == 429:
            assert r.json()["code"] == "rate_limited", r.text
            self.by_address += "from this address" in r.json()["detail"]

    def done(self) -> None:
        self.elapsed = time.monotonic() - self.started

    def at_most(self, burst: int, per_s: float) -> float:
        """What a bucket of `burst` refilled at `per_s` can have given meanwhile."""
        return burst + per_s * self.elapsed + 1


async def test_a_page_of_events_pays_by_the_events_it_carries(
    built: Built, redis_url: str, tmp_path: Path
) -> None:
    """A token's bucket of 40 refilled at 1 a second: a full page (500 events) costs 11, so
    3 of them empty it, where 40 views do."""
    env = {"RATE_LIMIT_PER_S": "1", "RATE_LIMIT_BURST": "40"}
    long = built.long
    page = read_cost(LONG)
    assert page == 11
    with limited(redis_url, tmp_path / "service.log", **env) as service:
        async with at(service, 11) as client:
            pages, views = Tally(), Tally()
            for _ in range(60):
                r = await client.get(
                    f"/v1/games/{long.id}/events", params={"after": 0}, headers=auth(long.host)
                )
                pages.add(r)
                if r.status_code == 429:
                    break
                assert len(r.json()["events"]) == LONG
            pages.done()
            for _ in range(60):
                r = await client.get(f"/v1/games/{long.id}", headers=auth(long.players[0]))
                views.add(r)
                if r.status_code == 429:
                    break
            views.done()
    assert pages.statuses[429] == 1 and views.statuses[429] == 1
    assert pages.statuses[200] <= pages.at_most(40, 1) / page, pages.statuses
    assert views.statuses[200] >= 40, "a view costs one"
    assert pages.by_address == views.by_address == 0, "the token's bucket, not the address's"


async def flood(client: httpx.AsyncClient, path: str, token: str, reads: int, tally: Tally) -> None:
    """One token's reads of its table's events, as fast as they are answered."""
    for _ in range(reads):
        tally.add(await client.get(path, params={"after": 0}, headers=auth(token)))


async def test_eighteen_tokens_of_one_address_share_its_ceiling_while_others_are_served(
    built: Built, redis_url: str, tmp_path: Path
) -> None:
    """Eighteen tokens from 127.0.0.2 (two eight-seat tables' players and hosts), each within its
    own bucket (30 reads, of 40), flood their tables' events; the address's ceiling (200 at once,
    refilled at 1 a second here, so that no machine is too slow to exceed it) refuses them past
    it, 429 "from this address", while 127.0.0.3 reads, follows and moves, each answered."""
    env = {"ADDRESS_LIMIT_PER_S": "1", "ADDRESS_LIMIT_BURST": "200"}
    tokens = [(t.id, token) for t in built.eights for token in (t.host, *t.players)]
    assert len(tokens) == 18
    with limited(redis_url, tmp_path / "service.log", **env) as service:
        async with at(service, 2) as abuser, at(service, 3) as other:
            tally = Tally()
            flooding = [
                flood(abuser, f"/v1/games/{game}/events", token, 30, tally)
                for game, token in tokens
            ]
            served = Tally()

            async def meanwhile() -> None:
                long, eight = built.long, built.eights[0]
                async with other.stream(
                    "GET", f"/v1/games/{eight.id}/stream", headers=auth(eight.players[1])
                ) as stream:
                    served.add(stream)
                    for _ in range(10):
                        served.add(await other.get(f"/v1/games/{long.id}"))
                        served.add(await other.get(f"/v1/games/{eight.id}/events"))
                        served.add(
                            await other.get(f"/v1/games/{eight.id}", headers=auth(eight.host))
                        )
                    view = (await other.get(f"/v1/games/{eight.id}")).json()
                    seat = view["turn"]
                    mine = await other.get(
                        f"/v1/games/{eight.id}", headers=auth(eight.players[seat])
                    )
                    served.add(mine)
                    moved = await other.post(
                        f"/v1/games/{eight.id}/commands",
                        json={"type": "play", "cards": mine.json()["me"]["hand"][:1]},
                        headers=auth(eight.players[seat]),
                    )
                    served.add(moved)

            await asyncio.gather(*flooding, meanwhile())
            tally.done()
    assert set(tally.statuses) <= {200, 429}, tally.statuses
    assert tally.statuses[429] > 0 and tally.by_address == tally.statuses[429], tally.statuses
    assert tally.statuses[200] <= tally.at_most(200, 1), tally.statuses
    assert set(served.statuses) == {200}, served.statuses


REAL = REAL_LIMITS | dict.fromkeys(("ADDRESS_LIMIT_PER_S", "ADDRESS_LIMIT_BURST"), "")
"""Every rate and stream limit at its default, the address's ceiling too."""


class Moves:
    """The moves the players of one table made, and an event set once they made enough: a player
    waiting for news then stops too (the last move may come before its mover counts it)."""

    def __init__(self, enough: int) -> None:
        self.made, self.enough = 0, enough
        self.done = asyncio.Event()

    def add(self) -> None:
        self.made += 1
        if self.made >= self.enough:
            self.done.set()


class Player:
    """A person at a table behind a shared address: its stream open, it looks and moves as soon
    as its turn comes, waiting out a 429 as `Retry-After` says (the SDKs do)."""

    def __init__(self, client: httpx.AsyncClient, game: str, token: str, tally: Tally) -> None:
        self.client, self.game, self.token, self.tally = client, game, token, tally
        self.heard = 0
        self.news = asyncio.Event()

    async def follow(self) -> None:
        async with self.client.stream(
            "GET", f"/v1/games/{self.game}/stream", headers=auth(self.token)
        ) as stream:
            self.tally.add(stream)
            async for line in stream.aiter_lines():
                if line.startswith("id: "):
                    self.heard = int(line[4:])
                    self.news.set()

    async def answered(self, request: Any) -> httpx.Response:
        while True:
            r: httpx.Response = await request()
            self.tally.add(r)
            if r.status_code != 429:
                return r
            await asyncio.sleep(int(r.headers["retry-after"]))

    async def play(self, rng: random.Random, moves: Moves) -> None:
        path = f"/v1/games/{self.game}"
        while True:
            r = await self.answered(lambda: self.client.get(path, headers=auth(self.token)))
            view = r.json()
            if view["status"] == "finished" or moves.done.is_set():
                return
            if game_moves(view):
                for command in candidates(view, rng):
                    r = await self.answered(
                        lambda c=command: self.client.post(
                            f"{path}/commands", json=c, headers=auth(self.token)
                        )
                    )
                    if r.status_code == 200:
                        moves.add()
                        break
                    assert r.status_code == 409, r.text
                continue
            self.news.clear()
            if self.heard <= view["version"]:  # nothing newer came meanwhile: wait for it
                await self.news_or(moves.done)

    async def news_or(self, done: asyncio.Event) -> None:
        """Wait until the stream brings news or the table has had enough moves; a minute without
        either fails the test."""
        waits = {asyncio.create_task(self.news.wait()), asyncio.create_task(done.wait())}
        came, pending = await asyncio.wait(waits, timeout=60, return_when=asyncio.FIRST_COMPLETED)
        for wait in pending:
            wait.cancel()
        assert came, f"no news for a minute after version {self.heard}"


async def test_four_players_behind_one_address_play_at_full_pace_within_its_ceiling(
    redis_url: str, tmp_path: Path
) -> None:
    """Every default, from one address: four tokens at one table, each following it and playing
    as fast as its turns come, never meet the address's ceiling (five tokens' worth: four at
    their own limits stay below it)."""
    assert DEFAULTS.address_per_s >= 5 * DEFAULTS.rate_per_s
    assert DEFAULTS.address_burst >= 5 * DEFAULTS.rate_burst
    with limited(redis_url, tmp_path / "service.log", **REAL) as service:
        async with at(service, 6) as nat:
            tables = Tables(nat)
            table = await tables.ready("cheat", 4, {"rounds": 3, "house_pause_seconds": 0})
            tally = Tally()
            players = [Player(nat, table.id, token, tally) for token in table.players]
            following = [asyncio.create_task(p.follow()) for p in players]
            moves = Moves(enough=200)
            try:
                await asyncio.gather(
                    *(p.play(random.Random(n), moves) for n, p in enumerate(players))
                )
            finally:
                for task in following:
                    task.cancel()
                await asyncio.gather(*following, return_exceptions=True)
    assert moves.made >= 50, "the table was played"
    assert tally.by_address == 0, tally.statuses
    assert set(tally.statuses) <= {200, 409, 429}, tally.statuses


def test_two_readme_bots_at_one_table_play_at_full_pace_within_their_ceiling(
    redis_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The example bots' sample (the SDK README's bot), twice at one table from one address,
    every limit its default: the match is played to its end, and no move of theirs is refused
    (a refused move is printed with its detail; a 429 is waited out by its `Retry-After`)."""
    from kronikas_bots import sample

    with limited(redis_url, tmp_path / "service.log", **REAL) as service:
        created = httpx.post(f"{service.url}/v1/games", json={"kind": "cheat"})
        assert created.status_code == 201, created.text
        game, host = created.json()["game"]["id"], created.json()["host_token"]
        results: list[list[int]] = []
        bots = [
            threading.Thread(target=lambda n=n: results.append(sample.main(service.url, game, n)))
            for n in ("one", "two")
        ]
        for bot in bots:
            bot.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            seated = httpx.get(f"{service.url}/v1/games/{game}").json()["players"]
            if len(seated) == 2:
                break
            threading.Event().wait(0.02)
        started = httpx.post(f"{service.url}/v1/games/{game}/start", headers=auth(host))
        assert started.status_code == 200, started.text
        for bot in bots:
            bot.join(120)
    assert len(results) == 2 and results[0] == results[1] and results[0]
    assert "refused" not in capsys.readouterr().err  # every 429 waited out, none printed


# -- slow readers ----------------------------------------------------------------------------------


class NeverReading:
    """A spectator's seat socket that says `hello` and then reads nothing, over a raw TCP
    connection with a small receive buffer: what the server sends it piles up at the server."""

    def __init__(self, port: int, host: int, game: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((f"127.0.0.{host}", 0))
        self.sock.settimeout(WAIT_S)
        self.sock.connect(("127.0.0.1", port))
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        self.sock.sendall(
            f"GET /v1/games/{game}/socket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = b""
        while not head.endswith(b"\r\n\r\n"):  # a byte at a time: nothing after the head
            head += self.sock.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        hello = json.dumps({"type": "hello", "token": None, "after": 0}).encode()
        mask = secrets.token_bytes(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
        self.sock.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)

    def close_code(self) -> int | None:
        """Reads all that came, at last: the code of the server's close frame; None when the
        server dropped the connection before one could be read; `OPEN` when nothing more came
        for `WAIT_S` and the connection is still open."""
        data = b""
        try:
            while chunk := self.sock.recv(1 << 16):
                data += chunk
                code = _close_in(data)
                if code is not None:
                    return code
        except ConnectionResetError:
            return None
        except TimeoutError:
            return OPEN
        finally:
            self.sock.close()
        return _close_in(data)


def _close_in(data: bytes) -> int | None:
    """The code of the close frame among the server's frames in `data`, if it is there."""
    at = 0
    while at + 2 <= len(data):
        opcode, size = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if size == 126:
            size, at = int.from_bytes(data[at : at + 2], "big"), at + 2
        elif size == 127:
            size, at = int.from_bytes(data[at : at + 8], "big"), at + 8
        if at + size > len(data):
            return None
        if opcode == 0x8:
            return int.from_bytes(data[at : at + 2], "big")
        at += size
    return None


async def test_a_hundred_never_reading_sockets_are_closed_at_the_byte_bound(
    built: Built, redis_url: str, tmp_path: Path
) -> None:
    """A hundred spectator sockets (from four addresses) follow the long table from its first
    event and never read; its person plays on. Each is closed as a slow reader (4508) once what
    waits for it passes `OUTBOX_BYTES` besides the one message it is being sent (or its
    connection is dropped after its close), however few messages that is (`SOCKET_BACKLOG` is
    out of the way here). Their first page of the log is larger than the bound: it is the one
    message spared, and the second, whose send waits behind it, counts; a send that waits is
    checked every `SLOW_CHECK_S`, so they are read only once a reading socket has been told
    (a `heartbeat`, `SOCKET_HEARTBEAT_S` at its least) that a second passed after the moves."""
    env = {
        "OUTBOX_BYTES": str(16 * 1024),
        "SOCKET_BACKLOG": "100000",
        "SOCKET_IDLE_S": "600",
        "SOCKET_HEARTBEAT_S": "1",
    }
    long = built.long
    with limited(redis_url, tmp_path / "service.log", **env) as service:
        readers = [NeverReading(service.port, 20 + n % 4, long.id) for n in range(100)]
        async with at(service, 12) as person:
            tables = Tables(person)
            version = (await tables.view(long))["version"]
            async with greeted(service.url, long.id, after=version) as (clock, _):
                rng = random.Random(5)
                moved = 0
                while moved < 10:  # each of the person's moves, and the house's answers, pushed
                    view = await tables.view(long, long.players[0])
                    for command in candidates(view, rng) if game_moves(view) else []:
                        r = await tables.send(long, 0, command)
                        if r.status_code == 200:
                            moved += 1
                            break
                while (await heard(clock))["type"] != "heartbeat":
                    pass  # the house's answers, then a second of quiet
        codes = Counter(await asyncio.gather(*(asyncio.to_thread(r.close_code) for r in readers)))
    assert set(codes) <= {SLOW_READER, None} and codes[SLOW_READER] > 0, codes


class NeverReadingStream:
    """A spectator's event stream from the first event that reads nothing after its request, over
    a raw TCP connection with a small receive buffer."""

    def __init__(self, port: int, host: int, game: str) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.bind((f"127.0.0.{host}", 0))
        self.sock.settimeout(WAIT_S)
        self.sock.connect(("127.0.0.1", port))
        request = f"GET /v1/games/{game}/stream?after=0 HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n"
        self.sock.sendall(request.encode())

    def ended(self) -> bool:
        """Reads all that came, at last: whether the server ended the connection (False: still
        open, nothing more came for `WAIT_S`)."""
        try:
            while self.sock.recv(1 << 16):
                pass
        except ConnectionResetError:
            return True
        except TimeoutError:
            return False
        finally:
            self.sock.close()
        return True


async def test_never_reading_event_streams_are_ended_at_the_byte_bound(
    built: Built, redis_url: str, tmp_path: Path
) -> None:
    """Twenty spectator streams follow the long table from its first event and never read; its
    person plays on. Each is ended (its connection dropped) once what waits for it passes
    `OUTBOX_BYTES`, where before it stayed open, holding what the kernel took."""
    env = {"OUTBOX_BYTES": str(16 * 1024)}
    long = built.long
    with limited(redis_url, tmp_path / "service.log", **env) as service:
        readers = [NeverReadingStream(service.port, 30 + n % 4, long.id) for n in range(20)]
        async with at(service, 13) as person:
            tables = Tables(person)
            rng = random.Random(6)
            moved = 0
            while moved < 10:
                view = await tables.view(long, long.players[0])
                for command in candidates(view, rng) if game_moves(view) else []:
                    r = await tables.send(long, 0, command)
                    if r.status_code == 200:
                        moved += 1
                        break
        ended = await asyncio.gather(*(asyncio.to_thread(r.ended) for r in readers))
    assert all(ended), ended
