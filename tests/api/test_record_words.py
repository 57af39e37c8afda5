"""A table's record in words over HTTP (issue 41 item 4; docs/api.md, Records): `Accept:
text/plain` on `GET /v1/games/{id}/record` answers the same page as an account a person or an
LLM agent reads, round by round, with the asker's own cards and no card its own events page
does not show it."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from kronikas_rules.cards import ALL_CODES, PALE, card_name
from tests.api.tables import Table, Tables, auth
from tests.api.test_tables import assert_problem
from tests.apps import Client

TEXT = {"Accept": "text/plain"}
NAMES = ("Ilona", "Bence", "Dóra")
NAMED = re.compile("|".join(re.escape(card_name(c)) for c in sorted(ALL_CODES)))
CODE_OF = {card_name(c): c for c in ALL_CODES}


def _codes(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_codes(v) for v in value))
    return set()


def _rounds(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events before the first deal, then each round's from its deal."""
    rounds: list[list[dict[str, Any]]] = [[]]
    for event in events:
        if event["type"].endswith(".round_dealt"):
            rounds.append([])
        rounds[-1].append(event)
    return rounds


def _known(events: list[dict[str, Any]]) -> set[str]:
    """The cards these events (as the asker's events page gives them) show it, but for an old
    deal's whole deck revealed at its end, which no account lists; a penalty announces the Pale
    Chronicler to everyone."""
    shown = [e["data"] for e in events if not e["type"].endswith(".deck_revealed")]
    known = _codes(shown)
    if any(e["type"] == "cheat.penalty_taken" for e in events):
        known.add(PALE)
    return known


async def _events(client: Client, table: Table, token: str | None) -> list[dict[str, Any]]:
    r = await client.get(f"/v1/games/{table.id}/events", headers=auth(token))
    assert r.status_code == 200 and not r.json()["more"], r.text
    events: list[dict[str, Any]] = r.json()["events"]
    return events


async def _told(client: Client, table: Table, token: str | None, **params: int) -> str:
    r = await client.get(f"/v1/games/{table.id}/record", params=params, headers=auth(token) | TEXT)
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "text/plain; charset=utf-8"
    assert r.headers["cache-control"] == "no-store", "a seat's cards are in it"
    assert "accept" in r.headers["vary"].lower()
    return r.text


async def _finished(tables: Tables, kind: str, seed: int) -> Table:
    """A seeded table of three, played to its end by random legal moves."""
    options = {"rounds": 2, "chroniclers": True} if kind == "cheat" else {"lives": 2}
    table = await tables.create(kind, options, seed)
    for name in NAMES:
        await tables.join(table, name)
    await tables.start(table)
    await tables.play_to_end(table, random.Random(seed))
    return table


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_a_record_in_words_tells_each_asker_only_what_its_events_show(
    tables: Tables, client: Client, kind: str
) -> None:
    table = await _finished(tables, kind, 4141)
    for seat, token in [(0, table.players[0]), (1, table.players[1]), (None, None)]:
        told = await _told(client, table, token)
        events = await _events(client, table, token)
        head, _, body = told.partition("\n\n")
        title = "Cheat" if kind == "cheat" else "Thirty-One"
        assert head.startswith(f"{title} table {table.id}: finished, seeded. Players: ")
        assert "seat 1 Ilona, seat 2 Bence, seat 3 Dóra." in head
        if seat is None:
            assert "You watch as a spectator." in head and "Your hand" not in body
        else:
            assert f"You are seat {seat + 1}, {NAMES[seat]}." in head
        assert f"Events 1 to {len(events)} of {len(events)}." in head
        paragraphs = body.rstrip("\n").split("\n\n")
        rounds = _rounds(events)
        assert len(paragraphs) == len(rounds)
        for round_events, paragraph in zip(rounds, paragraphs, strict=True):
            named = {CODE_OF[name] for name in NAMED.findall(paragraph)}
            assert named <= _known(round_events), paragraph
            deal = round_events[0]["data"]
            if "hands" not in deal:
                continue  # the seating before the first deal
            assert paragraph.startswith(f"Round {deal['round']}: ")
            mine = None if seat is None else deal["hands"][seat]
            if mine:
                assert {CODE_OF[n] for n in NAMED.findall(paragraph.splitlines()[0])} >= set(mine)
        assert body.rstrip("\n").endswith(".") and "The match is over" in body
        plays = "put down" if kind == "cheat" else "passed"
        assert plays in body


async def test_a_record_in_words_pages_as_the_record_does(tables: Tables, client: Client) -> None:
    table = await _finished(tables, "cheat", 4142)
    token = table.players[0]
    whole = await _told(client, table, token)
    version = len(await _events(client, table, token))
    first = await _told(client, table, token, limit=7)
    assert "Events 1 to 7 of" in first
    assert first.endswith("\nMore events follow: ask again after 7.\n")
    last = await _told(client, table, token, after=version - 3)
    assert f"Events {version - 2} to {version} of {version}." in last
    assert "More events follow" not in last
    assert last.partition("\n\n")[2] in whole, "a page's lines are the whole account's"
    past = await _told(client, table, token, after=version)
    assert f"No events after {version} (the table is at version {version})." in past


async def test_a_record_in_words_is_refused_as_the_record_is(
    tables: Tables, client: Client
) -> None:
    table = await tables.ready("thirty_one", 2, {}, 7)
    r = await client.get("/v1/games/nosuchtable/record", headers=TEXT)
    assert_problem(r, 404, "not_found")
    r = await client.get(f"/v1/games/{table.id}/record", headers=auth("x" * 43) | TEXT)
    assert_problem(r, 401, "unauthorized")
    r = await client.get(f"/v1/games/{table.id}/record", params={"limit": 0}, headers=TEXT)
    assert_problem(r, 422, "invalid_request")
    # without text/plain among what it accepts, the asker gets the record's JSON
    for accept in ("*/*", "application/json", "text/html,*/*;q=0.8"):
        r = await client.get(f"/v1/games/{table.id}/record", headers={"Accept": accept})
        assert r.status_code == 200 and r.json()["table"]["id"] == table.id
