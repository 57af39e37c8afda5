"""Hidden information: every byte each seat, a spectator and the host receive holds no card they
cannot know at that moment — views, command answers, events, long-polls, SSE, the seat socket's
pushes and views, records and past views, errors, headers — at tables of both kinds with either
value of `reveal`.

What a viewer may know is built from its own event log, in order, from the events that open cards
to it by the rules, and only from them: its own hand (dealt, or taken with the pile), the cards it
played, the cards a Cheat call turns up, the Pale Chronicler a penalty announces, the Thirty-One
table and every hand shown or scored, and with `reveal: "match_end"` every deal's cards once
`deals_opened` comes. `deck_revealed` opens nothing: a whole deck revealed is the leak the scanner
finds on the code before issue 41 (a spectator rebuilds every hand, and with them the bluffs
nobody called). A card code is any string that is exactly a code (ids and tokens never are).

Beside the codes, what an opening proves is judged by the table's stored log, read from Redis
(positions.py): an opening (or a salt) of a position the viewer may not know is a leak, even of a
card code it knows — two decks hold each code twice, and the copy tells whose hand it was in.

A viewer is a player, never a seat index: its seat at each version is the one its player holds
then, followed by player id through `player_joined` and `player_left` (seats move down when a
player leaves before the start), and a player who left before the start may know nothing from then
on. test_leaks_membership.py walks those changes with streams and long-polls open across them.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import httpx
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.api.tables import Table, Tables, auth, candidates, game_moves
from tests.conftest import ServiceProcess
from tests.reliability import positions

CARD = re.compile(r"(7|8|9|10|U|O|K|A)(H|B|L|A)|X(C|P)")
WORD = re.compile(r"[0-9A-Za-z]+")
DECK = [r + s for s in "HBLA" for r in ("7", "8", "9", "10", "U", "O", "K", "A")] + ["XC", "XP"]
RANKS = {"Seven": "7", "Eight": "8", "Nine": "9", "Ten": "10", "Under": "U", "Over": "O"}
RANKS |= {"King": "K", "Ace": "A"}
SUITS = {"Hearts": "H", "Bells": "B", "Leaves": "L", "Acorns": "A"}
NAMED = re.compile(rf"({'|'.join(RANKS)}) of ({'|'.join(SUITS)})|(Coloured|Pale) Chronicler")
"""A card as a record's account in words names it (`kronikas_rules.cards.card_name`)."""
PREVIOUS_ROUND = ("last_round", "last_call")
"""View fields that may speak of the round before the current deal (then fully revealed)."""
GAMES_PLAYED = 16
FIGURES = {"games": 0, "bytes": 0, "cards checked": 0, "openings checked": 0, "leaks": 0}


class Known(NamedTuple):
    """What a viewer may know after one version, and who it is then."""

    current: frozenset[str]
    """The cards knowable in the current round."""
    ever: frozenset[str]
    """Those knowable in any round so far."""
    seat: int | None
    """The seat its player holds (None: a spectator, the host, or a player not seated)."""
    gone: bool
    """Its player left before the start: it may know nothing from then on."""


def knowledge(
    events: list[dict[str, Any]], player: str | None, reveal: str = "never"
) -> list[Known]:
    """What the player `player` (None: a spectator or the host) may know after each event, from
    the rules alone; its seat is the one its player holds at that version. `deals_opened` opens
    cards only at a table created with `reveal: "match_end"` (the table's option as the test
    asked for it, never as the service reports it)."""
    known = [Known(frozenset(), frozenset(), None, False)]
    players: list[str] = []
    current: set[str] = set()
    ever: set[str] = set()
    gone = False
    for event in events:
        assert event["version"] == len(known)
        data, kind = event["data"], event["type"].partition(".")[2]
        if kind == "player_joined":
            assert data["seat"] == len(players), event
            players.append(data["player_id"])
        elif kind == "player_left" and not data["started"]:
            assert players[data["seat"]] == data["player_id"], event
            del players[data["seat"]]  # the seats after it move down one
            gone = gone or data["player_id"] == player
        seat = players.index(player) if player in players else None
        mine = seat is not None and data.get("seat") == seat
        if kind == "round_dealt":
            current = set(data.get("table") or [])
            if seat is not None and data["hands"][seat]:
                current |= set(data["hands"][seat])
        elif kind in ("cards_played", "pile_taken", "penalty_taken") and mine:
            current |= set(data["cards"] or [])
        elif kind == "penalty_taken":
            current.add("XP")  # everyone learns the uncalled play held the Pale Chronicler
        elif kind == "cheat_called":
            current |= set(data["cards"])
        elif kind in ("hand_exchanged", "hands_swapped"):
            current |= set(data["table"])
        elif kind == "card_swapped":
            current |= {data["give"], data["take"]}
        elif kind == "hand_shown":
            current |= set(data["hand"])
        elif kind == "round_ended":
            current |= {c for hand in data.get("hands") or [] if hand for c in hand}
        elif kind == "deals_opened" and reveal == "match_end":
            current |= {opening["card"] for opening in data["openings"]}
        if gone:
            current, ever = set(), set()
        ever |= current
        known.append(Known(frozenset(current), frozenset(ever), seat, gone))
    return known


