"""Hidden information across membership changes, on two service processes: no viewer receives a
card it cannot know while players join and leave before the start from the first, a middle and the
last seat, leave after it, go away on their clock and come back, beside house seats, a spectator
and the host — with every viewer's stream and seat socket open on both processes and a long-poll
open across each leave, and every request sent to the other process than the last.

A viewer is a player: the scanner (test_leaks.py) follows its player id through the seats, which
move down when a player leaves before the start. A token that lost its seat that way may know
nothing more: its open streams end within seconds, its open long-polls and every later request
answer 401 (docs/api.md, `leave`). A player who left after the start keeps reading as its seat.
"""

from __future__ import annotations

import asyncio
import functools
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from tests.api.tables import Table, Tables, auth, candidates, game_moves
from tests.conftest import two_processes
from tests.reliability import positions
from tests.reliability.test_leaks import (
    FIGURES,
    Received,
    Viewer,
    cards_in,
    check,
    follow,
    follow_socket,
    joins,
    knowledge,
    pushed_once,
)

CLOSED_WITHIN = 3.0
"""Seconds within which the streams of a token that lost its seat must end after its leave."""
WAIT = 10
"""The long-polls' `wait`: longer than anything here takes, so each is answered by a change."""
BOUND = 30.0
"""Seconds a condition awaited may take at most (the clock runs out after 5)."""
MEMBERSHIP = {
    "leaves before the start": 0,
    "streams open across them": 0,
    "long-polls open across them": 0,
    "leaves after the start": 0,
    "away and back": 0,
    "refused tokens (401)": 0,
}
LOBBIES: dict[str, list[str]] = {
    # one deck seats four: [P0 P1 P2 P3] → [P1 P2 P3] → +H → a middle one leaves → +P4 → P4, the
    # last, leaves → +P5: four seats at the start, one the house's
    "cheat": ["join"] * 4 + ["leave 0", "house", "leave middle", "join", "leave last", "join"],
    "thirty_one": ["join"] * 5
    + ["leave last", "house", "leave 0", "join", "leave middle", "house", "join"],
}
GAMES: list[tuple[str, dict[str, Any], int]] = [
    (
        "cheat",
        {"max_play": 3, "chroniclers": True, "house_pause_seconds": 0, "reveal": "match_end"},
        11,
    ),
    ("thirty_one", {"lives": 2, "max_circuits": 2, "chronicler": True}, 12),
]
"""Kind, options and seed of each table; each gets a clock (`turn_seconds` 5) to go away on."""


class Two:
    """The two processes' clients: each request goes to the other process than the last."""

    def __init__(self, a: httpx.AsyncClient, b: httpx.AsyncClient) -> None:
        self.both = (a, b)
        self.turn = 0

    def next(self) -> httpx.AsyncClient:
        self.turn ^= 1
        return self.both[self.turn]


@dataclass
class Reader:
    """One of a viewer's streams, on one process."""

    viewer: Viewer
    process: int
    frames: list[dict[str, str]] = field(default_factory=list)
    opened: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None
    socket: bool = False
    """A seat socket rather than an SSE stream (its frames are its pushed events)."""

    def last(self) -> int:
        """The version of the last event it received."""
        return int(self.frames[-1]["id"]) if self.frames else 0

    def done(self) -> bool:
        """Whether the stream has ended (or was ended here)."""
        return self.task is not None and self.task.done()


async def until(condition: Callable[[], bool], what: str, bound: float = BOUND) -> None:
    """Waits for `condition()` to hold, at most `bound` s."""
    began = time.monotonic()
    while not condition():
        if time.monotonic() - began > bound:
            raise AssertionError(f"not within {bound} s: {what}")
        await asyncio.sleep(0.02)


