"""Promises of the seat socket (docs/api.md, A seat socket; docs/security.md), from outside: a real
service process, real WebSockets.

- "Commands on one socket are handled one at a time, in the order sent": commands sent in one go
  are answered in that order, each decided on the table its predecessor left.
- "Every version reaches a socket exactly once, in order", while several seats send at once.
- "The seat socket has no ambient credential": a seat token in the upgrade's `Authorization`,
  `Cookie` or query makes nobody a seat; only `hello` names who the socket is.
- "A stream, long-poll or socket pays its first page when it opens", a seat's from its token's
  bucket and a spectator's from its address's read bucket: opening at `after=0` costs what a
  page of the table's events costs, not one.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.api.tables import Table, Tables, auth, game_moves, move
from tests.conftest import ServiceProcess, serving
from tests.socket.wire import (
    answer,
    greeted,
    heard,
    next_of,
    opened,
    say,
    socket_url,
    versions_until,
)

Json = dict[str, Any]


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log = tmp_path_factory.mktemp("promises") / "service.log"
    with serving(redis_url, log) as server:
        yield server


def command(id: str, body: Json, if_match: int | None = None) -> Json:
    message: Json = {"type": "command", "id": id, "command": body}
    return message if if_match is None else message | {"if_match": if_match}


async def seat_on_turn(tables: Tables, table: Table) -> tuple[int, Json]:
    seat: int = (await tables.view(table))["turn"]
    return seat, await tables.view(table, table.players[seat])


async def events_of(http: httpx.AsyncClient, table: Table, token: str | None) -> list[Json]:
    r = await http.get(f"/v1/games/{table.id}/events", headers=auth(token))
    assert r.status_code == 200, r.text
    events: list[Json] = r.json()["events"]
    return events


# -- one at a time, in order ----------------------------------------------------------------------


async def test_commands_sent_in_one_go_are_answered_in_order_each_on_the_last_one_s_table(
    service: ServiceProcess,
) -> None:
    """A seat on turn sends ten messages without reading: its play at the table's version; its
    `leave` at the version that play makes (stale, so 412, unless the play was applied first); a
    ping; another play (a seat that left is refused `illegal_move`, one that merely played
    `not_your_turn`); then pings between malformed commands. It hears one answer for each, in
    the order sent, under each command's id, and nothing is pushed twice."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        tables = Tables(http)
        table = await tables.ready("cheat", 2, seed=5)
        seat, view = await seat_on_turn(tables, table)
        version, hand = view["version"], view["me"]["hand"]
        sent = [
            command("play", {"type": "play", "cards": hand[:1]}, version),
            command("leave", {"type": "leave"}, version + 1),  # a play is one event
            {"type": "ping"},
            command("late", {"type": "play", "cards": hand[1:2]}),
        ]
        sent += [{"type": "ping"} if n % 2 else command(f"bad-{n}", {}) for n in range(6)]
        async with greeted(service.url, table.id, table.players[seat], after=version) as (ws, _):
            for message in sent:  # all in one go: nothing read in between
                await say(ws, message)
            answers: list[Json] = []
            pushed: list[Json] = []
            while len(answers) < len(sent):
                got = await next_of(ws, "result", "problem", "pong", "events", "view")
                if got["type"] in ("events", "view"):
                    pushed.append(got)
                else:
                    answers.append(got)
        assert [(a["type"], a.get("id")) for a in answers] == [
            ("result", "play"),
            ("result", "leave"),
            ("pong", None),
            ("problem", "late"),
            *[("pong", None) if n % 2 else ("problem", f"bad-{n}") for n in range(6)],
        ]
        played, left = answers[0]["result"], answers[1]["result"]
        assert [e["type"] for e in played["events"]] == ["cheat.cards_played"]
        assert played["version"] == version + 1
        # the leave was decided on the table the play made: accepted at its version
        gone = left["events"][0]
        assert (gone["type"], gone["data"]["seat"]) == ("cheat.player_left", seat)
        after_play = range(version + 2, left["version"] + 1)
        assert [e["version"] for e in left["events"]] == list(after_play)
        late = answers[3]["problem"]
        assert (late["status"], late["code"]) == (409, "illegal_move"), late
        for bad in answers[4::2]:
            assert bad["problem"]["code"] == "invalid_request", bad
        assert pushed == [], "each version came once, in its command's result"
        assert (await tables.view(table))["version"] == left["version"]


def chosen(view: Json, rng: random.Random) -> Json | None:
    """What a seat sends this time: the seat on turn plays (or accepts), another calls now and
    then while the window is open; None: it waits."""
    legal = game_moves(view)
    hand = view["me"]["hand"]
    if "play" in legal:
        return {"type": "play", "cards": rng.sample(hand, min(len(hand), rng.randint(1, 2)))}
    if "accept" in legal:
        return {"type": "accept"}
    if "call" in legal and rng.random() < 0.6:
        return {"type": "call"}
    return None