def named(text: str) -> list[str]:
    """The codes of the cards a text names in words."""
    return [
        RANKS[m[1]] + SUITS[m[2]] if m[1] else ("XC" if m[3] == "Coloured" else "XP")
        for m in NAMED.finditer(text)
    ]


def cards_in(value: Any, path: tuple[str, ...] = ()) -> Iterator[tuple[str, tuple[str, ...]]]:
    """Every string that is exactly a card code, with the keys on the way to it."""
    if isinstance(value, str):
        if CARD.fullmatch(value):
            yield value, path
    elif isinstance(value, dict):
        for key, inner in value.items():
            yield from cards_in(inner, (*path, str(key)))
    elif isinstance(value, list):
        for inner in value:
            yield from cards_in(inner, path)


@dataclass
class Received:
    """One thing a viewer received, and the version it speaks of."""

    what: str
    version: int
    body: Any
    sent: frozenset[str] = frozenset()
    """Cards the viewer itself named in the request (an error may echo them)."""


@dataclass
class Viewer:
    name: str
    player: str | None
    """Its player's id; None for a spectator and the host."""
    token: str | None
    received: list[Received] = field(default_factory=list)
    streamed: list[dict[str, Any]] = field(default_factory=list)
    socketed: list[dict[str, Any]] = field(default_factory=list)
    """The events its seat socket pushed, as stream frames (`follow_socket`)."""

    def take(self, what: str, r: httpx.Response, version: int, sent: frozenset[str]) -> Any:
        FIGURES["bytes"] += len(r.content) + sum(len(k) + len(v) for k, v in r.headers.items())
        for key, value in r.headers.items():
            words = {w for w in WORD.findall(value) if CARD.fullmatch(w)}
            self.received.append(Received(f"header {key} of {what}", version, sorted(words), sent))
        body = r.json()
        if r.status_code >= 400:
            self.received.append(Received(f"error {r.status_code} of {what}", version, body, sent))
        return body