class Game:
    """One table played through two processes; what its viewers received, and what went wrong
    besides leaks (`problems`)."""

    def __init__(
        self, two: Two, kind: str, options: dict[str, Any], seed: int, redis_url: str
    ) -> None:
        self.two, self.kind, self.seed, self.redis_url = two, kind, seed, redis_url
        self.options = options | {"turn_seconds": 5}
        self.rng = random.Random(seed)
        self.spectator = Viewer(f"{kind}: spectator", None, None)
        self.host = Viewer(f"{kind}: host", None, None)
        self.people: list[Viewer] = []
        """Every player who joined, whether still seated or not."""
        self.seats: list[str] = []
        """Player ids by seat, the house's too."""
        self.gone: dict[str, int] = {}
        """Player id → the version of its leave, for those who left before the start."""
        self.left: set[str] = set()
        """Players who left after the start."""
        self.readers: list[Reader] = []
        self.problems: list[str] = []
        self.version = 0
        self.table = Table("", kind, "")

    def path(self, tail: str = "") -> str:
        return f"/v1/games/{self.table.id}{tail}"

    def viewers(self) -> list[Viewer]:
        """Everyone who may still read the table: its players (those who left after the start
        too), the spectator and the host."""
        return [v for v in self.people if v.player not in self.gone] + [self.spectator, self.host]

    def person(self, seat: int) -> Viewer | None:
        """The player of a seat, None for a house player's."""
        return next((v for v in self.people if v.player == self.seats[seat]), None)

    def at(self, version: int) -> None:
        self.version = max(self.version, version)

    async def open_streams(self, viewer: Viewer) -> None:
        """Opens the viewer's stream and its seat socket on each process, and waits until each
        answered."""
        for process, http in enumerate(self.two.both):
            for socket in (False, True):
                reader = Reader(viewer, process, socket=socket)
                follows = (
                    follow_socket(
                        str(http.base_url), self.table, viewer, reader.frames, reader.opened
                    )
                    if socket
                    else follow(http, self.table, viewer, reader.frames, reader.opened)
                )
                reader.task = asyncio.create_task(follows)
                self.readers.append(reader)
                await asyncio.wait_for(reader.opened.wait(), BOUND)

    async def caught_up(self) -> None:
        """Waits until every open stream has every event up to the version known."""
        live = [r for r in self.readers if not r.done()]
        await until(
            lambda: all(r.last() >= self.version or r.done() for r in live),
            f"{self.kind}: the streams reach v{self.version}",
        )

    async def create(self) -> None:
        self.table = await Tables(self.two.next()).create(self.kind, self.options, self.seed)
        self.host.token = self.table.host
        self.at(1)
        await self.open_streams(self.spectator)
        await self.open_streams(self.host)

    async def join(self) -> None:
        name = f"P{len(self.people)}"
        r = await self.two.next().post(self.path("/players"), json={"name": name})
        assert r.status_code == 201, r.text
        joined = r.json()
        viewer = Viewer(f"{self.kind}: {name}", joined["player_id"], joined["token"])
        viewer.take("join", r, joined["game"]["version"], frozenset())
        viewer.received.append(Received("joined", joined["game"]["version"], joined["game"]))
        self.people.append(viewer)
        self.seats.append(joined["player_id"])
        self.at(joined["game"]["version"])
        await self.open_streams(viewer)

    async def house(self) -> None:
        r = await self.two.next().post(
            self.path("/house-players"),
            json={"name": f"House {len(self.seats)}-{self.version}"},
            headers=auth(self.table.host),
        )
        body = self.host.take("house player", r, self.version, frozenset())
        assert r.status_code == 201, r.text
        self.host.received.append(
            Received("view (house player)", body["game"]["version"], body["game"])
        )
        self.seats.append(body["player_id"])
        self.at(body["game"]["version"])

    async def long_poll(self, viewer: Viewer, after: int) -> httpx.Response:
        return await self.two.next().get(
            self.path("/events"), params={"after": after, "wait": WAIT}, headers=auth(viewer.token)
        )

    def took(self, viewer: Viewer, what: str, r: httpx.Response) -> Any:
        """Records an answer to `viewer`, to be scanned."""
        body = viewer.take(what, r, self.version, frozenset())
        if r.status_code == 200:
            viewer.received.append(Received(what, self.version, body))
        return body

    async def leave_before_start(self, which: str) -> None:
        """The player of the first, a middle or the last seat leaves, with every stream caught up
        and every viewer's long-poll open across the leave."""
        people = [s for s in range(len(self.seats)) if self.person(s) is not None]
        if which == "middle":
            seat = self.rng.choice([s for s in people if 0 < s < len(self.seats) - 1])
        else:
            seat = 0 if which == "0" else len(self.seats) - 1
        leaver = self.person(seat)
        assert leaver is not None, f"{self.kind}: seat {seat} is the house's"
        await self.caught_up()
        polls = {
            v.name: asyncio.create_task(self.long_poll(v, self.version)) for v in self.viewers()
        }
        # Time for the long-polls to reach their wait; one that came late is answered the same.
        await asyncio.sleep(0.3)
        MEMBERSHIP["streams open across them"] += sum(not r.done() for r in self.readers)
        r = await self.two.next().post(
            self.path("/commands"), json={"type": "leave"}, headers=auth(leaver.token)
        )
        body = self.took(leaver, "command (leave)", r)
        assert r.status_code == 200, r.text
        at_leave = body["version"]
        self.at(at_leave)
        self.gone[leaver.player or ""] = at_leave
        del self.seats[seat]
        MEMBERSHIP["leaves before the start"] += 1
        MEMBERSHIP["long-polls open across them"] += len(polls)
        mine = [r for r in self.readers if r.viewer is leaver]
        try:
            await until(lambda: all(r.done() for r in mine), "", CLOSED_WITHIN)
        except AssertionError:
            ends = [r.process for r in mine if not r.done()]
            self.problems.append(
                f"{leaver.name} left seat {seat} at v{at_leave}: its streams on processes {ends} "
                f"were still open {CLOSED_WITHIN} s later"
            )
        for viewer in [*self.viewers(), leaver]:
            r = await polls[viewer.name]
            page = self.took(viewer, "events (long-poll across a leave)", r)
            if viewer is leaver:
                if r.status_code != 401:
                    self.problems.append(
                        f"{leaver.name}'s long-poll open across its leave answered "
                        f"{r.status_code}, not 401: {r.text[:300]}"
                    )
            elif r.status_code != 200 or at_leave not in [e["version"] for e in page["events"]]:
                self.problems.append(f"{viewer.name}'s long-poll across a leave: {r.text[:300]}")
        await self.refused(leaver)

    async def refused(self, viewer: Viewer) -> None:
        """A token that lost its seat reads nothing more, on either process: view, page, stream."""
        for http in self.two.both:
            for what, tail in (("view", ""), ("events", "/events")):
                r = await http.get(self.path(tail), headers=auth(viewer.token))
                self.took(viewer, f"{what} after leaving", r)
                self.expect_401(viewer, f"{what} after leaving", r)
            token = {"token": viewer.token or ""}
            async with http.stream("GET", self.path("/stream"), params=token) as r:
                if r.status_code == 200:
                    self.problems.append(f"{viewer.name}: a stream after leaving answered 200")
                else:
                    await r.aread()
                    self.took(viewer, "stream after leaving", r)
                    self.expect_401(viewer, "stream after leaving", r)

    def expect_401(self, viewer: Viewer, what: str, r: httpx.Response) -> None:
        if r.status_code == 401:
            MEMBERSHIP["refused tokens (401)"] += 1
        else:
            self.problems.append(f"{viewer.name}: {what} answered {r.status_code}, not 401")

    async def start(self) -> None:
        await self.caught_up()
        polls = {
            v.name: asyncio.create_task(self.long_poll(v, self.version)) for v in self.viewers()
        }
        await asyncio.sleep(0.3)  # as for a leave: the long-polls wait across the deal
        r = await self.two.next().post(self.path("/start"), headers=auth(self.table.host))
        view = self.host.take("start", r, self.version, frozenset())
        assert r.status_code == 200, r.text
        self.host.received.append(Received("view (start)", view["version"], view))
        self.at(view["version"])
        for viewer in self.viewers():
            r = await polls[viewer.name]
            self.took(viewer, "events (long-poll across the start)", r)
            assert r.status_code == 200, r.text

    async def command(self, viewer: Viewer, command: dict[str, Any]) -> httpx.Response:
        r = await self.two.next().post(
            self.path("/commands"), json=command, headers=auth(viewer.token)
        )
        sent = frozenset(c for c, _ in cards_in(command))
        body = viewer.take("command", r, self.version, sent)
        if r.status_code == 200:
            viewer.received.append(Received("command", body["version"], body, sent))
            self.at(body["version"])
        else:
            assert r.status_code in (409, 422), r.text
        return r

    async def look(self) -> dict[str, dict[str, Any]]:
        """Every reader's view, by name."""
        views = {}
        for viewer in self.viewers():
            r = await self.two.next().get(self.path(), headers=auth(viewer.token))
            view = self.took(viewer, "view", r)
            assert r.status_code == 200, r.text
            views[viewer.name] = view
        return views

    def went_away(self, after: int, seat: int) -> bool:
        """Whether the spectator's stream has told since `after` that `seat` went away."""
        return any(
            event["type"].endswith(".seat_away") and event["data"]["seat"] == seat
            for reader in self.readers
            if reader.viewer is self.spectator
            for event in map(json.loads, (f["data"] for f in reader.frames))
            if event["version"] > after
        )

    async def play(self) -> None:
        """Random legal moves to the end; on the way a player leaves, one goes away and comes
        back, long-polls wait across moves, and the tokens that lost their seats are tried."""
        rng = self.rng
        leave_at, away_at = rng.randint(2, 6), rng.randint(3, 8)
        back_at: int | None = None
        away: Viewer | None = None
        moves = stalls = 0
        while True:
            views = await self.look()
            table = views[self.spectator.name]
            self.at(table["version"])
            if table["status"] == "finished":
                return
            seated = [(v, views[v.name]) for v in self.viewers() if v.player is not None]
            for viewer, view in seated:  # one who left keeps reading its seat, with no move
                if viewer.player in self.left and (view["me"] is None or view["legal"] != []):
                    self.problems.append(f"{viewer.name} left after the start; its view: {view}")
            active = [
                (v, view) for v, view in seated if not table["players"][view["me"]["seat"]]["house"]
            ]
            if moves >= leave_at and len(active) > 2:
                leaver, view = rng.choice([a for a in active if a[0] is not away])
                r = await self.command(leaver, {"type": "leave"})
                assert r.status_code == 200, r.text
                self.left.add(leaver.player or "")
                MEMBERSHIP["leaves after the start"] += 1
                leave_at = 10**9
                continue
            turn = table["turn"]
            if moves >= away_at and away is None and turn is not None:
                candidate = next((v for v, view in active if view["me"]["seat"] == turn), None)
                if candidate is not None:
                    if not table["players"][turn]["away"]:
                        # Nobody moves until the seat's clock runs out and the house plays it.
                        await self.caught_up()
                        began = self.version
                        gone_away = functools.partial(self.went_away, began, turn)
                        await until(gone_away, f"{self.kind}: seat {turn} goes away")
                    # (Else its clock ran out already, the test's client being slow on a
                    # loaded machine: the same absence, and it comes back the same way.)
                    away, back_at = candidate, moves + rng.randint(0, 2)
                    continue
            if away is not None and back_at is not None and moves >= back_at:
                r = await self.command(away, {"type": "back"})
                assert r.status_code == 200, f"{self.kind}: {away.name} is not back: {r.text}"
                MEMBERSHIP["away and back"] += 1
                back_at = None
                continue
            if moves % 20 == 7 and self.gone:
                gone = rng.choice([v for v in self.people if v.player in self.gone])
                await self.refused(gone)
            movers = [(v, view) for v, view in active if game_moves(view)]
            if not movers:  # the house or a clock has the turn: wait for the next event
                stalls += 1
                assert stalls < 100, f"{self.kind}: nobody may move: {table}"
                r = await self.long_poll(self.spectator, table["version"])
                self.took(self.spectator, "events (long-poll)", r)
                continue
            poll = None
            if rng.random() < 0.2:
                reader = rng.choice(self.viewers())
                poll = (reader, asyncio.create_task(self.long_poll(reader, table["version"])))
            mover, view = rng.choice(movers)
            for command in candidates(view, rng):
                r = await self.command(mover, command)
                if r.status_code == 200:
                    moves += 1
                    break
            else:  # the house moved meanwhile (a clock ran out): look again
                stalls += 1
                assert stalls < 100, f"{self.kind}: no command accepted for {view}"
            if poll is not None:
                reader, task = poll
                self.took(reader, "events (long-poll across a move)", await task)

    async def finish(self) -> list[str]:
        """Ends the streams, reads each viewer's log and scans what it received; the leaks."""
        await self.caught_up()
        for reader in self.readers:
            if reader.viewer.player in self.gone:
                continue
            if reader.done():
                self.problems.append(f"{reader.viewer.name}'s stream on {reader.process} ended")
            elif reader.last() != self.version:
                self.problems.append(f"{reader.viewer.name}'s stream on {reader.process} lags")
            elif reader.socket and not pushed_once(reader.frames, self.version):
                self.problems.append(
                    f"{reader.viewer.name}'s socket on {reader.process} did not push every "
                    "version once, in order"
                )
        for reader in self.readers:
            assert reader.task is not None
            reader.task.cancel()
        await asyncio.gather(*(r.task for r in self.readers if r.task), return_exceptions=True)
        spectators = await self.log(self.spectator)
        assert spectators is not None
        leaks = []
        stored = positions.stored_log(self.redis_url, self.table.id)
        for viewer in [*self.people, self.spectator, self.host]:
            events = await self.log(viewer)
            if viewer.player in self.gone:
                if events is not None:
                    self.problems.append(f"{viewer.name} left before the start but reads the log")
                events = spectators[: self.gone[viewer.player or ""]]  # what it may ever read
            assert events is not None, f"{viewer.name} cannot read the log"
            viewer.streamed = [f for r in self.readers if r.viewer is viewer for f in r.frames]
            reveal = self.options.get("reveal", "never")
            leaks += check(viewer, events, self.problems, stored, reveal)
        FIGURES["games"] += 1
        return leaks

    async def log(self, viewer: Viewer) -> list[dict[str, Any]] | None:
        """The viewer's whole log, page by page; None when its token is refused."""
        events: list[dict[str, Any]] = []
        while True:
            r = await self.two.next().get(
                self.path("/events"), params={"after": len(events)}, headers=auth(viewer.token)
            )
            page = self.took(viewer, "events", r)
            if r.status_code == 401:
                MEMBERSHIP["refused tokens (401)"] += 1
                return None
            assert r.status_code == 200, r.text
            events += page["events"]
            if not page["more"]:
                return events


