"""The limits that end a round nobody ends, over HTTP (docs/rules.md): Cheat's `max_plays` and
Thirty-One's `max_circuits`, as a new table gets them and as a table sets them."""

from __future__ import annotations

from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.tables import Tables
from tests.api.test_tables import assert_problem

Client = AsyncTestClient[Litestar]


async def test_new_tables_get_300_plays_and_20_circuits_and_may_set_them(tables: Tables) -> None:
    cheat = await tables.view(await tables.create("cheat"))
    assert cheat["options"]["max_plays"] == 300
    thirty_one = await tables.view(await tables.create("thirty_one"))
    assert thirty_one["options"]["max_circuits"] == 20
    cheat = await tables.view(await tables.create("cheat", {"max_plays": 10_000}))
    assert cheat["options"]["max_plays"] == 10_000
    thirty_one = await tables.view(await tables.create("thirty_one", {"max_circuits": None}))
    assert thirty_one["options"]["max_circuits"] is None


async def test_a_cheat_round_ends_at_its_last_allowed_play(tables: Tables) -> None:
    """Two players who never call put down one card a turn: 20 plays, then the window of the
    last is settled with `accept`, and they are placed by the cards they hold."""
    table = await tables.ready("cheat", 2, {"max_plays": 20}, seed=3)
    for _ in range(20):
        view = await tables.view(table)
        seat = view["turn"]
        mine = await tables.view(table, table.players[seat])
        assert "play" in mine["legal"]
        r = await tables.send(table, seat, {"type": "play", "cards": mine["me"]["hand"][:1]})
        assert r.status_code == 200, r.text
    view = await tables.view(table)
    seat, last = view["turn"], 1 - view["turn"]
    mine: dict[str, Any] = await tables.view(table, table.players[seat])
    assert mine["legal"] == ["accept", "call", "leave"]
    card = mine["me"]["hand"][:1]
    refused = await tables.send(table, seat, {"type": "play", "cards": card})
    problem = assert_problem(refused, 409, "illegal_move")
    assert "last allowed play" in problem["detail"]
    assert_problem(await tables.send(table, last, {"type": "accept"}), 409, "not_your_turn")
    assert (await tables.view(table))["version"] == view["version"], "nothing changed"
    r = await tables.send(table, seat, {"type": "accept"})
    assert r.status_code == 200, r.text
    ended = next(e["data"] for e in r.json()["events"] if e["type"] == "cheat.round_ended")
    # Nobody finished: ten plays each leave 6 cards in both hands, who share 1st place, and
    # the first of them stands as `winner`.
    assert (ended["hand_sizes"], ended["places"], ended["points"]) == ([6, 6], [1, 1], [4, 4])
    assert (ended["reason"], ended["winner"]) == ("max_plays", 0)
    over = await tables.view(table)
    assert over["status"] == "finished" and over["last_round"]["reason"] == "max_plays"
