"""Hidden information over MCP (issue 29): every tool result and tool error an agent, a
spectator or the host receives at the `/mcp` endpoint holds no card they cannot know at that
moment — the view, the legal moves written out (`moves`, `choices`), the events, the record in
words, a refused move's problem. Judged by test_leaks.py's scanner, from each viewer's own log,
read at the end over HTTP: a result is judged at the version it shows, each event it carries at
its own.

Agents of the `mcp` SDK's client play whole matches of both games against a house seat (with
either value of `reveal`), on two service processes (each agent's calls go to both in turn),
and now and then send a move that must be refused, whose error is scanned too. A card planted in
a result is caught.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from kronikas.api.mcp.results import PROOFS
from tests.api.tables import auth
from tests.conftest import serving
from tests.mcp.agent import Seat, ToolFailed, call, connected, pick
from tests.reliability import positions
from tests.reliability.test_leaks import DECK, Received, Viewer, cards_in, check, knowledge

FIGURES = {"games": 0, "results": 0, "cards checked": 0, "leaks": 0}


@pytest.fixture(scope="module")
def two(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[str]]:
    logs = tmp_path_factory.mktemp("leaks_mcp")
    with serving(redis_url, logs / "a.log") as a, serving(redis_url, logs / "b.log") as b:
        yield [a.url, b.url]


def received(
    answers: list[tuple[str, dict[str, Any] | None, str, bool]],
    into: Viewer,
    sent: dict[int, frozenset[str]],
    log: list[dict[str, Any]],
) -> None:
    """A viewer's tool answers as the scanner's items: a result's view and its written-out
    moves at the result's version, its events each at its own; an error at the version it
    names (`sent`: by answer, the cards a refused move named, which its error may quote).
    The tools give each event as its `data` (less what is null; a move's and a wait's less
    the deal's proofs too) with its `version`: each must be the viewer's `log` event of that
    version so told, and that event is what the scanner reads."""
    version = 0
    for n, (tool, result, text, is_error) in enumerate(answers):
        FIGURES["results"] += 1
        if is_error:
            problem = json.loads(text)
            at = problem.get("version", version)
            into.received.append(Received(f"error of {tool}", at, problem, sent.get(n, NONE)))
            continue
        assert result is not None
        version = result.get("version", version)
        # a whole view says its version; a view in short (a move's, a wait's) is the answer's
        if "view" in result and result["view"].get("version", version) == version:
            view = {"version": version, **result["view"]}
            into.received.append(Received(f"view ({tool})", version, view))
        if "account" in result:  # a record in words
            into.received.append(Received(f"account ({tool})", version, result["account"]))
        moves = {k: result[k] for k in ("moves", "choices") if k in result}
        into.received.append(Received(f"moves ({tool})", version, moves))
        if "events" in result:
            logged = []
            left_out = NONE if tool == "get_events" else PROOFS
            for event in result["events"]:
                assert 0 < event["version"] <= len(log), (tool, event)
                whole = log[event["version"] - 1]
                data = {
                    k: v for k, v in whole["data"].items() if v is not None and k not in left_out
                }
                assert event == {"version": whole["version"], **data}, (event, whole)
                logged.append(whole)
            into.received.append(Received(f"events ({tool})", version, {"events": logged}))


NONE: frozenset[str] = frozenset()


async def agent(
    seat: Seat, rng: random.Random, sent: dict[int, frozenset[str]], mistakes: float = 0.1
) -> None:
    """Play as `tests.mcp.agent.Seat.play`, now and then sending a move that must be refused
    (cards not in the hand: `sent` keeps them by answer), and reading the events from a
    random version."""
    answer = await seat.call("wait", after_version=0, timeout_s=10)
    while answer["status"] != "finished":
        version = answer["version"]
        if rng.random() < mistakes and answer["view"]["me"]:
            hand = answer["view"]["me"]["hand"]
            wrong = rng.choice([c for c in DECK if c not in hand])
            sent[len(seat.calls.answers)] = frozenset({wrong})
            bad = rng.choice(
                [{"type": "play", "cards": [wrong]}, {"type": "swap", "give": wrong, "take": wrong}]
            )
            with pytest.raises(ToolFailed):
                await seat.call("make_move", move=bad, expected_version=version)
        if rng.random() < 0.1:
            await seat.call("get_events", after_version=rng.randint(0, version))
        if rng.random() < 0.05:
            await seat.call("record", after_version=rng.randint(0, version))
        acting = answer["your_turn"] or rng.random() < 0.3
        if answer["may_act"] and acting:
            try:
                answer = await seat.call(
                    "make_move", move=pick(answer, rng), expected_version=version
                )
                continue
            except ToolFailed as failed:
                assert failed.problem["code"] == "version_mismatch", failed.text
        answer = await seat.call("wait", after_version=version, timeout_s=10)


async def onlookers(lookers: list[Seat]) -> None:
    """A spectator (no token) and the host read the table now and then until it is over."""
    finished = False
    while not finished:
        for seat in lookers:
            view = await seat.call("get_view")
            await seat.call("get_events", after_version=max(0, view["version"] - 5))
            await seat.call("record", after_version=max(0, view["version"] - 10))
            finished = view["status"] == "finished"
        await asyncio.sleep(0.2)  # a pace for the onlookers, not a wait for anything


async def log_of(url: str, table_id: str, token: str | None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        more = True
        while more:
            r = await http.get(
                f"/v1/games/{table_id}/events", params={"after": len(events)}, headers=auth(token)
            )
            assert r.status_code == 200, r.text
            events, more = events + r.json()["events"], r.json()["more"]
    return events


async def play(
    urls: list[str], redis_url: str, kind: str, agents: int, options: dict[str, Any], seed: int
) -> None:
    rng = random.Random(seed)
    async with connected(urls[0]) as a, connected(urls[1]) as b:
        table = await call(a, "open_table", {"kind": kind, "house_players": 1, "options": options})
        table_id = table["table_id"]
        seats: list[Seat] = []
        viewers: list[Viewer] = []
        for n in range(agents):
            joined = await call(b, "join_table", {"table_id": table_id, "name": f"Agent {n}"})
            seat = Seat([a, b][:: 1 if n % 2 else -1], table_id, joined["token"], rng)
            seat.calls.answers.append(("join_table", joined, "", False))
            seats.append(seat)
            viewers.append(Viewer(f"agent {n}", joined["player_id"], joined["token"]))
        lookers = [
            Seat([a, b], table_id, None, random.Random(1)),
            Seat([b, a], table_id, table["host_token"], random.Random(2)),
        ]
        sent: list[dict[int, frozenset[str]]] = [{} for _ in range(agents + 2)]
        viewers += [Viewer("spectator", None, None), Viewer("host", None, table["host_token"])]
        await call(a, "start_table", {"table_id": table_id, "host_token": table["host_token"]})
        await asyncio.gather(
            *(agent(seat, random.Random(rng.random()), sent[n]) for n, seat in enumerate(seats)),
            onlookers(lookers),
        )
    leaks: list[str] = []
    stored = positions.stored_log(redis_url, table_id)
    for n, (viewer, seat) in enumerate(zip(viewers, [*seats, *lookers], strict=True)):
        events = await log_of(urls[0], table_id, viewer.token)
        received(seat.calls.answers, viewer, sent[n], events)
        leaks += check(viewer, events, stored=stored, reveal=options.get("reveal", "never"))
    FIGURES["cards checked"] += sum(
        len(list(cards_in(item.body))) for viewer in viewers for item in viewer.received
    )
    FIGURES["games"] += 1
    FIGURES["leaks"] += len(leaks)
    assert leaks == [], leaks[:10]
    # the scanner is awake: a card of another seat planted in a result is caught
    viewer = viewers[0]
    events = await log_of(urls[0], table_id, viewer.token)
    known = knowledge(events, viewer.player)
    at = next(v for v, k in enumerate(known) if k.current and len(k.current) < len(DECK) - 2)
    hidden = next(c for c in DECK if c not in known[at].current)
    viewer.received = [Received("moves (planted)", at, {"moves": [{"cards": [hidden]}]})]
    assert check(viewer, events), "a planted card is caught"


@pytest.mark.parametrize(
    ("kind", "agents", "options", "seed"),
    [
        ("cheat", 2, {"house_pause_seconds": 0}, 1),
        ("cheat", 2, {"house_pause_seconds": 0, "rounds": 2, "reveal": "match_end"}, 5),
        ("cheat", 3, {"house_pause_seconds": 0, "chroniclers": True, "max_play": 3}, 2),
        ("cheat", 4, {"house_pause_seconds": 0, "decks": 2, "chroniclers": True}, 6),
        ("thirty_one", 2, {"lives": 1}, 3),
        ("thirty_one", 2, {"lives": 2, "reveal": "match_end"}, 7),
        ("thirty_one", 3, {"lives": 1, "chronicler": True}, 4),
        ("thirty_one", 4, {"lives": 1, "max_circuits": 2}, 8),
    ],
)
async def test_no_tool_result_shows_a_card_its_viewer_cannot_know(
    two: list[str], redis_url: str, kind: str, agents: int, options: dict[str, Any], seed: int
) -> None:
    await play(two, redis_url, kind, agents, options, seed)
    print(f"MCP leak scan so far: {FIGURES}")