def check(
    viewer: Viewer,
    events: list[dict[str, Any]],
    differences: list[str] | None = None,
    stored: list[dict[str, Any]] | None = None,
    reveal: str = "never",
) -> list[str]:
    """The leaks in what `viewer` received, judged by the table's log `events` as the viewer
    reads it at the end (a player who left before the start: the spectator's, up to its leave),
    and with the `stored` log (`positions.stored_log`) by the positions its openings prove.
    What differs from the log, or shows the viewer as someone else, is raised, or added to
    `differences` when given."""
    known = knowledge(events, viewer.player, reveal)
    opened = positions.follow(stored, reveal) if stored is not None else None
    leaks: list[str] = []

    def differ(text: str) -> None:
        if differences is None:
            raise AssertionError(text)
        differences.append(text)

    def at(version: int) -> Known:
        return known[min(version, len(known) - 1)]

    def scan(
        what: str, version: int, body: Any, sent: frozenset[str], earlier: bool = False
    ) -> None:
        """`earlier`: the body speaks of every round so far (a record's openings)."""
        current, ever, seat, gone = at(version)
        for card, path in cards_in(body):
            FIGURES["cards checked"] += 1
            allowed = ever if earlier or any(p in PREVIOUS_ROUND for p in path) else current
            if card not in allowed | sent:
                leaks.append(f"{viewer.name} got {card} at {'.'.join(path)} in {what} (v{version})")
        if opened is not None:
            proven = positions.leaks(opened, body, version, None if gone else seat)
            FIGURES["openings checked"] += len(positions.openings_in(body))
            leaks.extend(f"{viewer.name} got {p} in {what} (v{version})" for p in proven)

    def scan_view(what: str, view: dict[str, Any], sent: frozenset[str]) -> None:
        scan(what, view["version"], view, sent)
        seat = at(view["version"]).seat
        me = view["me"]
        shown = None if me is None else (me["id"], me["seat"])
        if shown != (None if seat is None else (viewer.player, seat)):
            differ(f"{viewer.name}'s {what} (v{view['version']}) shows it as {shown}, not {seat}")

    def scan_event(what: str, event: dict[str, Any]) -> None:
        scan(what, event["version"], event, frozenset())
        if event["version"] > len(events):
            differ(f"{viewer.name}'s {what}: v{event['version']} is past the log it may read")
        elif event != events[event["version"] - 1]:
            differ(f"{viewer.name}'s {what}: v{event['version']} differs from the log: {event}")

    for item in viewer.received:
        body = item.body
        if item.what.startswith(("view", "joined")):
            scan_view(item.what, body, item.sent)
        elif item.what.startswith("command") and "events" in body:
            for event in body["events"]:
                scan_event(item.what, event)
            scan_view(item.what, body["game"], item.sent)
        elif item.what.startswith("events") and "events" in body:
            for event in body["events"]:
                scan_event(item.what, event)
        elif item.what.startswith("record") and "events" in body:
            for event in body["events"]:
                scan_event(item.what, event)
            rest = {k: v for k, v in body.items() if k != "events"}
            scan(item.what, body["version"], rest, item.sent, earlier=True)
        elif item.what.startswith("account"):  # a record in words, of every round so far
            scan(item.what, item.version, {"words": named(body)}, item.sent, earlier=True)
        elif item.what.startswith("past views") and "views" in body:
            for view in body["views"]:
                scan_view(item.what, view, item.sent)
            scan(item.what, body["version"], body | {"views": []}, item.sent)
        else:
            scan(item.what, item.version, body, item.sent)
    for message in [*viewer.streamed, *viewer.socketed]:
        for word in WORD.findall(message["id"] + " " + message["event"]):
            assert not CARD.fullmatch(word), message
        event = json.loads(message["data"])
        assert str(event["version"]) == message["id"] and event["type"] == message["event"]
        scan_event("stream", event)
    for event in events:
        scan("events page", event["version"], event, frozenset())
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    return leaks


async def follow(
    http: httpx.AsyncClient,
    table: Table,
    viewer: Viewer,
    into: list[dict[str, str]] | None = None,
    opened: asyncio.Event | None = None,
) -> None:
    """Read the viewer's SSE stream (the token as `?token=`, as a browser sends it) into `into`
    (the viewer's `streamed` by default) until it ends; `opened` is set once it answered 200."""
    params = {"token": viewer.token} if viewer.token else {}
    frames = viewer.streamed if into is None else into
    async with http.stream("GET", f"/v1/games/{table.id}/stream", params=params) as r:
        assert r.status_code == 200
        if opened is not None:
            opened.set()
        current: dict[str, str] = {}
        async for line in r.aiter_lines():
            FIGURES["bytes"] += len(line) + 1
            if line == "":
                if "data" in current:
                    frames.append(current)
                current = {}
            elif not line.startswith(":"):
                name, _, value = line.partition(":")
                current[name] = value.removeprefix(" ")


def socket_url(base_url: str, table: Table) -> str:
    return base_url.replace("http://", "ws://", 1).rstrip("/") + f"/v1/games/{table.id}/socket"