async def one_table(
    two: Two, kind: str, options: dict[str, Any], seed: int, redis_url: str
) -> tuple[list[str], list[str]]:
    game = Game(two, kind, options, seed, redis_url)
    await game.create()
    for step in LOBBIES[kind]:
        if step == "join":
            await game.join()
        elif step == "house":
            await game.house()
        else:
            await game.leave_before_start(step.removeprefix("leave "))
    await game.start()
    await game.play()
    leaks = await game.finish()
    return leaks, game.problems


async def all_tables(redis_url: str, logs: Path) -> tuple[list[str], list[str]]:
    async with two_processes(redis_url, logs) as (a, b):
        results = await asyncio.gather(
            *(one_table(Two(a, b), kind, options, seed, redis_url) for kind, options, seed in GAMES)
        )
    return [x for r in results for x in r[0]], [x for r in results for x in r[1]]


def test_no_viewer_learns_a_card_across_joins_leaves_and_absences(
    redis_url: str, tmp_path: Path
) -> None:
    for key in FIGURES:
        FIGURES[key] = 0
    for key in MEMBERSHIP:
        MEMBERSHIP[key] = 0
    leaks, problems = asyncio.run(all_tables(redis_url, tmp_path))
    FIGURES["leaks"] = len(leaks)
    print("\nleak figures:", json.dumps(FIGURES | MEMBERSHIP))
    for line in leaks[:10] + problems[:10]:
        print(" ", line)
    assert FIGURES["games"] == len(GAMES) and FIGURES["cards checked"] > 0
    assert MEMBERSHIP["away and back"] == len(GAMES)
    assert leaks == [], f"{len(leaks)} leaks: {leaks[:10]}"
    assert problems == [], problems[:10]


