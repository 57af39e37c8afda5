"""What the MCP tools answer, read through the `mcp` SDK's own client over Streamable HTTP
against a real service process (issue 40): a list of tools an agent can afford, a move's and a
wait's answer as the events since a version plus the view in short, the whole view from
`get_view`, every move type explained, `open_table`'s defaults, and a host who sits seeing its
hand from `start_table`."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from kronikas.api.mcp.results import PROOFS
from tests.conftest import ServiceProcess, serving
from tests.mcp.agent import ToolFailed, call, connected

TOOLS_LIST_MAX = 8 * 1024
"""The most bytes `tools/list` may answer: it goes into every agent's context, and each tool a
later issue adds must fit under it too."""

MOVE_TYPES = {
    "cheat": {"play", "call", "accept"},
    "thirty_one": {"keep", "exchange", "swap", "swap_all", "pass", "show"},
}


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    with serving(redis_url, tmp_path_factory.mktemp("answers") / "service.log") as running:
        yield running


@contextlib.asynccontextmanager
async def counted(url: str) -> AsyncIterator[tuple[Client, list[int]]]:
    """The SDK's client, and the bytes of each HTTP answer's body it received."""
    sizes: list[int] = []

    async def hook(response: httpx2.Response) -> None:
        await response.aread()
        sizes.append(len(response.content))

    http = httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60), event_hooks={"response": [hook]})
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        yield client, sizes


async def seated(
    client: Client, kind: str, house: int = 1, **options: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A table of `kind` with `house` house seats and one agent, started by its host with the
    agent's token; the opening and the start's answer."""
    table = await call(
        client, "open_table", {"kind": kind, "house_players": house, "options": options}
    )
    joined = await call(client, "join_table", {"table_id": table["table_id"], "name": "Ilona"})
    started = await call(
        client,
        "start_table",
        {
            "table_id": table["table_id"],
            "host_token": table["host_token"],
            "token": joined["token"],
        },
    )
    return {**table, "token": joined["token"], "seat": joined["seat"]}, started


async def test_the_list_of_tools_fits_in_8_kb(service: ServiceProcess) -> None:
    async with counted(service.url) as (client, sizes):
        before = len(sizes)
        tools = (await client.list_tools()).tools
        listed = sizes[before:]
    assert len(listed) == 1 and listed[0] < TOOLS_LIST_MAX, listed
    assert {t.name for t in tools} >= {"open_table", "make_move", "wait", "get_view"}
    for tool in tools:
        assert tool.description, tool.name
        # no argument's title repeats its name
        assert "title" not in json.dumps(tool.input_schema).lower(), tool.name


async def test_open_table_seats_no_house_player_unless_asked(service: ServiceProcess) -> None:
    async with connected(service.url) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "house_players" in tools["open_table"].description
        assert "0" in tools["open_table"].description
        table = await call(client, "open_table", {"kind": "thirty_one"})
        assert table["house_seats"] == [] and table["view"]["players"] == []
        # the options left out are the game's defaults
        games = await call(client, "list_games", {})
        kind = next(k for k in games["kinds"] if k["kind"] == "thirty_one")
        defaults = {o["name"]: o["default"] for o in kind["options"]}
        assert table["view"]["options"] == defaults
        asked = await call(client, "open_table", {"kind": "thirty_one", "house_players": 2})
        assert asked["house_seats"] == [0, 1]


async def test_a_host_who_sits_sees_its_hand_from_start_table(service: ServiceProcess) -> None:
    async with connected(service.url) as client:
        table, started = await seated(client, "thirty_one")
        assert started["status"] == "playing" and started["seat"] == table["seat"] == 1
        hand = started["view"]["me"]["hand"]
        assert len(hand) == 3 and started["view"]["me"]["seat"] == 1
        assert started["may_act"] == bool(started["moves"] or started["choices"])
        # the host alone is shown the table as a spectator is
        other = await call(client, "open_table", {"kind": "cheat", "house_players": 1})
        await call(client, "join_table", {"table_id": other["table_id"], "name": "Ilona"})
        alone = await call(
            client,
            "start_table",
            {"table_id": other["table_id"], "host_token": other["host_token"]},
        )
        assert alone["seat"] is None and alone["view"]["me"] is None and alone["moves"] == []


async def test_a_seat_token_of_another_table_starts_nothing(service: ServiceProcess) -> None:
    async with connected(service.url) as client:
        mine, _ = await seated(client, "cheat", house_pause_seconds=0)
        other = await call(client, "open_table", {"kind": "cheat", "house_players": 1})
        await call(client, "join_table", {"table_id": other["table_id"], "name": "Ilona"})
        with pytest.raises(ToolFailed) as refused:
            await call(
                client,
                "start_table",
                {
                    "table_id": other["table_id"],
                    "host_token": other["host_token"],
                    "token": mine["token"],
                },
            )
        assert refused.value.problem["code"] == "unauthorized"
        view = await call(client, "get_view", {"table_id": other["table_id"]})
        assert view["status"] == "open", "nothing changed"