async def follow_socket(
    base_url: str,
    table: Table,
    viewer: Viewer,
    into: list[dict[str, str]] | None = None,
    opened: asyncio.Event | None = None,
) -> None:
    """Follow the table over the seat socket, with views, until it closes: each pushed event
    as a stream frame into `into` (the viewer's `socketed` by default), every view and every
    other message into what it received; `opened` is set at its `welcome`."""
    frames = viewer.socketed if into is None else into
    hello = {"type": "hello", "token": viewer.token, "views": True}
    async with connect(
        socket_url(base_url, table), proxy=None, compression=None, max_size=None
    ) as ws:
        await ws.send(json.dumps(hello))
        try:
            async for text in ws:
                FIGURES["bytes"] += len(text)
                message = json.loads(text)
                kind = message["type"]
                if kind == "events":
                    for event in message["events"]:
                        data = json.dumps(event)
                        frames.append(
                            {"id": str(event["version"]), "event": event["type"], "data": data}
                        )
                elif kind in ("view", "welcome"):
                    if kind == "welcome" and opened is not None:
                        opened.set()
                    if message["game"] is not None:
                        seen = Received(
                            f"view (socket {kind})", message["version"], message["game"]
                        )
                        viewer.received.append(seen)
                else:
                    version = message.get("version", 0)
                    viewer.received.append(Received(f"socket {kind}", version, message))
        except ConnectionClosed:
            pass


def pushed_once(frames: list[dict[str, str]], last: int) -> bool:
    """Whether a socket's frames hold every version up to `last` once, in order."""
    return [int(f["id"]) for f in frames] == list(range(1, last + 1))


async def play(
    base_url: str, redis_url: str, kind: str, players: int, options: dict[str, Any], seed: int
) -> list[str]:
    """Play one table to its end with every viewer following it every way; its leaks."""
    rng = random.Random(seed)
    async with httpx.AsyncClient(base_url=base_url, timeout=30) as http:
        tables = Tables(http)
        table = await tables.create(kind, options, seed=seed)
        viewers = []
        for seat in range(players):
            joined = await tables.join(table)
            viewers.append(Viewer(f"seat {seat}", joined["player_id"], joined["token"]))
            viewers[-1].received.append(Received("joined", 0, joined["game"]))
        viewers += [Viewer("spectator", None, None), Viewer("host", None, table.host)]
        readers = [asyncio.create_task(follow(http, table, v)) for v in viewers[:-1]]
        readers += [asyncio.create_task(follow_socket(base_url, table, v)) for v in viewers]
        await asyncio.sleep(0.1)
        r = await http.post(f"/v1/games/{table.id}/start", headers=auth(table.host))
        version = viewers[-1].take("start", r, 0, frozenset())["version"]
        viewers[-1].received.append(Received("view (start)", version, r.json()))
        for _ in range(3000):
            views = []
            for viewer in viewers:
                r = await http.get(f"/v1/games/{table.id}", headers=auth(viewer.token))
                view = viewer.take("view", r, version, frozenset())
                viewer.received.append(Received("view", view["version"], view))
                views.append(view)
            if views[0]["status"] == "finished":
                break
            if rng.random() < 0.2:
                viewer = rng.choice(viewers)
                r = await http.get(
                    f"/v1/games/{table.id}/events",
                    params={"after": rng.randint(0, version), "wait": 0},
                    headers=auth(viewer.token),
                )
                page = viewer.take("events", r, version, frozenset())
                viewer.received.append(Received("events", version, page))
            if rng.random() < 0.1:  # a record page and past views, from anywhere so far
                await look_back(http, table, rng.choice(viewers), rng, version)
            seated = [views[s] for s in range(players)]
            view = rng.choice([v for v in seated if game_moves(v)])
            seat = view["me"]["seat"]
            tries = candidates(view, rng)
            if rng.random() < 0.15:  # a refused command: its error body is scanned too
                wrong = rng.choice([c for c in DECK if c not in view["me"]["hand"]])
                idle = rng.choice([v for v in seated if not game_moves(v)] or seated)
                bad: list[tuple[int, dict[str, Any]]] = [
                    (seat, {"type": "play", "cards": [wrong]}),
                    (seat, {"type": "swap", "give": wrong, "take": wrong}),
                    (idle["me"]["seat"], {"type": "play", "cards": idle["me"]["hand"][:1]}),
                    (idle["me"]["seat"], {"type": "show"}),
                ]
                tries = [rng.choice(bad)[1], *tries] if rng.random() < 0.5 else tries
                if rng.random() < 0.5:
                    mover, command = rng.choice(bad)
                    await send(http, table, viewers[mover], command, version)
            for command in tries:
                r = await send(http, table, viewers[seat], command, version)
                if r.status_code == 200:
                    version = r.json()["version"]
                    break
            else:
                raise AssertionError(f"no command accepted for {view}")
        else:
            raise AssertionError("the game did not end")
        for _ in range(100):  # the streams and sockets catch up within a second or so
            if all(
                v.streamed and v.streamed[-1]["id"] == str(version) for v in viewers[:-1]
            ) and all(v.socketed and v.socketed[-1]["id"] == str(version) for v in viewers):
                break
            await asyncio.sleep(0.05)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
        leaks = []
        for viewer in viewers:
            events: list[dict[str, Any]] = []
            more = True
            while more:  # a page holds at most 500 events
                r = await http.get(
                    f"/v1/games/{table.id}/events",
                    params={"after": len(events)},
                    headers=auth(viewer.token),
                )
                page = viewer.take("events", r, version, frozenset())
                events, more = events + page["events"], page["more"]
            assert [e["version"] for e in events] == list(range(1, version + 1))
            assert await whole_record(http, table, viewer, version) == events
            if viewer.name != "host":
                assert viewer.streamed[-1]["id"] == str(version), f"{viewer.name}'s stream lags"
            assert pushed_once(viewer.socketed, version), f"{viewer.name}'s socket"
            stored = positions.stored_log(redis_url, table.id)
            leaks += check(viewer, events, stored=stored, reveal=options.get("reveal", "never"))
        FIGURES["games"] += 1
        FIGURES["leaks"] += len(leaks)
        return leaks