async def test_seats_sending_at_once_each_hear_every_version_once_in_order(
    service: ServiceProcess,
) -> None:
    """Three seats of a Cheat table, each on its own socket from version 0: every turn, the seat
    on turn plays while others call on the last play, all sent at once. Each socket gets every
    version exactly once, in order (in pushes or in its own results: 1..n, no gap, no repeat),
    as its own page of events has them, and all end at the table's version."""
    rng = random.Random(41)
    async with (
        httpx.AsyncClient(base_url=service.url, timeout=30) as http,
        contextlib.AsyncExitStack() as stack,
    ):
        tables = Tables(http)
        table = await tables.ready("cheat", 3, {"rounds": 3}, seed=41)
        sockets = [
            (await stack.enter_async_context(greeted(service.url, table.id, token)))[0]
            for token in table.players
        ]
        seen: list[list[Json]] = [[], [], []]
        together = 0

        async def send(seat: int, turn: int, body: Json) -> None:
            await say(sockets[seat], command(f"c{turn}-{seat}", body))
            before: list[Json] = []
            got = await answer(sockets[seat], before)
            seen[seat] += before
            if got["type"] == "result":
                seen[seat] += got["result"]["events"]
            else:  # lost the race to another seat's move
                assert got["problem"]["code"] in ("not_your_turn", "illegal_move"), got

        for turn in range(40):
            views = [await tables.view(table, token) for token in table.players]
            if views[0]["status"] == "finished":
                break
            sends = {seat: body for seat, v in enumerate(views) if (body := chosen(v, rng))}
            together += len(sends) > 1
            await asyncio.gather(*(send(seat, turn, body) for seat, body in sends.items()))
            now = (await tables.view(table))["version"]
            for seat, ws in enumerate(sockets):  # what was pushed meanwhile, read before more
                if not seen[seat] or seen[seat][-1]["version"] < now:
                    seen[seat] += await versions_until(ws, now)
        last = (await tables.view(table))["version"]
        assert together >= 5, "seats sent at once"
        for seat, token in enumerate(table.players):
            assert [e["version"] for e in seen[seat]] == list(range(1, last + 1)), seat
            assert seen[seat] == await events_of(http, table, token), seat


# -- no ambient credential -------------------------------------------------------------------------


def cards_in_hands(found: Any) -> set[str]:
    """Every card under a `hand` or `hands` key, anywhere in `found`."""
    cards: set[str] = set()
    if isinstance(found, dict):
        for key, value in found.items():
            if key in ("hand", "hands"):
                flat = value if isinstance(value, list) else [value]
                for item in flat:
                    cards |= {item} if isinstance(item, str) else set(item or [])
            else:
                cards |= cards_in_hands(value)
    elif isinstance(found, list):
        for item in found:
            cards |= cards_in_hands(item)
    return cards


@pytest.mark.parametrize("way", ["authorization", "cookie", "query", "all three"])
async def test_a_seat_token_in_the_upgrade_makes_the_socket_no_seat(
    service: ServiceProcess, way: str
) -> None:
    """A socket upgraded with a seat's token in `Authorization: Bearer`, in `Cookie: token=`, in
    `?token=` (or all three), that says `hello` without a token, is a spectator's: its welcome
    names no seat; the seat's move sent on it, legal for the seat, is 401 and changes nothing;
    its view and every event and view pushed (the catch-up, then the seat's move made over HTTP)
    are the spectator's, with no card of any hand."""
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        tables = Tables(http)
        table = await tables.ready("cheat", 2, seed=9)
        seat, view = await seat_on_turn(tables, table)
        token = table.players[seat]
        assert cards_in_hands(view) == set(view["me"]["hand"]) != set()  # what a leak looks like
        url, headers = socket_url(service.url, table.id), {}
        if way in ("authorization", "all three"):
            headers["Authorization"] = f"Bearer {token}"
        if way in ("cookie", "all three"):
            headers["Cookie"] = f"token={token}"
        if way in ("query", "all three"):
            url += f"?token={token}"
        events: list[Json] = []
        views: list[Json] = []

        async def pushed_until(ws: ClientConnection, version: int) -> None:
            """What is pushed until the view at `version` (a view follows each `events`)."""
            while not views or views[-1]["version"] < version:
                message = await next_of(ws, "events", "view")
                (events if message["type"] == "events" else views).append(message)

        async with connect(url, proxy=None, compression=None, additional_headers=headers) as ws:
            await say(ws, {"type": "hello", "token": None, "after": 0, "views": True})
            welcome = await next_of(ws, "welcome")
            who = [welcome[key] for key in ("role", "seat", "player_id")]
            assert who == ["spectator", None, None], welcome
            assert welcome["game"] == await tables.view(table) and welcome["game"]["me"] is None
            await pushed_until(ws, view["version"])
            # the seat's own move, legal for the seat now: refused on this socket, which is none
            play = {"type": "play", "cards": view["me"]["hand"][:1]}
            await say(ws, command("a-1", play, view["version"]))
            refused = await next_of(ws, "problem")
            assert refused["id"] == "a-1" and refused["problem"]["status"] == 401
            assert refused["problem"]["code"] == "unauthorized", refused
            r = await tables.send(table, seat, play, **{"If-Match": str(view["version"])})
            assert r.status_code == 200, r.text  # (so the refusal changed nothing)
            moved = r.json()["version"]
            await pushed_until(ws, moved)
            pushed = [e for message in events for e in message["events"]]
            assert pushed == await events_of(http, table, None)
            assert pushed != await events_of(http, table, token)
            assert all(v["game"]["me"] is None for v in views)
            assert views[-1]["game"] == await tables.view(table)
            assert cards_in_hands([welcome, events, views]) == set(), "a hand was pushed"
        assert (await tables.view(table))["version"] == moved


