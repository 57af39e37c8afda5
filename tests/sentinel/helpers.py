"""Play and follow tables across a failover: moves that say how they were answered, followers
that reconnect as a browser's `EventSource` does, and a primary that moves."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from litestar import Litestar

from tests.api.tables import Table, auth, candidates, game_moves
from tests.redis_group import MASTER, RedisGroup, Server, ask

Http = httpx.AsyncClient
HONEST = {200, 409, 412, 503}
"""What a move in flight across a failover may be answered: applied, refused by the rules or a
lost race, or 503 (`outcome_unknown`, `unavailable`); never a 500."""


@dataclass
class Moves:
    """How the moves of a test were answered, by status (a 503 by its `code`), and the reads
    they made first that were not answered 200."""

    answers: dict[str, int] = field(default_factory=dict)

    def count(self, r: httpx.Response) -> None:
        key = str(r.status_code)
        if r.status_code == 503:
            key += " " + r.json().get("code", "?")
        self.answers[key] = self.answers.get(key, 0) + 1

    def dishonest(self) -> dict[str, int]:
        return {k: n for k, n in self.answers.items() if int(k.split()[0]) not in HONEST}


async def move(http: Http, table: Table, rng: random.Random, moves: Moves) -> bool:
    """One move by a seat that may make one, sent (and after a 503 sent again, with its
    `Idempotency-Key`) until it is answered; whether it was applied (200)."""
    views = []
    for token in table.players:
        r = await http.get(f"/v1/games/{table.id}", headers=auth(token))
        if r.status_code != 200:
            moves.count(r)
            assert r.status_code == 503, r.text
            return False
        views.append(r.json())
    assert views[0]["status"] != "finished", "the match ended: play a longer one"
    movers = [v for v in views if game_moves(v)]
    if not movers:  # read while another client moved
        return False
    view = rng.choice(movers)
    command = candidates(view, rng)[-1]  # the last candidate is always legal
    key = uuid.uuid4().hex
    for _ in range(50):
        r = await http.post(
            f"/v1/games/{table.id}/commands",
            json=command,
            headers=auth(table.players[view["me"]["seat"]]) | {"Idempotency-Key": key},
        )
        moves.count(r)
        if r.status_code != 503:
            return r.status_code == 200
        await asyncio.sleep(0.1)
    return False


async def moved_once(
    http: Http, table: Table, rng: random.Random, moves: Moves, within: float
) -> None:
    """Until one move is applied (the service found the primary again), at most `within` s."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if await move(http, table, rng, moves):
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"no move was applied within {within} s: {moves.answers}")


async def keep_moving(http: Http, table: Table, rng: random.Random, moves: Moves) -> None:
    """Moves one after another until cancelled."""
    while True:
        await move(http, table, rng, moves)
        await asyncio.sleep(0.02)


async def version_of(http: Http, table: Table) -> int:
    for _ in range(100):
        r = await http.get(f"/v1/games/{table.id}/events", params={"after": 1 << 30})
        if r.status_code == 200:
            return int(r.json()["version"])
        await asyncio.sleep(0.1)
    raise AssertionError("the table could not be read")


@dataclass
class Follower:
    """The versions a follower of a table was given, in order, from `after` on."""

    after: int
    seen: list[int] = field(default_factory=list)

    @property
    def last(self) -> int:
        return self.seen[-1] if self.seen else self.after

    def take(self, event: dict[str, Any]) -> None:
        self.seen.append(int(event["version"]))

    def gapless(self) -> bool:
        return self.seen == list(range(self.after + 1, self.after + 1 + len(self.seen)))

    async def reached(self, version: int, within: float = 20.0) -> None:
        deadline = time.monotonic() + within
        while self.last < version:
            assert time.monotonic() < deadline, f"the follower stopped at {self.last} < {version}"
            await asyncio.sleep(0.05)


async def long_poll(http: Http, table: Table, follower: Follower) -> None:
    """Follow by long-polls, each from the last version given (after a 503, again)."""
    while True:
        r = await http.get(
            f"/v1/games/{table.id}/events", params={"after": follower.last, "wait": 5}
        )
        if r.status_code != 200:
            assert r.status_code == 503, r.text
            await asyncio.sleep(0.1)
            continue
        for event in r.json()["events"]:
            follower.take(event)


async def stream(url: str, table: Table, follower: Follower) -> None:
    """Follow the event stream; when it ends or fails, open it again from the last version
    given, as `EventSource` does with `Last-Event-ID`."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while True:
            try:
                async with http.stream(
                    "GET", f"/v1/games/{table.id}/stream", params={"after": follower.last}
                ) as r:
                    if r.status_code != 200:
                        assert r.status_code == 503, r.status_code
                        await asyncio.sleep(0.1)
                        continue
                    data: list[str] = []
                    async for line in r.aiter_lines():
                        if line.startswith("data: "):
                            data.append(line[6:])
                        elif not line and data:
                            follower.take(json.loads("".join(data)))
                            data = []
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)


def graceful_failover(group: RedisGroup) -> Server:
    """`SENTINEL FAILOVER`: a Sentinel promotes a replica and demotes the primary; the new
    primary, once a majority names it."""
    old = group.primary()
    said = ask(group.sentinels[0].port, "sentinel", "failover", MASTER)
    assert said == b"OK", said
    return group.wait_for_new_primary(old)


async def in_thread(function: Any, *args: Any) -> Any:
    """A blocking call of the group (it runs `redis-cli`) off the event loop."""
    return await asyncio.to_thread(function, *args)


@contextlib.asynccontextmanager
async def running(app: Litestar) -> AsyncIterator[None]:
    """The app's start-up and shut-down on this loop (a test client would run it on a loop of
    its own, where a request blocks this one: no long-poll could wait beside a move)."""
    into: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    out: asyncio.Queue[dict[str, str]] = asyncio.Queue()
    scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": {}}
    task = asyncio.ensure_future(app(scope, into.get, out.put))  # type: ignore[arg-type]
    await into.put({"type": "lifespan.startup"})
    said = await out.get()
    assert said["type"] == "lifespan.startup.complete", said
    try:
        yield
    finally:
        await into.put({"type": "lifespan.shutdown"})
        await out.get()
        await task