async def look_back(
    http: httpx.AsyncClient, table: Table, viewer: Viewer, rng: random.Random, version: int
) -> None:
    """A page of the viewer's record, as JSON and in words, and one of its past views, from a
    random version."""
    params = {"after": rng.randint(0, version), "limit": rng.randint(1, 50)}
    r = await http.get(f"/v1/games/{table.id}/record", params=params, headers=auth(viewer.token))
    assert r.status_code == 200, r.text
    viewer.received.append(Received("record", version, viewer.take("record", r, version, NONE)))
    told = await http.get(
        f"/v1/games/{table.id}/record",
        params=params,
        headers=auth(viewer.token) | {"Accept": "text/plain"},
    )
    assert told.status_code == 200 and told.headers["content-type"].startswith("text/plain")
    viewer.received.append(Received("account", version, told.text))
    params = {"after": rng.randint(0, version - 1), "limit": rng.randint(1, 5)}
    r = await http.get(f"/v1/games/{table.id}/views", params=params, headers=auth(viewer.token))
    assert r.status_code == 200, r.text
    page = viewer.take("past views", r, version, NONE)
    viewer.received.append(Received("past views", version, page))


async def whole_record(
    http: httpx.AsyncClient, table: Table, viewer: Viewer, version: int
) -> list[dict[str, Any]]:
    """The viewer's whole record, page by page, and in words (each scanned); its events."""
    events: list[dict[str, Any]] = []
    more = True
    while more:
        r = await http.get(
            f"/v1/games/{table.id}/record",
            params={"after": len(events), "limit": 500},
            headers=auth(viewer.token),
        )
        assert r.status_code == 200, r.text
        page = viewer.take("record", r, version, NONE)
        viewer.received.append(Received("record", version, page))
        told = await http.get(
            f"/v1/games/{table.id}/record",
            params={"after": len(events), "limit": 500},
            headers=auth(viewer.token) | {"Accept": "text/plain"},
        )
        assert told.status_code == 200, told.text
        viewer.received.append(Received("account", version, told.text))
        events, more = events + page["events"], page["more"]
    return events


NONE: frozenset[str] = frozenset()


async def send(
    http: httpx.AsyncClient, table: Table, viewer: Viewer, command: dict[str, Any], version: int
) -> httpx.Response:
    r = await http.post(f"/v1/games/{table.id}/commands", json=command, headers=auth(viewer.token))
    sent = frozenset(c for c, _ in cards_in(command))
    body = viewer.take("command", r, version, sent)
    if r.status_code == 200:
        viewer.received.append(Received("command", body["version"], body, sent))
    else:
        assert r.status_code in (409, 422), r.text
    return r


