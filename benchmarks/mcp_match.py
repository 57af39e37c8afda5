"""What a match costs an agent that plays it through `/mcp`: tool calls, and the bytes of the
answers it reads.

Starts a bundled Redis and one service process (this checkout's code, or `--repo`'s) with the
rate and read limits lifted, then plays, through the `mcp` SDK's own client over Streamable HTTP
(one connection an agent, its seat's token sent once as the connection's `Authorization`):

- a 2-seat Cheat match (default options, no house seat): each agent plays every card of the
  rank due it holds (as many as a play takes), else one card at random, and calls a play only
  when it cannot be honest by the cards the agent holds;
- a 3-seat Thirty-One match (default options, no house seat): each agent picks at random among
  the moves the answer lists.

The tables are seeded and each agent's choices come from its own seeded generator, so the same
code plays the same match; only the number of `wait` calls depends on timing. Each agent opens
its session with `tools/list` (its bytes are given apart). An agent moves only when the table
waits for it, and otherwise waits for the next change. Bytes are the tool results' text (what
enters the agent's context) and, apart, the HTTP bodies on the wire (the SDK's result carries
its structured copy as well).

    python -m benchmarks.mcp_match [--repo ../before] [--seed 40]

Prints the figures as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import random
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from benchmarks.served import GENEROUS, ROOT, Served
from kronikas.adapters.embedded_redis import EmbeddedRedis

CALLS_MAX = 2000
"""A match still going after this many calls of one agent is reported unfinished."""


@dataclass
class Spent:
    """What one agent's session cost: calls by tool, answer text bytes, wire bytes."""

    calls: dict[str, int] = field(default_factory=dict)
    text: int = 0
    wire: int = 0
    tools_list: int = 0

    def add(self, other: Spent) -> None:
        for tool, n in other.calls.items():
            self.calls[tool] = self.calls.get(tool, 0) + n
        self.text += other.text
        self.wire += other.wire


class Agent:
    """One agent's connection: every tool call counted, its answer read as the model would.
    Once seated, its token goes with every call (`token`), as `join_table` tells it to."""

    def __init__(self, client: Client, spent: Spent, tools: dict[str, set[str]]) -> None:
        self.client = client
        self.spent = spent
        self.tools = tools
        """Each tool's argument names, as `tools/list` gave them."""
        self.token: str | None = None

    async def call(self, tool: str, **arguments: Any) -> dict[str, Any]:
        if self.token is not None and "token" in self.tools[tool]:
            arguments.setdefault("token", self.token)
        result = await self.client.call_tool(tool, arguments)
        text = "".join(getattr(block, "text", "") for block in result.content)
        self.spent.calls[tool] = self.spent.calls.get(tool, 0) + 1
        self.spent.text += len(text.encode())
        data: dict[str, Any] = json.loads(text)
        if result.is_error:
            raise Refused(data)
        return data


class Refused(Exception):
    def __init__(self, problem: dict[str, Any]) -> None:
        super().__init__(problem.get("code"))
        self.problem = problem


@contextlib.asynccontextmanager
async def agent(url: str) -> AsyncIterator[Agent]:
    """An agent's own connection, its `tools/list` read (and its bytes kept apart)."""
    spent = Spent()

    async def counted(response: httpx2.Response) -> None:
        await response.aread()
        spent.wire += len(response.content)

    http = httpx2.AsyncClient(
        timeout=httpx2.Timeout(30, read=60), event_hooks={"response": [counted]}
    )
    async with http, Client(streamable_http_client(f"{url}/mcp", http_client=http)) as client:
        before = spent.wire
        listed = (await client.list_tools()).tools
        spent.tools_list = spent.wire - before
        spent.wire = before
        tools = {t.name: set(t.input_schema.get("properties", {})) for t in listed}
        yield Agent(client, spent, tools)


def view_of(answer: dict[str, Any]) -> dict[str, Any]:
    view: dict[str, Any] = answer["view"]
    return view


