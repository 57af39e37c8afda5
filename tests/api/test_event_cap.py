"""The cap on a table's events, over HTTP (issue 25; docs/rules.md): the command that takes the
log to the cap is answered with its events and the match's end (`match_ended` with `reason`
`event_cap`); the view says the match is over and why; every command after it is 409
`game_over`.

The real caps (100,000 events for Cheat, 20,000 for Thirty-One) take too long to reach here: the
test gives Thirty-One's engine a cap of 20 for the tables it makes, on an app of its own.
"""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from kronikas.api.app import create_app
from kronikas_rules.engine import rules
from kronikas_rules.thirty_one.engine import ENGINE as THIRTY_ONE
from tests.api.tables import Tables
from tests.api.test_tables import assert_problem
from tests.apps import ENGINES, settings

Client = AsyncTestClient[Litestar]
CAP = 20


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[Client]:
    """An app of the test's own, whose Thirty-One tables keep at most `CAP` events: its
    registry of games is the service's with that one engine changed (no global is)."""
    games = ENGINES | {"thirty_one": rules(dataclasses.replace(THIRTY_ONE, event_cap=CAP))}
    async with AsyncTestClient(create_app(settings(redis_url), games=games)) as c:
        yield c


def a_move(mine: dict[str, Any]) -> dict[str, Any]:
    """A move that never ends a round by the rules: keep, a swap, or a pass."""
    legal = mine["legal"]
    if "keep" in legal:
        return {"type": "keep"}
    if "swap" in legal:
        return {
            "type": "swap",
            "give": mine["me"]["hand"][0],
            "take": mine["thirty_one"]["table"][0],
        }
    return {"type": "pass"}


async def test_a_table_whose_log_reaches_its_cap_ends_and_says_why(client: Client) -> None:
    tables = Tables(client)
    # A table that asks for no max_circuits: nothing in the rules ends a round whose players
    # never show.
    table = await tables.ready("thirty_one", 2, {"lives": 3, "max_circuits": None}, seed=4)
    answer: dict[str, Any] = {}
    for _ in range(CAP):
        spectator = await tables.view(table)
        if spectator["status"] == "finished":
            break
        seat = spectator["turn"]
        r = await tables.send(table, seat, a_move(await tables.view(table, table.players[seat])))
        assert r.status_code == 200, r.text
        answer = r.json()
    types = [e["type"] for e in answer["events"]]
    assert types[-1] == "thirty_one.match_ended"  # a round cut short opens no hand
    assert answer["events"][0]["version"] == CAP, "the move that reached the cap, then the end"
    assert answer["events"][-1]["data"] == {
        "type": "match_ended",
        "winners": [0, 1],
        "reason": "event_cap",
    }
    assert answer["version"] == CAP + 1
    game = answer["game"]
    assert (game["status"], game["end_reason"], game["winners"]) == (
        "finished",
        "event_cap",
        [0, 1],
    )
    assert game["legal"] == [] and game["deadline"] is None
    spectator = await tables.view(table)
    assert (spectator["status"], spectator["end_reason"], spectator["version"]) == (
        "finished",
        "event_cap",
        CAP + 1,
    )
    page = (await client.get(f"/v1/games/{table.id}/events", params={"after": CAP})).json()
    assert [e["type"] for e in page["events"]][-1] == "thirty_one.match_ended"
    for seat, command in ((0, {"type": "pass"}), (1, {"type": "leave"}), (0, {"type": "show"})):
        assert_problem(await tables.send(table, seat, command), 409, "game_over")
    r = await client.post(f"/v1/games/{table.id}/players", json={"name": "Late"})
    assert_problem(r, 409, "game_not_open")


async def test_a_match_its_rules_end_has_no_end_reason(client: Client) -> None:
    tables = Tables(client)
    table = await tables.ready("cheat", 2, {"rounds": 1})
    assert "end_reason" not in await tables.view(table)