REVEAL = st.sampled_from(["never", "match_end"])
"""Both values of the tables' `reveal`: nothing opened at the match's end, or every deal."""
GAMES = st.one_of(
    st.tuples(
        st.just("cheat"),
        st.integers(2, 4),
        st.fixed_dictionaries(
            {
                "chroniclers": st.booleans(),
                "max_play": st.integers(2, 4),
                "rounds": st.integers(1, 2),
                "reveal": REVEAL,
            }
        ),
    ),
    st.tuples(
        st.just("thirty_one"),
        st.integers(2, 4),
        st.fixed_dictionaries(
            {"chronicler": st.booleans(), "lives": st.integers(0, 1), "reveal": REVEAL}
        ),
    ),
)


def test_no_viewer_ever_receives_a_card_it_cannot_know(
    service: ServiceProcess, redis_url: str
) -> None:
    for key in FIGURES:
        FIGURES[key] = 0

    @given(game=GAMES, seed=st.integers(0, 2**32))
    @settings(
        max_examples=GAMES_PLAYED,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],  # a failing game is reported as it is, unshrunk
        suppress_health_check=list(HealthCheck),
    )
    def one_game(game: tuple[str, int, dict[str, Any]], seed: int) -> None:
        kind, players, options = game
        leaks = asyncio.run(play(service.url, redis_url, kind, players, options, seed))
        assert leaks == [], leaks[:10]

    one_game()
    print("\nleak figures:", json.dumps(FIGURES))
    # Every game was played and scanned (the scanner itself is tested below).
    assert FIGURES["games"] == GAMES_PLAYED and FIGURES["cards checked"] > 0
    assert FIGURES["leaks"] == 0


def joins(*players: str) -> list[dict[str, Any]]:
    """The `player_joined` events of a table's first players, from version 1."""
    return [
        {
            "version": seat + 1,
            "type": "thirty_one.player_joined",
            "at": "",
            "data": {"type": "player_joined", "player_id": p, "name": p, "seat": seat},
        }
        for seat, p in enumerate(players)
    ]


def test_the_scanner_finds_a_planted_leak() -> None:
    deal = {"type": "round_dealt", "hands": [["7H"], None], "table": []}
    events = [
        *joins("p0", "p1"),
        {"version": 3, "type": "thirty_one.round_dealt", "at": "", "data": deal},
    ]
    viewer = Viewer("seat 1", "p1", "t")
    assert check(viewer, events) == ["seat 1 got 7H at data.hands in events page (v3)"]
    spectator = Viewer("spectator", None, None)
    spectator.received.append(Received("view", 3, {"version": 3, "me": None, "hand": ["AA"]}))
    deal["hands"] = [None, None]
    assert check(spectator, events) == ["spectator got AA at hand in view (v3)"]


def test_the_scanner_reads_what_sockets_pushed() -> None:
    deal = {"type": "round_dealt", "hands": [None, ["8H"]], "table": []}
    events = [
        *joins("p0", "p1"),
        {"version": 3, "type": "thirty_one.round_dealt", "at": "", "data": deal},
    ]
    leaked = events[-1] | {"data": deal | {"hands": [["7H"], ["8H"]]}}
    viewer = Viewer("seat 1", "p1", "t")
    viewer.socketed.append({"id": "3", "event": leaked["type"], "data": json.dumps(leaked)})
    differences: list[str] = []
    assert check(viewer, events, differences) == ["seat 1 got 7H at data.hands in stream (v3)"]
    assert pushed_once(viewer.socketed, 3) is False  # versions 1 and 2 were not pushed


def cheat_deal(hands: list[list[str] | None], **more: Any) -> dict[str, Any]:
    """A Cheat deal of two seats (the dealer seat 1: position i goes to seat i mod 2)."""
    return {"type": "round_dealt", "round": 1, "dealer": 1, "set_aside": 0, "hands": hands} | more


def test_the_scanner_counts_no_card_from_a_whole_deck_revealed() -> None:
    deck = ["7H", "8H", "9H", "10H"]
    events = [
        *joins("p0", "p1"),
        {"version": 3, "type": "cheat.round_dealt", "at": "", "data": cheat_deal([None, None])},
        {
            "version": 4,
            "type": "cheat.deck_revealed",
            "at": "",
            "data": {"type": "deck_revealed", "round": 1, "salt": "0" * 32, "deck": deck},
        },
    ]
    spectator = Viewer("spectator", None, None)
    assert check(spectator, events) == [
        f"spectator got {card} at data.deck in events page (v4)" for card in deck
    ]


