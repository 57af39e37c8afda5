"""Followers of a table through a failover, as a spectator's client follows one: an event stream
that reconnects with `Last-Event-ID`, and a long-poll that loops on `after`. Each keeps every
event it was shown, in the order it was shown, for the checks to hold against the log."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

import httpx

from tests.failover.players import RETRY_PAUSE_S, Record, outcome

STREAM_SILENCE_S = 20.0
"""A stream that says nothing this long (not even its keep-alive, every 15 s) is given up and
opened again; its headers are waited for as long."""
POLL_WAIT_S = 2
"""A long-poll's `wait`: short, since a service stopping waits for the polls it holds."""


@dataclass
class Follower:
    """What one follower of one table was shown."""

    table_id: str
    how: str
    """`stream` or `long-poll`."""
    seen: list[dict[str, Any]] = field(default_factory=list)
    connections: list[int] = field(default_factory=list)
    """For each event seen, which of the follower's streams (or polls) showed it: 1, 2, …"""
    opened: int = 0
    reached: asyncio.Event = field(default_factory=asyncio.Event)
    until: int | None = None
    """The version it is to reach before it stops (the table's last, once its match is over)."""

    @property
    def last(self) -> int:
        return self.seen[-1]["version"] if self.seen else 0

    def shown(self, event: dict[str, Any]) -> None:
        self.seen.append(event)
        self.connections.append(self.opened)
        if self.until is not None and self.last >= self.until:
            self.reached.set()

    def stop_at(self, version: int) -> None:
        self.until = version
        if self.last >= version:
            self.reached.set()


async def stream(http: httpx.AsyncClient, follower: Follower, record: Record) -> None:
    """An event stream, opened again from the last version shown whenever it ends."""
    url = f"/v1/games/{follower.table_id}/stream"
    while not follower.reached.is_set():
        headers = {"Last-Event-ID": str(follower.last)} if follower.seen else {}
        try:
            timeout = httpx.Timeout(5.0, read=STREAM_SILENCE_S)
            async with http.stream("GET", url, headers=headers, timeout=timeout) as r:
                follower.opened += 1
                if r.status_code != 200:
                    await r.aread()  # a problem, to read its code
                record.note("STREAM", outcome(r))
                if r.status_code == 200:
                    await _frames(r, follower)
        except httpx.TimeoutException:
            record.note("STREAM", "timeout")
        except httpx.TransportError:
            record.note("STREAM", "dropped")
        await asyncio.sleep(RETRY_PAUSE_S)


async def _frames(r: httpx.Response, follower: Follower) -> None:
    data: list[str] = []
    async for line in r.aiter_lines():
        if line == "":
            if data:
                follower.shown(json.loads("\n".join(data)))
                if follower.reached.is_set():
                    return
            data = []
        elif line.startswith("data:"):
            data.append(line.removeprefix("data:").removeprefix(" "))


async def long_poll(http: httpx.AsyncClient, follower: Follower, record: Record) -> None:
    """`GET …/events?after=<last>&wait=2`, again and again."""
    url = f"/v1/games/{follower.table_id}/events"
    while not follower.reached.is_set():
        try:
            follower.opened += 1
            r = await http.get(
                url, params={"after": follower.last, "wait": POLL_WAIT_S}, timeout=15
            )
        except httpx.TimeoutException:
            record.note("POLL", "timeout")
        except httpx.TransportError:
            record.note("POLL", "dropped")
        else:
            record.note("POLL", outcome(r))
            if r.status_code == 200:
                for event in r.json()["events"]:
                    follower.shown(event)
                continue
        await asyncio.sleep(RETRY_PAUSE_S)
