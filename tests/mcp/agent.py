"""A scripted agent at the MCP endpoint: it connects with the `mcp` SDK's own client over
Streamable HTTP and plays a seat as an LLM agent would — wait, read the legal moves the answer
lists, pick one, make it — choosing at random among the listed moves only."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from tests.conftest import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]


class ToolFailed(Exception):
    """A tool answered a tool error: its problem (`code`, `detail`, maybe the legal moves)."""

    def __init__(self, tool: str, problem: dict[str, Any], text: str) -> None:
        super().__init__(f"{tool}: {text}")
        self.tool = tool
        self.problem = problem
        self.text = text


@contextlib.asynccontextmanager
async def connected(url: str, token: str | None = None) -> AsyncIterator[Client]:
    """The SDK's client on `<url>/mcp`; with `token`, sent once as the connection's
    `Authorization` header."""
    if token is None:
        async with Client(f"{url}/mcp") as client:
            yield client
        return
    http = httpx2.AsyncClient(
        headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(30, read=60)
    )
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        yield client


@dataclass
class Calls:
    """Tool calls made, by tool, and every answer as the agent received it."""

    counts: dict[str, int] = field(default_factory=dict)
    answers: list[tuple[str, dict[str, Any] | None, str, bool]] = field(default_factory=list)
    """(tool, structured result or None, text, is_error) for each call."""

    @property
    def total(self) -> int:
        return sum(self.counts.values())


async def call(
    client: Client, tool: str, arguments: dict[str, Any], calls: Calls | None = None
) -> dict[str, Any]:
    """Call a tool; its structured result, or `ToolFailed` with its problem."""
    result = await client.call_tool(tool, arguments)
    text = "".join(getattr(block, "text", "") for block in result.content)
    if calls is not None:
        calls.counts[tool] = calls.counts.get(tool, 0) + 1
        calls.answers.append((tool, result.structured_content, text, result.is_error))
    if result.is_error:
        try:
            problem = json.loads(text)
        except ValueError:
            problem = {"code": None, "detail": text}
        raise ToolFailed(tool, problem, text)
    assert result.structured_content is not None, text
    return result.structured_content


def pick(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of the legal moves an answer lists: a listed command, or a pick a choice describes."""
    options: list[dict[str, Any] | None] = [*answer["moves"], *([None] * len(answer["choices"]))]
    chosen = rng.choice(options)
    if chosen is not None:
        return chosen
    choice = rng.choice(answer["choices"])
    if "each_of" in choice:  # one value of each field
        each_of = choice["each_of"]
        return {"type": choice["type"], **{f: rng.choice(v) for f, v in each_of.items()}}
    count = rng.randint(choice["min_count"], choice["max_count"])
    values = rng.sample(choice["choose_from"], count)
    return {**choice["example"], choice["field"]: values}


@dataclass
class Seat:
    """One agent's seat: the clients it calls through (in turn: any process serves any call),
    the table and its token."""

    clients: list[Client]
    table_id: str
    token: str | None
    """None: a spectator's calls."""
    rng: random.Random
    calls: Calls = field(default_factory=Calls)
    moves: int = 0
    refused: list[str] = field(default_factory=list)
    _turn: int = 0

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        client = self.clients[self._turn % len(self.clients)]
        self._turn += 1
        return await call(
            client,
            tool,
            {"table_id": self.table_id, "token": self.token, **arguments},
            self.calls,
        )

    async def play(self, limit: int = 2000, answer_off_turn: float = 0.3) -> dict[str, Any]:
        """Play until the match ends: move when the table waits for this seat (or, now and then,
        when a move is legal out of turn), else wait. A move's answer shows the table after it,
        as a wait's does: the agent reads it before it waits again. Answers the last answer."""
        answer = await self.call("wait", after_version=0, timeout_s=10)
        for _ in range(limit):
            if answer["status"] == "finished":
                return answer
            version = answer["version"]
            acting = answer["your_turn"] or self.rng.random() < answer_off_turn
            if answer["may_act"] and acting:
                move = pick(answer, self.rng)
                key = f"k{self.moves}-{self.rng.getrandbits(64):x}"
                try:
                    answer = await self.call(
                        "make_move", move=move, expected_version=version, idempotency_key=key
                    )
                    self.moves += 1
                    continue
                except ToolFailed as failed:
                    # The table moved on meanwhile (another seat, the house): decide again.
                    assert failed.problem["code"] == "version_mismatch", failed.text
                    self.refused.append(failed.problem["code"])
            answer = await self.call("wait", after_version=version, timeout_s=10)
        raise AssertionError(f"the match did not end in {limit} calls")


THIRD_GAME_SERVICE = """\
import os
import uvicorn
from kronikas.api.app import create_app
from kronikas.config import Settings
from tests.third_game import GAMES
app = create_app(Settings.from_env(), games=GAMES)
uvicorn.run(app, host="127.0.0.1", port=int(os.environ["PORT"]), log_level="warning")
"""
"""A service process that runs the test registry (the two games and High Card), as
`kronikas.serve` runs the default one."""


@contextlib.contextmanager
def third_game_service(redis_url: str, log: Path) -> Iterator[ServiceProcess]:
    service = ServiceProcess(redis_url, log, code=THIRD_GAME_SERVICE, PYTHONPATH=str(ROOT))
    try:
        yield service
    finally:
        service.stop()
