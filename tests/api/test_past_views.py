"""Past views over HTTP across identity changes and clocks (issue 41 item 4; docs/api.md,
Records): `GET /v1/games/{id}/views` gives each viewer, at every version, the view it was
served live then — its seat's as it was then (seats move down when a player leaves the lobby),
a spectator's before it sat down — and never a card its seat could not see then. A token whose
player left the lobby reads nothing, past or present.

The live views are read after every change, each by every viewer; the past views are read
afterwards and must equal them wherever a live view was served. Clocks run out on a clock the
test moves on (`clock`, as in test_house_and_clocks_api.py), never waited out.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.tables import Table, Tables, auth, move
from tests.api.test_house_and_clocks_api import client, clock, house_player
from tests.api.test_tables import assert_problem
from tests.apps import Client
from tests.unit.application.clock_helpers import FakeClock

__all__ = ["client", "clock"]  # the clock tests' own app, and its clock

KINDS = ["cheat", "thirty_one"]
View = dict[str, Any]


class Watch:
    """The views each viewer of a table was served live, by version."""

    def __init__(self, tables: Tables, table: Table) -> None:
        self.tables, self.table = tables, table
        self.viewers: list[str | None] = [None, table.host]
        self.served: dict[str | None, dict[int, View]] = {}

    async def look(self) -> View:
        """Every viewer's view now; answers the spectator's."""
        for token in self.viewers:
            view = await self.tables.view(self.table, token)
            self.served.setdefault(token, {})[view["version"]] = view
        return self.served[None][max(self.served[None])]

    async def past(self, token: str | None) -> dict[int, View]:
        """Every past view of `token`'s holder, paged through."""
        views, version = await self.tables.past_views(self.table, token)
        found = {view["version"]: view for view in views}
        assert sorted(found) == list(range(1, version + 1))
        return found

    async def compare(self) -> dict[str | None, dict[int, View]]:
        """Each viewer's past views, checked against what it was served live; answers them."""
        pasts = {}
        for token, live in self.served.items():
            past = pasts[token] = await self.past(token)
            assert {v: past[v] for v in live} == live
        return pasts


async def joined(tables: Tables, table: Table, watch: Watch, name: str) -> tuple[str, str, int]:
    """A player joins and is watched: its token, its id and the version it joined at."""
    seat = await tables.join(table, name)
    watch.viewers.append(seat["token"])
    await watch.look()
    return seat["token"], seat["player_id"], seat["game"]["version"]