def test_the_scanner_judges_an_opening_by_its_position_not_its_card() -> None:
    # two decks: seat 0 holds 7H at position 0, seat 1 the other 7H at position 1
    deck, salts = ["7H", "7H", "8H", "8H"], [f"{n:032x}" for n in range(1, 5)]
    stored = [
        {"type": "player_joined", "player_id": "p0", "seat": 0},
        {"type": "player_joined", "player_id": "p1", "seat": 1},
        cheat_deal([["7H", "8H"], ["7H", "8H"]], deck=deck, salts=salts),
    ]
    events = [
        *joins("p0", "p1"),
        {
            "version": 3,
            "type": "cheat.round_dealt",
            "at": "",
            "data": cheat_deal([["7H", "8H"], None]),
        },
    ]

    def opening(position: int) -> dict[str, Any]:
        card, salt = deck[position], salts[position]
        return {"round": 1, "position": position, "card": card, "salt": salt, "path": []}

    viewer = Viewer("seat 0", "p0", "t")
    view = {"version": 3, "me": {"id": "p0", "seat": 0}, "openings": [opening(0), opening(2)]}
    viewer.received.append(Received("view", 3, view))
    assert check(viewer, events, stored=stored) == []
    view["openings"] = [opening(1)]  # the other seat's copy of a code seat 0 holds too
    view["note"] = salts[3]
    assert check(viewer, events, stored=stored) == [
        "seat 0 got an opening of round 1 position 1 at openings in view (v3)",
        "seat 0 got the salt of round 1 position 3 in view (v3)",
    ]


def test_deals_opened_opens_every_position_to_everyone() -> None:
    deck, salts = ["7H", "8H"], ["a" * 32, "b" * 32]
    opened = [
        {"round": 1, "position": p, "card": deck[p], "salt": salts[p], "path": []} for p in (0, 1)
    ]
    stored = [
        {"type": "player_joined", "player_id": "p0", "seat": 0},
        {"type": "player_joined", "player_id": "p1", "seat": 1},
        cheat_deal([["7H"], ["8H"]], deck=deck, salts=salts),
        {"type": "deals_opened", "openings": opened},
    ]
    events = [
        *joins("p0", "p1"),
        {"version": 3, "type": "cheat.round_dealt", "at": "", "data": cheat_deal([None, None])},
        {"version": 4, "type": "cheat.deals_opened", "at": "", "data": stored[-1]},
    ]
    spectator = Viewer("spectator", None, None)
    assert check(spectator, events, stored=stored, reveal="match_end") == []
    # the same event at a table that keeps its deals hidden (`reveal: "never"`) is the leak
    leaked = check(spectator, events, [], stored)
    assert sorted(leaked) == [
        "spectator got 7H at data.openings.card in events page (v4)",
        "spectator got 8H at data.openings.card in events page (v4)",
        "spectator got an opening of round 1 position 0 at data.openings in events page (v4)",
        "spectator got an opening of round 1 position 1 at data.openings in events page (v4)",
    ]
    spectator.received.append(Received("events", 3, {"events": [events[-1] | {"version": 3}]}))
    differences: list[str] = []
    opened_twice = check(spectator, events, differences, stored, "match_end")
    assert len(opened_twice) == 4  # two cards, two openings


def test_the_scanner_reads_the_cards_an_account_names_in_words() -> None:
    deal = {"type": "round_dealt", "hands": [None, ["8H"]], "table": []}
    events = [
        *joins("p0", "p1"),
        {"version": 3, "type": "thirty_one.round_dealt", "at": "", "data": deal},
    ]
    viewer = Viewer("seat 1", "p1", "t")
    told = "Your hand: the Eight of Hearts. P0 holds the Ace of Acorns and the Pale Chronicler."
    viewer.received.append(Received("account", 3, told))
    assert check(viewer, events) == [
        "seat 1 got AA at words in account (v3)",
        "seat 1 got XP at words in account (v3)",
    ]