def pick(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """One of the moves an answer lists, each command alike likely: a listed command (or one
    combination of a choice's `each_of`, which stand for as many listed commands; sorted, so
    that either way of writing them out gives the same pick), or a pick a choice describes."""
    listed = list(answer["moves"])
    picks = []
    for choice in answer["choices"]:
        if "each_of" in choice:
            fields = choice["each_of"]
            for values in itertools.product(*fields.values()):
                listed.append({"type": choice["type"], **dict(zip(fields, values, strict=True))})
        else:
            picks.append(choice)
    listed.sort(key=lambda move: json.dumps(move, sort_keys=True))
    options: list[dict[str, Any] | None] = [*listed, *([None] * len(picks))]
    chosen = rng.choice(options)
    if chosen is not None:
        return chosen
    choice = rng.choice(picks)
    count = rng.randint(choice["min_count"], choice["max_count"])
    return {**choice["example"], choice["field"]: rng.sample(choice["choose_from"], count)}


def cheat_move(answer: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Call a play that cannot be honest; else play the rank due, or bluff with one card."""
    view = view_of(answer)
    hand: list[str] = view["me"]["hand"]
    table = view["cheat"]
    if {"type": "call"} in answer["moves"]:
        last = table["last_play"]
        held = sum(1 for card in hand if card[:-1] == last["rank"])
        if held + last["count"] > 4:
            return {"type": "call"}
    if {"type": "accept"} in answer["moves"]:
        return {"type": "accept"}
    play = next(c for c in answer["choices"] if c["type"] == "play")
    due = [card for card in hand if card[:-1] == table["rank"] or card == "XC"]
    cards = due[: play["max_count"]] or [rng.choice(hand)]
    return {"type": "play", "cards": cards}


async def play(
    seat: Agent, table_id: str, first: dict[str, Any], kind: str, rng: random.Random
) -> tuple[int, int]:
    """Play a seat until the match ends, from the first answer it has; answers its moves and
    the table's last version."""
    answer, moves = first, 0
    while answer["status"] != "finished":
        if sum(seat.spent.calls.values()) > CALLS_MAX:
            raise RuntimeError(f"{kind}: unfinished after {CALLS_MAX} calls of one agent")
        version = answer["version"]
        if answer["your_turn"] and answer["may_act"]:
            move = cheat_move(answer, rng) if kind == "cheat" else pick(answer, rng)
            try:
                answer = await seat.call(
                    "make_move",
                    table_id=table_id,
                    move=move,
                    expected_version=version,
                    idempotency_key=f"m{moves}",
                )
                moves += 1
                continue
            except Refused as refused:
                if refused.problem.get("code") != "version_mismatch":
                    raise
        answer = await seat.call("wait", table_id=table_id, after_version=version)
    return moves, answer["version"]


async def match(url: str, kind: str, seats: int, seed: int) -> dict[str, Any]:
    """One match of `kind` between `seats` agents, the first of them its host."""
    rng = random.Random(seed)
    async with contextlib.AsyncExitStack() as stack:
        agents = [await stack.enter_async_context(agent(url)) for _ in range(seats)]
        host = agents[0]
        opened = await host.call("open_table", kind=kind, house_players=0, seed=seed)
        table_id = opened["table_id"]
        answers: list[dict[str, Any]] = []
        for n, seat in enumerate(agents):
            joined = await seat.call("join_table", table_id=table_id, name=f"Agent {n}")
            seat.token = joined["token"]
            answers.append(joined)
        started = await host.call("start_table", table_id=table_id, host_token=opened["host_token"])
        # Where `start_table` answers the host's own seat, the host needs no wait to play.
        if started.get("seat") == 0:
            answers[0] = started
        for n, seat in enumerate(agents):
            if answers[n]["status"] == "open":
                answers[n] = await seat.call(
                    "wait", table_id=table_id, after_version=answers[n]["version"]
                )
        played = await asyncio.gather(
            *(
                play(seat, table_id, answer, kind, random.Random(rng.random()))
                for seat, answer in zip(agents, answers, strict=True)
            )
        )
    spent = Spent()
    for seat in agents:
        spent.add(seat.spent)
    calls = sum(spent.calls.values())
    return {
        "kind": kind,
        "seats": seats,
        "moves": sum(moves for moves, _ in played),
        "events": max(version for _, version in played),
        "calls": calls,
        "answer_bytes": spent.text,
        "bytes_per_call": round(spent.text / calls),
        "wire_bytes": spent.wire,
        "tools_list_bytes": host.spent.tools_list,
        "calls_by_tool": dict(sorted(spent.calls.items())),
    }


async def run(repo: Path | None = None, seed: int = 40) -> dict[str, Any]:
    """Both matches on the code of `repo` (this checkout unless given)."""
    source = (repo or ROOT).resolve()
    with tempfile.TemporaryDirectory(prefix="mcp-match-") as tmp:
        data = Path(tmp)
        with EmbeddedRedis(data / "redis") as redis:
            env = {**GENEROUS, "LOG_LEVEL": "WARNING"}
            drop = ("KRONIKAS_APP",)
            with await Served.started(redis.url, source, env, drop, data / "log") as service:
                cheat = await match(service.url, "cheat", 2, seed)
                thirty_one = await match(service.url, "thirty_one", 3, seed)
    return {"cheat": cheat, "thirty_one": thirty_one}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=None, help="serve this checkout's code")
    parser.add_argument("--seed", type=int, default=40, help="the tables' and agents' seed")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args.repo, args.seed)), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
