"""Drive tables over HTTP: create, join, start, look, move, and play to the end."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
from litestar import Litestar
from litestar.testing import AsyncTestClient


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def stream_events(response: httpx.Response, into: list[dict[str, Any]]) -> None:
    """Every event of an SSE response, into `into`, until the response ends."""
    data: str | None = None
    async for line in response.aiter_lines():
        if line.startswith("data:"):
            data = line.removeprefix("data:").strip()
        elif line == "" and data is not None:
            into.append(json.loads(data))
            data = None


@dataclass
class Table:
    id: str
    kind: str
    host: str
    players: list[str] = field(default_factory=list)
    """Player tokens, by seat."""


class Tables:
    def __init__(self, client: AsyncTestClient[Litestar] | httpx.AsyncClient) -> None:
        self.client = client

    async def create(
        self, kind: str, options: dict[str, Any] | None = None, seed: int | None = None
    ) -> Table:
        body: dict[str, Any] = {"kind": kind, "options": options or {}}
        if seed is not None:
            body["seed"] = seed
        r = await self.client.post("/v1/games", json=body)
        assert r.status_code == 201, r.text
        created = r.json()
        return Table(created["game"]["id"], kind, created["host_token"])

    async def join(self, table: Table, name: str | None = None) -> dict[str, Any]:
        r = await self.client.post(
            f"/v1/games/{table.id}/players", json={"name": name or f"P{len(table.players)}"}
        )
        assert r.status_code == 201, r.text
        joined: dict[str, Any] = r.json()
        table.players.append(joined["token"])
        return joined

    async def start(self, table: Table) -> dict[str, Any]:
        r = await self.client.post(f"/v1/games/{table.id}/start", headers=auth(table.host))
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    async def ready(
        self, kind: str, players: int, options: dict[str, Any] | None = None, seed: int | None = 1
    ) -> Table:
        table = await self.create(kind, options, seed)
        for _ in range(players):
            await self.join(table)
        await self.start(table)
        return table

    async def view(self, table: Table, token: str | None = None) -> dict[str, Any]:
        r = await self.client.get(f"/v1/games/{table.id}", headers=auth(token))
        assert r.status_code == 200, r.text
        view: dict[str, Any] = r.json()
        return view

    async def past_views(self, table: Table, token: str | None) -> tuple[list[Any], int]:
        """Every past view of `token`'s holder (`GET …/views`, paged through), and the table's
        version as the last page gave it."""
        views: list[Any] = []
        after = 0
        while True:
            r = await self.client.get(
                f"/v1/games/{table.id}/views",
                params={"after": after, "limit": 50},
                headers=auth(token),
            )
            assert r.status_code == 200, r.text
            page = r.json()
            views += page["views"]
            if not page["more"]:
                return views, int(page["version"])
            after = page["views"][-1]["version"]

    async def send(
        self, table: Table, seat: int, command: dict[str, Any], **headers: str
    ) -> httpx.Response:
        return await self.client.post(
            f"/v1/games/{table.id}/commands",
            json=command,
            headers=auth(table.players[seat]) | headers,
        )

    async def play_to_end(self, table: Table, rng: random.Random, limit: int = 5000) -> int:
        """Random legal moves from the views alone until the match ends; returns moves made."""
        moves = 0
        while moves < limit:
            spectator = await self.view(table)
            if spectator["status"] == "finished":
                return moves
            # The seat on turn moves, or now and then another seat that may call: a seat's own
            # view says what it may do, so only those one or two seats are asked.
            seats = [spectator["turn"]]
            if spectator.get("cheat") and spectator["cheat"]["window_open"] and rng.random() < 0.25:
                seats.insert(0, rng.randrange(len(table.players)))
            views = [await self.view(table, table.players[seat]) for seat in seats]
            view = next(v for v in views if game_moves(v))
            seat = view["me"]["seat"]
            for command in candidates(view, rng):
                r = await self.send(table, seat, command)
                if r.status_code == 200:
                    moves += 1
                    break
                assert r.status_code == 409, r.text
                assert r.json()["code"] == "illegal_move", r.text
            else:
                raise AssertionError(f"no candidate accepted for {view}")
        raise AssertionError("the match did not end")


PRESENCE = ("leave", "back")
"""Commands a seat may send about itself at any time; not moves of the game."""


def game_moves(view: dict[str, Any]) -> list[str]:
    """The game's command types a seat may send now (`legal` less `leave` and `back`)."""
    return [kind for kind in view["legal"] or [] if kind not in PRESENCE]


def candidates(view: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Commands to try for a seat, from what its view says it may do; the last always works."""
    legal: list[str] = game_moves(view)
    hand: list[str] = view["me"]["hand"]
    out: list[dict[str, Any]] = []
    if view["kind"] == "cheat":
        if "call" in legal and rng.random() < 0.25:
            out.append({"type": "call"})
        if "play" in legal:
            out.append(
                {"type": "play", "cards": rng.sample(hand, rng.randint(1, min(2, len(hand))))}
            )
        if "accept" in legal:
            out.append({"type": "accept"})
        if "call" in legal:
            out.append({"type": "call"})
        return out
    table: list[str] = view["thirty_one"]["table"]
    for kind in rng.sample(legal, len(legal)):
        if kind == "swap":
            pairs = [(g, t) for g in hand for t in table]
            rng.shuffle(pairs)
            out += [{"type": "swap", "give": g, "take": t} for g, t in pairs]
        elif kind == "show" and rng.random() < 0.7 and len(legal) > 1:
            continue
        else:
            out.append({"type": kind})
    if "show" in legal:
        out.append({"type": "show"})
    return out


async def move(tables: Tables, table: Table, rng: random.Random) -> dict[str, Any]:
    """One legal move over HTTP, by whichever seat may make one; its answer and the seat."""
    views = [await tables.view(table, token) for token in table.players]
    assert views[0]["status"] != "finished", "the match is over"
    view = rng.choice([v for v in views if game_moves(v)])
    for command in candidates(view, rng):
        r = await tables.send(table, view["me"]["seat"], command)
        if r.status_code == 200:
            body: dict[str, Any] = r.json()
            return body | {"seat": view["me"]["seat"]}
    raise AssertionError("no command accepted")
