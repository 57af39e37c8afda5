"""Limits that hold, against a real service process, from several source addresses.

All of 127.0.0.0/8 is loopback: the abusive client binds 127.0.0.2, the others 127.0.0.3 and up
(each test its own addresses, so that no test drains another's buckets). One abusive client —
an anonymous read flood, made-up tokens, a refused-command flood, stream hoarding — is held back
by its own buckets and caps, and the others' creates, joins, starts, moves, streams and
long-polls meanwhile all go through, none refused. Every bound asserted is the bucket's own
arithmetic over the time the test measured (burst + rate × elapsed), so a slow machine only
loosens it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from kronikas.config import Settings
from tests.api.tables import auth
from tests.conftest import ServiceProcess, serving

DEFAULTS = Settings()
REAL_LIMITS = {
    name: ""  # "": the setting's default, not the test suite's generous one
    for name in (
        "RATE_LIMIT_PER_S",
        "RATE_LIMIT_BURST",
        "OPEN_LIMIT_PER_MIN",
        "READ_LIMIT_PER_S",
        "READ_LIMIT_BURST",
        "STREAMS_PER_TOKEN",
        "STREAMS_PER_ADDRESS",
        "MAX_CONNECTIONS",
    )
}


def at(service: ServiceProcess, host: int) -> httpx.AsyncClient:
    """A client whose connections come from 127.0.0.`host`."""
    transport = httpx.AsyncHTTPTransport(
        local_address=f"127.0.0.{host}",
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=50),
    )
    return httpx.AsyncClient(base_url=service.url, transport=transport, timeout=30)


@pytest.fixture(scope="module")
def real(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """The service with its default limits."""
    log: Path = tmp_path_factory.mktemp("fair") / "service.log"
    with serving(redis_url, log, **REAL_LIMITS) as service:
        yield service


class Seats:
    """A started two-seat Cheat table, made by one client: who is on turn, and their hand."""

    def __init__(self, game: str, host: str, tokens: list[str], turn: int) -> None:
        self.game, self.host, self.tokens, self.turn = game, host, tokens, turn

    @classmethod
    async def deal(cls, client: httpx.AsyncClient) -> Seats:
        r = await client.post("/v1/games", json={"kind": "cheat", "seed": 3})
        assert r.status_code == 201, r.text
        game, host = r.json()["game"]["id"], r.json()["host_token"]
        tokens = []
        for name in ("Ilona", "Bence"):
            r = await client.post(f"/v1/games/{game}/players", json={"name": name})
            assert r.status_code == 201, r.text
            tokens.append(r.json()["token"])
        r = await client.post(f"/v1/games/{game}/start", headers=auth(host))
        assert r.status_code == 200, r.text
        return cls(game, host, tokens, r.json()["turn"])

    async def hand(self, client: httpx.AsyncClient, seat: int) -> list[str]:
        r = await client.get(f"/v1/games/{self.game}", headers=auth(self.tokens[seat]))
        assert r.status_code == 200, r.text
        hand: list[str] = r.json()["me"]["hand"]
        return hand


async def reached(stream: httpx.Response, version: int) -> None:
    """Reads a stream's frames until the event of `version` has come."""
    async for line in stream.aiter_lines():
        if line.startswith("id: ") and int(line[4:]) >= version:
            return
    raise AssertionError(f"the stream ended before version {version}")


async def honest_player(service: ServiceProcess, host: int, flooding: asyncio.Event) -> None:
    """A person's whole round trip from 127.0.0.`host`, while the flood is on: create, join,
    start, both seats' streams, a spectator's stream and long-poll, a move, each answered."""
    await flooding.wait()
    async with at(service, host) as me, contextlib.AsyncExitStack() as held:
        table = await Seats.deal(me)
        path = f"/v1/games/{table.game}"
        streams = []
        for token in (*table.tokens, None):
            stream = await held.enter_async_context(
                me.stream("GET", f"{path}/stream", headers=auth(token))
            )
            assert stream.status_code == 200, await stream.aread()
            streams.append(stream)
        view = await me.get(path)
        assert view.status_code == 200, view.text
        version = view.json()["version"]
        poll = asyncio.create_task(me.get(f"{path}/events", params={"after": version, "wait": 20}))
        hand = await table.hand(me, table.turn)
        moved = await me.post(
            f"{path}/commands",
            json={"type": "play", "cards": hand[:1]},
            headers=auth(table.tokens[table.turn]),
        )
        assert moved.status_code == 200, moved.text
        after = moved.json()["version"]
        polled = await poll
        assert polled.status_code == 200 and polled.json()["version"] >= after, polled.text
        await asyncio.wait_for(asyncio.gather(*(reached(s, after) for s in streams)), 20)


