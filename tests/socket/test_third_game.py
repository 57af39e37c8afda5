"""The test game over the seat socket: High Card (`tests/third_game/`), handed to a real service
process's app factory, is played over two sockets as the games of the product are — each command
answered over its own socket as HTTP answers it, each seat hearing every event once and in
order, redacted for it, and a move out of turn refused with HTTP's problem."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.api.tables import Tables, game_moves
from tests.conftest import ServiceProcess
from tests.mcp.agent import third_game_service
from tests.socket.wire import answer, greeted, say, versions_until
from tests.third_game import KIND


@pytest.fixture(scope="module")
def service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServiceProcess]:
    log: Path = tmp_path_factory.mktemp("third_socket") / "service.log"
    with third_game_service(redis_url, log) as server:
        yield server


@pytest.fixture
async def http(service: ServiceProcess) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as client:
        yield client


async def test_the_test_game_is_played_over_sockets(
    service: ServiceProcess, http: httpx.AsyncClient
) -> None:
    rng = random.Random(39)
    tables = Tables(http)
    table = await tables.ready(KIND, 2, options={"rounds": 3}, seed=39)
    heard: list[list[dict[str, Any]]] = [[], []]
    refused = 0
    async with (
        greeted(service.url, table.id, table.players[0], views=True) as (ws0, welcome),
        greeted(service.url, table.id, table.players[1]) as (ws1, _),
    ):
        assert welcome["game"]["kind"] == KIND and welcome["seat"] == 0
        sockets = [ws0, ws1]
        for commands in range(1, 100):
            spectator = await tables.view(table)
            if spectator["status"] == "finished":
                break
            seat = spectator["turn"]
            view = await tables.view(table, table.players[seat])
            assert game_moves(view) == ["reveal", "fold"]
            other = 1 - seat
            if not refused:  # the other seat, out of turn, hears HTTP's problem
                await say(
                    sockets[other], {"type": "command", "id": "x", "command": {"type": "fold"}}
                )
                problem = await answer(sockets[other], heard[other])
                assert problem["problem"]["code"] == "not_your_turn", problem
                refused += 1
            command = {"type": rng.choice(["reveal", "fold"])}
            await say(
                sockets[seat],
                {
                    "type": "command",
                    "id": f"c-{commands}",
                    "command": command,
                    "if_match": view["version"],
                },
            )
            pushed: list[dict[str, Any]] = []
            result = await answer(sockets[seat], pushed)
            assert result["type"] == "result", result
            heard[seat] += pushed + result["result"]["events"]
            assert result["result"]["game"]["kind"] == KIND
        else:
            raise AssertionError("the match did not end")
        last = spectator["version"]
        for s, ws in enumerate(sockets):
            if not heard[s] or heard[s][-1]["version"] < last:
                heard[s] += await versions_until(ws, last)
            # every version exactly once and in order, each deal showing the seat its own card
            assert [e["version"] for e in heard[s]] == list(range(1, last + 1)), s
            deals = [e["data"] for e in heard[s] if e["type"] == f"{KIND}.round_dealt"]
            assert deals and all(d["cards"][1 - s] is None and d["cards"][s] for d in deals)
    events = (await http.get(f"/v1/games/{table.id}/events")).json()["events"]
    assert events[-1]["type"] == f"{KIND}.match_ended" and events[-1]["final"] is True
    assert refused == 1