@pytest.mark.parametrize("kind", KINDS)
async def test_past_views_follow_each_player_across_leaves_and_late_joins(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await tables.create(kind, {"turn_seconds": 600}, seed=17)
    watch = Watch(tables, table)
    await watch.look()
    gone, _, _ = await joined(tables, table, watch, "Anna")
    moved, moved_id, _ = await joined(tables, table, watch, "Bela")
    stayed, stayed_id, _ = await joined(tables, table, watch, "Csilla")
    r = await tables.send(table, 0, {"type": "leave"})  # before the start: the seats move down
    assert r.status_code == 200, r.text
    moved_down = r.json()["version"]
    watch.viewers.remove(gone)
    watch.served.pop(gone)  # what it was served then, it reads no more (below)
    table.players.remove(gone)
    await watch.look()
    late, late_id, late_at = await joined(tables, table, watch, "Dani")
    await tables.start(table)
    await watch.look()
    rng = random.Random(3)
    for _ in range(8):
        await move(tables, table, rng)
        await watch.look()
    r = await tables.send(table, 0, {"type": "leave"})  # after the start: the house plays it
    assert r.status_code == 200, r.text
    left_at = r.json()["version"]
    for _ in range(8):
        if (await watch.look())["status"] == "finished":
            break
        await move(tables, table, rng)
    await watch.look()

    for route in ("views", "record"):  # a token that lost its seat reads nothing
        r = await client.get(f"/v1/games/{table.id}/{route}", headers=auth(gone))
        assert_problem(r, 401, "unauthorized")
    pasts = await watch.compare()
    spectator = pasts[None]
    assert pasts[table.host] == spectator, "the host sees what a spectator sees"
    before = [v for v in spectator if v < late_at]
    assert {v: pasts[late][v] for v in before} == {v: spectator[v] for v in before}
    assert all(pasts[late][v]["me"]["id"] == late_id for v in spectator if v >= late_at)
    seats = {v: view["me"]["seat"] for v, view in pasts[moved].items() if view["me"]}
    assert {seat for v, seat in seats.items() if v < moved_down} == {1}
    assert {seat for v, seat in seats.items() if v >= moved_down} == {0}
    assert all(view["me"]["id"] == moved_id for view in pasts[moved].values() if view["me"])
    assert all(view["me"]["id"] == stayed_id for view in pasts[stayed].values() if view["me"])
    for v in range(left_at, max(spectator) + 1):  # a seat that left still sees its own hand
        assert pasts[moved][v]["me"]["seat"] == 0 and pasts[moved][v]["players"][0]["left"]


async def house_or_clock(tables: Tables, table: Table, watch: Watch, version: int) -> None:
    """Wait (a long-poll) until the table moves on from `version`: the house's move after its
    pause, or a clock's."""
    r = await tables.client.get(
        f"/v1/games/{table.id}/events", params={"after": version, "wait": 10}
    )
    assert r.status_code == 200 and r.json()["events"], r.text
    await watch.look()


TURN_S, PAUSE_S = 600, 3
"""The clocks: a person's turn, and the house's pause while a person may answer (Cheat)."""


@pytest.mark.parametrize("kind", KINDS)
async def test_past_views_equal_the_live_ones_with_house_seats_and_a_clock_that_ran_out(
    tables: Tables, client: Client, clock: FakeClock, kind: str
) -> None:
    options: dict[str, Any] = {"turn_seconds": TURN_S}
    if kind == "cheat":
        options |= {"house_pause_seconds": PAUSE_S, "rounds": 2}
    table = await tables.create(kind, options, seed=23)
    watch = Watch(tables, table)
    for name in ("Ember", None, "Ember2"):
        if name is None:
            await house_player(client, table)  # seat 1: no token
        else:
            watch.viewers.append((await tables.join(table, name))["token"])
        await watch.look()
    await tables.start(table)
    rng = random.Random(8)
    for _ in range(20):  # far fewer pauses than a turn's clock
        now = await watch.look()
        if now["status"] == "finished":
            break
        if table.players[now["turn"]]:
            await move(tables, table, rng)
        else:  # the house waits its pause while a person may still call: it is over now
            clock.advance(PAUSE_S)
            await house_or_clock(tables, table, watch, now["version"])
    while (now := await watch.look())["status"] == "playing" and not table.players[now["turn"]]:
        clock.advance(PAUSE_S)
        await house_or_clock(tables, table, watch, now["version"])
    if now["status"] != "playing":
        pytest.fail("precondition: the match goes on after its first moves")
    waited = now["turn"]
    clock.advance(TURN_S)  # the person waited for runs out of time: the house plays the seat
    await house_or_clock(tables, table, watch, now["version"])
    assert (await watch.look())["players"][waited]["away"]
    r = await tables.send(table, waited, {"type": "back"})
    assert r.status_code == 200, r.text
    await watch.look()
    pasts = await watch.compare()
    kinds = {e["type"].split(".")[1] for e in await events(tables, table)}
    assert {"round_dealt", "seat_away", "seat_back"} <= kinds, "the clock ran out"
    assert len(pasts[None]) > 20


async def events(tables: Tables, table: Table) -> list[dict[str, Any]]:
    r = await tables.client.get(f"/v1/games/{table.id}/events")
    assert r.status_code == 200, r.text
    found: list[dict[str, Any]] = r.json()["events"]
    return found