# -- the first page's cost ------------------------------------------------------------------------

PER_S = 1
SPECTATOR_SOCKETS, SPECTATOR_STREAMS = "127.0.0.61", "127.0.0.62"
"""The spectators' own addresses: each has a read bucket of its own."""


def first_page_cost(version: int) -> int:
    """docs/api.md, Rate limits: "A read of events costs what it carries: 1, and 1 more for
    every 50 events" (a page holds at most 500): the first page of a table at `version`."""
    return 1 + min(version, 500) // 50


Opener = Callable[[], Awaitable[bool]]
"""Opens a socket or a stream and closes it: whether it was let in (else it was refused 429)."""


async def openings(open_one: Opener) -> tuple[int, float]:
    """Open (each closed at once) until one is refused: how many were let in, and how long that
    took (the bucket refills meanwhile)."""
    started, let_in = time.monotonic(), 0
    while await open_one():
        let_in += 1
        assert let_in < 200, "never refused"
    return let_in, time.monotonic() - started


def socket_opener(url: str, game: str, token: str | None, after: int, **options: Any) -> Opener:
    async def open_one() -> bool:
        async with opened(url, game, **options) as ws:
            await say(ws, {"type": "hello", "token": token, "after": after})
            try:
                return bool((await heard(ws))["type"] == "welcome")
            except ConnectionClosed as refused:
                assert refused.rcvd is not None, refused
                code, reason = refused.rcvd.code, refused.rcvd.reason
            assert code == 4429 and reason.startswith("rate_limited retry_after="), (code, reason)
            return False

    return open_one


def stream_opener(client: httpx.AsyncClient, game: str, token: str | None) -> Opener:
    async def open_one() -> bool:
        path = f"/v1/games/{game}/stream"
        async with client.stream("GET", path, params={"after": 0}, headers=auth(token)) as r:
            if r.status_code == 200:
                return True
            await r.aread()
            assert r.status_code == 429 and r.json()["code"] == "rate_limited", r.text
            return False

    return open_one


async def test_opening_a_socket_or_a_stream_pays_its_first_page(
    service: ServiceProcess, redis_url: str, redis: Redis, tmp_path: Path
) -> None:
    """A three-seat table past 150 events; a service whose buckets hold three first pages of it
    and refill one a second. From `after=0`, a seat's sockets (its token's bucket), another
    seat's streams, a spectator's sockets and another spectator address's streams (each
    address's read bucket) are each let in three times, then refused (4429, 429); a third
    seat's sockets from the table's version (an empty first page, 1) as many times as its
    bucket holds. Every count is the bucket's arithmetic over the time measured."""
    rng = random.Random(23)
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        tables = Tables(http)
        table = await tables.ready("cheat", 3, {"rounds": 20}, seed=23)
        version = 0
        while version < 150:
            version = (await move(tables, table, rng))["version"]
    cost = first_page_cost(version)
    burst = 3 * cost
    env = {
        "RATE_LIMIT_BURST": str(burst),
        "RATE_LIMIT_PER_S": str(PER_S),
        "READ_LIMIT_BURST": str(burst),
        "READ_LIMIT_PER_S": str(PER_S),
    }
    await redis.delete(*(f"kr:bucket:read:{a}" for a in (SPECTATOR_SOCKETS, SPECTATOR_STREAMS)))
    transport = httpx.AsyncHTTPTransport(local_address=SPECTATOR_STREAMS)
    with serving(redis_url, tmp_path / "service.log", **env) as limited:
        async with (
            httpx.AsyncClient(base_url=limited.url, timeout=30) as http,
            httpx.AsyncClient(base_url=limited.url, timeout=30, transport=transport) as other,
        ):
            # the host looks (its own bucket), so the process holds the table: one that does not
            # charges any first page as a full one (500 events), whatever it carries
            assert (await Tables(http).view(table, table.host))["version"] == version
            url, game = limited.url, table.id
            ways = {
                "seat sockets": socket_opener(url, game, table.players[0], 0),
                "seat streams": stream_opener(http, game, table.players[1]),
                "spectator sockets": socket_opener(
                    url, game, None, 0, local_addr=(SPECTATOR_SOCKETS, 0)
                ),
                "spectator streams": stream_opener(other, game, None),
            }
            for way, open_one in ways.items():
                let_in, elapsed = await openings(open_one)
                most = int(burst + PER_S * elapsed) // cost
                assert burst // cost <= let_in <= most, (way, let_in, cost, burst, elapsed)
            # from the table's version the first page is empty, and costs one
            let_in, elapsed = await openings(socket_opener(url, game, table.players[2], version))
            assert burst <= let_in <= int(burst + PER_S * elapsed), (let_in, elapsed)