def left(version: int, seat: int, player: str, started: bool) -> dict[str, Any]:
    """A `player_left` event."""
    data = {"type": "player_left", "seat": seat, "player_id": player, "started": started}
    return {"version": version, "type": "cheat.player_left", "at": "", "data": data}


def test_a_viewer_is_followed_by_its_player_id_across_the_seats() -> None:
    events = [*joins("p0", "p1", "p2", "p3"), left(5, 0, "p0", False)]
    assert [k.seat for k in knowledge(events, "p2")] == [None, None, None, 2, 2, 1]
    assert [k.gone for k in knowledge(events, "p0")] == [False] * 5 + [True]
    after = [*events, left(6, 1, "p2", True)]
    assert knowledge(after, "p2")[-1][2:] == (1, False)  # a leave after the start keeps the seat


def test_the_scanner_finds_cards_sent_for_a_seat_the_viewer_no_longer_holds() -> None:
    def dealt(hands: list[list[str] | None]) -> dict[str, Any]:
        data = {"type": "round_dealt", "hands": hands, "round": 1, "dealer": 0, "turn": 1}
        return {"version": 6, "type": "cheat.round_dealt", "at": "", "data": data}

    lobby = [*joins("p0", "p1", "p2", "p3"), left(5, 0, "p0", False)]
    # p2 held seat 2 when its stream opened, and seat 1 since p0 left: the stream, redacted for
    # seat 2 still, carries p3's hand.
    moved = Viewer("p2", "p2", "t2")
    moved.streamed = [frame(dealt([None, None, ["9H", "AL"]]))]
    differences: list[str] = []
    assert check(moved, [*lobby, dealt([None, ["8H"], None])], differences) == [
        "p2 got 9H at data.hands in stream (v6)",
        "p2 got AL at data.hands in stream (v6)",
    ]
    assert len(differences) == 1 and "differs from the log" in differences[0]
    # p0 left: anything it still receives is a leak, even a card everyone else may see.
    gone = Viewer("p0", "p0", "t0")
    called = {"type": "cheat_called", "caller": 0, "seat": 1, "cards": ["KH"], "honest": True}
    spectators = [*lobby, dealt([None, None, None])]
    spectators.append({"version": 7, "type": "cheat.cheat_called", "at": "", "data": called})
    gone.streamed = [frame(dealt([["7H"], None, None])), frame(spectators[-1])]
    differences = []
    assert check(gone, spectators[:5], differences) == [
        "p0 got 7H at data.hands in stream (v6)",
        "p0 got KH at data.cards in stream (v7)",
    ]
    assert differences == [
        "p0's stream: v6 is past the log it may read",
        "p0's stream: v7 is past the log it may read",
    ]
    # A view that shows the viewer in its old seat is told too.
    shown = Viewer("p2", "p2", "t2")
    shown.received.append(Received("view", 5, {"version": 5, "me": {"id": "p2", "seat": 2}}))
    differences = []
    assert check(shown, lobby, differences) == []
    assert differences == ["p2's view (v5) shows it as ('p2', 2), not 1"]


def frame(event: dict[str, Any]) -> dict[str, str]:
    """An event as a stream's frame."""
    return {"id": str(event["version"]), "event": event["type"], "data": json.dumps(event)}
