"""The MCP tool `record` (issue 41 item 4), through the `mcp` SDK's own client against a real
service process: a match an agent played against the house, told in words to its seat and to a
spectator, page by page, naming the seat's own cards and no card that the asker's own
`get_events` does not show it."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from mcp import Client

from kronikas_rules.cards import ALL_CODES, PALE, card_name
from tests.conftest import ServiceProcess, serving
from tests.mcp.agent import Seat, ToolFailed, call, connected

NAMED = re.compile("|".join(re.escape(card_name(c)) for c in sorted(ALL_CODES)))
CODE_OF = {card_name(c): c for c in ALL_CODES}
OPTIONS = {
    "cheat": {"rounds": 1, "chroniclers": True, "house_pause_seconds": 0},
    "thirty_one": {"lives": 1},
}


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    with serving(redis_url, tmp_path_factory.mktemp("record") / "service.log") as running:
        yield running


def _codes(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value} if value in ALL_CODES else set()
    if isinstance(value, dict):
        return set().union(*(_codes(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(_codes(v) for v in value))
    return set()


async def _pages(client: Client, tool: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """Every page a paging tool answers, from version 0 on."""
    pages = [await call(client, tool, {**arguments, "after_version": 0})]
    while pages[-1]["more"]:
        last = pages[-1]
        after = last["events"][-1]["version"] if "events" in last else _last_event(last)
        pages.append(await call(client, tool, {**arguments, "after_version": after}))
    return pages


def _last_event(page: dict[str, Any]) -> int:
    found = re.search(r"ask again after (\d+)\.\n$", page["account"])
    assert found is not None, page["account"][-200:]
    return int(found.group(1))


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
async def test_record_tells_a_played_match_to_its_seat_and_to_a_spectator(
    service: ServiceProcess, kind: str
) -> None:
    async with connected(service.url) as client:
        table = await call(
            client,
            "open_table",
            {"kind": kind, "house_players": 1, "options": OPTIONS[kind], "seed": 4143},
        )
        joined = await call(client, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
        start = {"table_id": table["table_id"], "host_token": table["host_token"]}
        started = await call(client, "start_table", {**start, "token": joined["token"]})
        dealt = started["view"]["me"]["hand"]
        seat = Seat([client], table["table_id"], joined["token"], random.Random(4143))
        await seat.play()
        for token in (joined["token"], None):
            asked = {"table_id": table["table_id"], "token": token}
            pages = await _pages(client, "record", asked)
            events = [
                e for page in await _pages(client, "get_events", asked) for e in page["events"]
            ]
            assert pages[-1]["version"] == events[-1]["version"] and not pages[-1]["more"]
            known = _codes([e for e in events if e["type"] != "deck_revealed"])
            if any(e["type"] == "penalty_taken" for e in events):
                known.add(PALE)  # a penalty announces the Pale Chronicler to everyone
            told = "\n".join(page["account"] for page in pages)
            assert {CODE_OF[n] for n in NAMED.findall(told)} <= known
            head = pages[0]["account"].partition("\n\n")[0]
            assert "Players: seat 1 House 1 (house), seat 2 Ilona." in head
            if token is None:
                assert "You watch as a spectator." in head and "Your hand" not in told
            else:
                assert "You are seat 2, Ilona." in head
                first = next(line for line in told.splitlines() if line.startswith("Round 1: "))
                assert {CODE_OF[n] for n in NAMED.findall(first)} >= set(dealt)
            assert "The match is over" in pages[-1]["account"]


async def test_record_refuses_a_token_of_another_table(service: ServiceProcess) -> None:
    async with connected(service.url) as client:
        first = await call(client, "open_table", {"kind": "thirty_one"})
        mine = await call(client, "join_table", {"table_id": first["table_id"], "name": "Ilona"})
        other = await call(client, "open_table", {"kind": "thirty_one"})
        with pytest.raises(ToolFailed) as refused:
            await call(client, "record", {"table_id": other["table_id"], "token": mine["token"]})
        assert refused.value.problem["code"] == "unauthorized"
        with pytest.raises(ToolFailed) as refused:
            await call(client, "record", {"table_id": "nosuchtable"})
        assert refused.value.problem["code"] == "not_found"