class Flood:
    """What the abusive client got, by status, and how long it took."""

    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.started = time.monotonic()
        self.elapsed = 0.0

    async def send(self, requests: list[Any], flooding: asyncio.Event, width: int = 16) -> None:
        for i in range(0, len(requests), width):
            answers = await asyncio.gather(*requests[i : i + width])
            for r in answers:
                assert r.status_code < 500, r.text
                self.statuses[r.status_code] += 1
            flooding.set()  # under way: the others begin
        self.elapsed = time.monotonic() - self.started

    def at_most(self, burst: int, per_s: int) -> float:
        """What a bucket of `burst` refilled at `per_s` can have let through meanwhile."""
        return burst + per_s * self.elapsed + 1


async def test_one_abusive_client_cannot_starve_the_others(real: ServiceProcess) -> None:
    async with at(real, 4) as setup:
        watched = await Seats.deal(setup)  # a table the abuser floods with reads
    async with at(real, 2) as abuser, contextlib.AsyncExitStack() as hoard:
        own = await Seats.deal(abuser)
        waiting = 1 - own.turn
        hand = await own.hand(abuser, waiting)
        flooding = asyncio.Event()
        reads, refused = Flood(), Flood()
        view = f"/v1/games/{watched.game}"
        anonymous = [abuser.get(view) for _ in range(300)]
        made_up = [
            abuser.get(view, headers=auth(f"seat_{secrets.token_urlsafe(24)}")) for _ in range(300)
        ]
        plays = [
            abuser.post(
                f"/v1/games/{own.game}/commands",
                json={"type": "play", "cards": hand[:1]},
                headers=auth(own.tokens[waiting]),
            )
            for _ in range(300)
        ]
        mixed = [r for pair in zip(anonymous, made_up, strict=True) for r in pair]
        others = [honest_player(real, host, flooding) for host in (3, 5, 6)]
        await asyncio.gather(reads.send(mixed, flooding), refused.send(plays, flooding), *others)
        # The flood was held back by the abuser's own buckets, no more.
        assert set(reads.statuses) <= {200, 401, 429}, reads.statuses
        let_through = reads.statuses[200] + reads.statuses[401]
        assert let_through <= reads.at_most(DEFAULTS.read_burst, DEFAULTS.read_per_s)
        assert set(refused.statuses) <= {409, 429}, refused.statuses
        assert refused.statuses[409] <= refused.at_most(DEFAULTS.rate_burst, DEFAULTS.rate_per_s)
        # Hoarding streams: a token holds its cap's worth, and no more (the seat on turn: the
        # other one's bucket is spent).
        seat = own.tokens[own.turn]
        path = f"/v1/games/{own.game}/stream"
        held = Counter[int]()
        for _ in range(DEFAULTS.streams_per_token + 5):
            stream = await hoard.enter_async_context(abuser.stream("GET", path, headers=auth(seat)))
            held[stream.status_code] += 1
        assert held == {200: DEFAULTS.streams_per_token, 429: 5}, held
        # While it hoards them, the others' streams still open, and their moves go through.
        now = asyncio.Event()
        now.set()
        await honest_player(real, 7, now)


