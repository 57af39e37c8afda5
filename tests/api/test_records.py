"""A table's record and its past views over HTTP (issue 41 item 4; docs/api.md, Records):
`GET /v1/games/{id}/record` is the asker's events page with the table and its openings beside
it, paged alike; `GET /v1/games/{id}/views` the views the asker was served at past versions."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.api.tables import Table, Tables, auth, move
from tests.api.test_tables import assert_problem
from tests.apps import Client

KINDS = ["cheat", "thirty_one"]
TABLE_FIELDS = ("id", "kind", "options", "seeded", "players", "status")


async def events_page(client: Client, table: Table, token: str | None) -> list[dict[str, Any]]:
    """Every event of the table as `list_events` gives them to `token`'s holder."""
    events: list[dict[str, Any]] = []
    while True:
        r = await client.get(
            f"/v1/games/{table.id}/events", params={"after": len(events)}, headers=auth(token)
        )
        assert r.status_code == 200, r.text
        page = r.json()
        events += page["events"]
        if not page["more"]:
            return events


async def record_pages(
    client: Client, table: Table, token: str | None, limit: int
) -> list[dict[str, Any]]:
    """The table's record, page by page of `limit` events, as `token`'s holder reads it."""
    pages: list[dict[str, Any]] = []
    after = 0
    while True:
        r = await client.get(
            f"/v1/games/{table.id}/record",
            params={"after": after, "limit": limit},
            headers=auth(token),
        )
        assert r.status_code == 200, r.text
        assert r.headers["content-type"].startswith("application/json")
        assert r.headers["cache-control"] == "no-store", "a seat's cards are in it"
        page: dict[str, Any] = r.json()
        pages.append(page)
        if not page["more"]:
            return pages
        assert len(page["events"]) == limit, "a page is cut only at its limit"
        after = page["events"][-1]["version"]


async def finished(tables: Tables, kind: str, seed: int) -> Table:
    """A seeded table of three, played to its end by random legal moves."""
    table = await tables.ready(kind, 3, {"rounds": 1} if kind == "cheat" else {"lives": 1}, seed)
    await tables.play_to_end(table, random.Random(seed))
    return table


@pytest.mark.parametrize("kind", KINDS)
async def test_a_record_is_the_askers_events_page_with_the_table_and_its_openings(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await finished(tables, kind, 41)
    for token in [*table.players, None, table.host]:
        view = await tables.view(table, token)
        pages = await record_pages(client, table, token, limit=7)
        events = [e for page in pages for e in page["events"]]
        assert events == await events_page(client, table, token)
        assert [e["version"] for e in events] == list(range(1, view["version"] + 1))
        assert len(pages) == -(-view["version"] // 7), "pages of 7, the last one shorter"
        for page in pages:
            assert page["table"] == {name: view[name] for name in TABLE_FIELDS}
            assert page["version"] == view["version"]
            opened = [o for e in page["events"] for o in e["data"].get("openings") or []]
            assert page["openings"] == opened
        assert [p["more"] for p in pages] == [True] * (len(pages) - 1) + [False]


async def test_a_record_after_its_last_event_is_empty_and_says_no_more(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("cheat", 2)
    version = (await tables.view(table))["version"]
    r = await client.get(f"/v1/games/{table.id}/record", params={"after": version})
    assert r.status_code == 200, r.text
    assert r.json() | {"table": None} == {
        "table": None,
        "events": [],
        "openings": [],
        "version": version,
        "more": False,
    }


@pytest.mark.parametrize("route", ["record", "views"])
@pytest.mark.parametrize("game_id", ["0123456789abcdef", "not-a-table", "f" * 65])
async def test_no_such_table_is_404_not_found(client: Client, route: str, game_id: str) -> None:
    r = await client.get(f"/v1/games/{game_id}/{route}")
    assert_problem(r, 404, "not_found")
    assert r.json()["detail"].startswith("There is no table"), "the route is there: the table not"


@pytest.mark.parametrize(
    ("route", "params"),
    [
        ("record", {"limit": 0}),
        ("record", {"limit": 501}),
        ("record", {"after": -1}),
        ("record", {"limit": "ten"}),
        ("views", {"limit": 0}),
        ("views", {"limit": 51}),
        ("views", {"after": -1}),
        ("views", {"after": "1.5"}),
    ],
)
async def test_parameters_out_of_range_are_422_invalid_request(
    tables: Tables, client: Client, route: str, params: dict[str, Any]
) -> None:
    table = await tables.ready("cheat", 2)
    r = await client.get(f"/v1/games/{table.id}/{route}", params=params)
    assert_problem(r, 422, "invalid_request")


@pytest.mark.parametrize("route", ["record", "views"])
async def test_a_token_the_table_does_not_know_is_401(
    tables: Tables, client: Client, route: str
) -> None:
    table = await tables.ready("cheat", 2)
    other = await tables.ready("cheat", 2)
    r = await client.get(f"/v1/games/{table.id}/{route}", headers=auth(other.players[0]))
    assert_problem(r, 401, "unauthorized")


@pytest.mark.parametrize("kind", KINDS)
async def test_past_views_page_through_every_version_each_the_view_served_then(
    tables: Tables, client: Client, kind: str
) -> None:
    """Each version's view as it was served live (fetched right after that version), for a
    seat, and for a spectator."""
    table = await tables.create(kind, seed=7)
    served: dict[str | None, dict[int, dict[str, Any]]] = {}

    async def look() -> None:
        for token in [*table.players, None]:
            view = await tables.view(table, token)
            served.setdefault(token, {})[view["version"]] = view

    await look()
    for _ in range(3):
        await tables.join(table)
        await look()
    await tables.start(table)
    await look()
    rng = random.Random(5)
    for _ in range(6):
        await move(tables, table, rng)
        await look()
    for token, live in served.items():
        past: dict[int, dict[str, Any]] = {}
        after = 0
        while True:
            r = await client.get(
                f"/v1/games/{table.id}/views",
                params={"after": after, "limit": 3},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            page = r.json()
            assert 1 <= len(page["views"]) <= 3
            past |= {view["version"]: view for view in page["views"]}
            after = page["views"][-1]["version"]
            if not page["more"]:
                break
        assert sorted(past) == list(range(1, page["version"] + 1))
        assert {v: past[v] for v in live} == live, "a seat" if token else "a spectator"


async def test_past_views_after_the_last_version_are_none_and_say_no_more(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("thirty_one", 2)
    version = (await tables.view(table))["version"]
    for after in (version, 2**31):
        r = await client.get(f"/v1/games/{table.id}/views", params={"after": after})
        assert r.status_code == 200, r.text
        assert r.json() == {"views": [], "version": version, "more": False}