def _brief_view_shape(view: dict[str, Any], kind: str) -> None:
    """A view in short: the seat's `me` whole, the game's block, no options nor last round,
    nothing null, false or empty but in `me`."""
    assert {"me", "players", "round", kind} <= set(view), view
    assert all(v is not None and v is not False and v != [] for v in view.values()), view
    assert not {"options", "last_round", "legal", "id", "seeded", "version"} & set(view), view
    for player in view["players"]:
        assert "id" not in player and "name" in player
        assert all(v is not None and v is not False and v != [] for v in player.values())


async def test_a_move_answers_the_events_since_it_was_decided_and_a_brief_view(
    service: ServiceProcess,
) -> None:
    async with connected(service.url) as client:
        table, started = await seated(client, "cheat", house_pause_seconds=0)
        seat = {"table_id": table["table_id"], "token": table["token"]}
        answer = started
        while not answer["your_turn"]:
            answer = await call(client, "wait", {**seat, "after_version": answer["version"]})
        decided = answer["version"]
        play = next(c for c in answer["choices"] if c["type"] == "play")
        moved = await call(
            client,
            "make_move",
            {**seat, "move": play["example"], "expected_version": decided},
        )
        # the events after the version it was decided at: the play, and the house's answer
        versions = [event["version"] for event in moved["events"]]
        assert versions == list(range(decided + 1, moved["version"] + 1)), versions
        assert moved["events"][0]["type"] == "cards_played"
        assert moved["events"][0]["cards"] == play["example"]["cards"]
        assert "at" not in moved["events"][0] and "data" not in moved["events"][0]
        assert moved["more"] is False
        _brief_view_shape(moved["view"], "cheat")
        # the same events as `get_events` gives them, in the same short form, less the
        # deal's proofs, which `get_events` alone gives
        page = await call(client, "get_events", {**seat, "after_version": decided})
        proved = [{k: v for k, v in e.items() if k not in PROOFS} for e in page["events"]]
        assert proved[: len(moved["events"])] == moved["events"]
        assert not any(PROOFS & set(event) for event in moved["events"])
        # `since` reaches further back: every event from the start
        answer = moved
        while not answer["your_turn"]:
            assert answer["status"] == "playing"
            answer = await call(client, "wait", {**seat, "after_version": answer["version"]})
        move = next(c for c in answer["choices"] if c["type"] == "play")["example"]
        later = await call(
            client,
            "make_move",
            {**seat, "move": move, "expected_version": answer["version"], "since": 0},
        )
        versions = [event["version"] for event in later["events"]]
        assert versions == list(range(1, later["version"] + 1)), versions


async def test_a_wait_answers_the_events_after_its_version_and_a_brief_view(
    service: ServiceProcess,
) -> None:
    async with connected(service.url) as client:
        table, started = await seated(client, "thirty_one")
        seat = {"table_id": table["table_id"], "token": table["token"]}
        waited = await call(client, "wait", {**seat, "after_version": 2, "timeout_s": 0})
        dealt = next(event for event in waited["events"] if event["type"] == "round_dealt")
        assert dealt["hands"][table["seat"]] and not PROOFS & set(dealt)
        versions = [event["version"] for event in waited["events"]]
        assert versions == list(range(3, waited["version"] + 1)), versions
        assert waited["events"][-1]["version"] == waited["version"]
        _brief_view_shape(waited["view"], "thirty_one")
        assert len(waited["view"]["me"]["hand"]) == 3
        # the whole view is get_view's, with every move type it lists explained
        whole = await call(client, "get_view", seat)
        assert {"options", "last_round", "version", "legal"} <= set(whole["view"])
        # the deal's proofs come when asked for: in `get_view` and `get_events` alone
        assert len(whole["view"]["openings"]) >= 6  # the seat's hand, the table (, a shown hand)
        assert "openings" not in started["view"]
        page = await call(client, "get_events", {**seat, "after_version": 2})
        proved = next(event for event in page["events"] if event["type"] == "round_dealt")
        assert len(proved["openings"]) == 6 and proved["commitment"]
        types = {m["type"] for m in whole["moves"]} | {c["type"] for c in whole["choices"]}
        assert types | set(whole["seating"]) == set(whole["about"])
        assert all(whole["about"].values())


async def test_every_move_type_is_explained_in_one_line(service: ServiceProcess) -> None:
    async with connected(service.url) as client:
        games = await call(client, "list_games", {})
    commands = {kind["kind"]: kind["commands"] for kind in games["kinds"]}
    for kind, types in MOVE_TYPES.items():
        assert types <= set(commands[kind]), commands[kind]
        for name in types | {"leave", "back"}:
            line = commands[kind][name]
            assert line and "\n" not in line and len(line) < 240, (kind, name, line)