@pytest.fixture(scope="module")
def capped(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """Three streams or long-polls a token, five an address."""
    log: Path = tmp_path_factory.mktemp("capped") / "service.log"
    with serving(redis_url, log, STREAMS_PER_TOKEN="3", STREAMS_PER_ADDRESS="5") as service:
        yield service


@contextlib.asynccontextmanager
async def opened(
    client: httpx.AsyncClient, path: str, token: str | None = None
) -> AsyncIterator[httpx.Response]:
    async with client.stream("GET", path, headers=auth(token)) as stream:
        yield stream


async def test_streams_and_long_polls_are_capped_per_token_and_per_address(
    capped: ServiceProcess,
) -> None:
    async with at(capped, 20) as setup:
        table = await Seats.deal(setup)
    path = f"/v1/games/{table.game}"
    version = (await setup_view(capped, path))["version"]
    seat = table.tokens[0]
    async with at(capped, 21) as one, contextlib.AsyncExitStack() as held:
        streams = [
            await held.enter_async_context(opened(one, f"{path}/stream", seat)) for _ in range(3)
        ]
        assert [s.status_code for s in streams] == [200, 200, 200]
        async with opened(one, f"{path}/stream", seat) as over:
            assert over.status_code == 429
            assert (await over.aread()) and over.headers["retry-after"] == "5"
        poll = await one.get(
            f"{path}/events", params={"after": version, "wait": 20}, headers=auth(seat)
        )
        assert poll.status_code == 429, poll.text
        assert poll.json()["code"] == "rate_limited"
        # The other seat's token, from the same address (3 of its 5 taken), still streams.
        other = await held.enter_async_context(opened(one, f"{path}/stream", table.tokens[1]))
        assert other.status_code == 200
        # Closing a stream gives its place back (once the server has seen it go).
        await streams[0].aclose()
        deadline = time.monotonic() + 20
        while True:
            again = await held.enter_async_context(opened(one, f"{path}/stream", seat))
            if again.status_code == 200:
                break
            assert time.monotonic() < deadline, "the closed stream's place never came back"
            await again.aclose()
            await asyncio.sleep(0.05)
        # The address holds four: a spectator's stream from it is the fifth, the next one is
        # one too many...
        spectator = await held.enter_async_context(opened(one, f"{path}/stream"))
        assert spectator.status_code == 200
        async with opened(one, f"{path}/stream") as another:
            assert another.status_code == 429
        # ...and from another address it is not.
        async with at(capped, 22) as elsewhere, opened(elsewhere, f"{path}/stream") as watched:
            assert watched.status_code == 200


async def setup_view(service: ServiceProcess, path: str) -> dict[str, Any]:
    async with at(service, 20) as client:
        r = await client.get(path)
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view


@pytest.fixture(scope="module")
def proxied(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    """Behind a proxy at 127.0.0.2 (and only it); three reads at once, one a second."""
    log: Path = tmp_path_factory.mktemp("proxied") / "service.log"
    env = {"TRUSTED_PROXIES": "127.0.0.2", "READ_LIMIT_BURST": "3", "READ_LIMIT_PER_S": "1"}
    with serving(redis_url, log, **env) as service:
        yield service


async def test_ipv6_clients_are_bucketed_by_their_64_through_a_trusted_proxy(
    proxied: ServiceProcess,
) -> None:
    async with at(proxied, 2) as proxy, at(proxied, 30) as direct:
        # Two addresses of one /64, through the proxy: one bucket.
        same = Flood()
        clients = ["2001:db8:1:2::a", "2001:db8:1:2:ffff::b"]
        requests = [
            proxy.get("/v1/games", headers={"X-Forwarded-For": f"{clients[i % 2]}, 127.0.0.2"})
            for i in range(20)
        ]
        await same.send(requests, asyncio.Event(), width=1)
        assert same.statuses[429] and same.statuses[200] <= same.at_most(3, 1), same.statuses
        # Another /64 has its bucket; so has the proxy itself.
        for header in ({"X-Forwarded-For": "2001:db8:1:3::1"}, {}):
            r = await proxy.get("/v1/games", headers=header)
            assert r.status_code == 200, r.text
        # A peer that is not trusted cannot choose its address by the header.
        spoofed = Flood()
        requests = [
            direct.get("/v1/games", headers={"X-Forwarded-For": f"198.51.100.{i}"})
            for i in range(20)
        ]
        await spoofed.send(requests, asyncio.Event(), width=1)
        assert spoofed.statuses[429] and spoofed.statuses[200] <= spoofed.at_most(3, 1)
