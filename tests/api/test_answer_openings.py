"""A command's answer carries the mover's view with `openings: []` (docs/api.md, Commands): the
mover was sent every opening of the cards it sees in the events that opened them, this answer's
or earlier ones. A read at the same version carries them whole, and a seat that checks its events
then each answer's view (`kronikas_client.proofs`) finds every card it holds opened."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kronikas_client.proofs import Openings
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.tables import Tables, auth, move

Client = AsyncTestClient[Litestar]


@pytest.mark.parametrize(
    ("kind", "players", "options"),
    [
        ("cheat", 3, {"chroniclers": True, "rounds": 2}),
        ("cheat", 2, {"decks": 2, "max_play": 4}),
        ("thirty_one", 3, {"lives": 1, "chronicler": True}),
    ],
)
async def test_an_answers_view_is_the_read_less_its_openings_which_the_events_brought(
    tables: Tables, client: Client, kind: str, players: int, options: dict[str, Any]
) -> None:
    table = await tables.ready(kind, players, options, seed=4146)
    rng = random.Random(46)
    answers: list[dict[str, Any]] = []
    emptied = 0
    while (await tables.view(table))["status"] != "finished":
        answer = await move(tables, table, rng)
        seat = answer.pop("seat")
        game = answer["game"]
        assert game["openings"] == [], "an answer's view carries no openings"
        read = await tables.view(table, table.players[seat])
        assert read["version"] == answer["version"]  # no clock, no house: nothing moved since
        emptied += bool(read["openings"])
        assert game == read | {"openings": []}, "the answer's view is the read, less its openings"
        answers.append(answer | {"seat": seat})
    assert emptied > 10, "the reads held openings the answers left out"
    for seat, token in enumerate(table.players):
        r = await client.get(f"/v1/games/{table.id}/events", headers=auth(token))
        events = r.json()["events"]
        seen, at = Openings(), 0
        for answer in (a for a in answers if a["seat"] == seat):
            for event in events[at : answer["version"]]:
                seen.observe(event)
            at = answer["version"]
            assert events[at - len(answer["events"]) : at] == answer["events"]
            seen.view(answer["game"])  # its hand: every card opened by the events up to it
        assert seen.problems == [], (seat, seen.problems)
        assert seen.proven > 0
