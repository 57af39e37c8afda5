"""Races: many simultaneous commands on each table, spread over two service processes.

With `If-Match` every racer names the same version: exactly one succeeds, the rest get 412 (or
409 when the rules refuse them first). Without it the service retries lost races itself. Then a
history check of every table's log: versions 1..N without gaps or duplicates, and every
acknowledged (200) command's events at its versions, identical, in the order acknowledged.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from kronikas.application.games import Answer
from tests.api.tables import Table, Tables, auth, candidates, game_moves
from tests.apps import ENGINES
from tests.conftest import two_processes

STALE_FOLD = "after"
"""The 503 of the bug pinned in test_concurrent_reads_of_a_stale_cached_table_do_not_503."""
TABLES = 16
ROUNDS = 50
FIGURES: Counter[str] = Counter()


async def race_round(
    clients: list[httpx.AsyncClient], table: Table, rng: random.Random, if_match: bool
) -> list[dict[str, Any]] | None:
    """Every seat fires its candidate commands at once, through both processes."""
    views = [
        (await clients[0].get(f"/v1/games/{table.id}", headers=auth(t))).json()
        for t in table.players
    ]
    if views[0]["status"] == "finished":
        return None
    version = views[0]["version"]
    shots = []
    for view in views:
        if not game_moves(view):
            shots.append((view["me"]["seat"], {"type": "pass"}))  # refused: not its turn
            continue
        options = candidates(view, rng)
        for command in options[:2] + options[-1:]:  # the last one is always legal
            shots.append((view["me"]["seat"], command))
    headers = {"If-Match": f'"{version}"'} if if_match else {}
    answers = await asyncio.gather(
        *(
            clients[i % 2].post(
                f"/v1/games/{table.id}/commands",
                json=command,
                headers=auth(table.players[seat]) | headers,
            )
            for i, (seat, command) in enumerate(shots)
        )
    )
    FIGURES["commands raced"] += len(shots)
    codes = Counter(r.status_code for r in answers)
    FIGURES.update({f"status {code}": n for code, n in codes.items()})
    stale = [r for r in answers if r.status_code == 503 and STALE_FOLD in r.text]
    FIGURES["503 from the stale-fold bug"] += len(stale)
    codes -= Counter({503: len(stale)})
    assert set(codes) <= {200, 409, 412, 422}, [r.text for r in answers if r.status_code >= 500]
    won = [
        {"seat": seat, "body": r.json()}
        for (seat, _), r in zip(shots, answers, strict=True)
        if r.status_code == 200
    ]
    won.sort(key=lambda w: int(w["body"]["version"]))
    if if_match:
        assert len(won) == 1 or (not won and stale), (codes, shots)
        assert won[0]["body"]["version"] > version
    return won


async def test_raced_commands_over_two_processes_keep_a_perfect_history(
    redis_url: str, tmp_path: Path
) -> None:
    FIGURES.clear()
    async with two_processes(redis_url, tmp_path) as (ca, cb):
        clients = [ca, cb]
        tables = Tables(ca)
        made = []
        for i in range(TABLES):
            kind = ("cheat", "thirty_one")[i % 2]
            options = {"chroniclers": True, "rounds": 3} if kind == "cheat" else {"lives": 3}
            made.append(await tables.ready(kind, 2 + i % 3, options, seed=i))
        acknowledged: dict[str, list[dict[str, Any]]] = {t.id: [] for t in made}

        async def drive(table: Table, seed: int) -> None:
            rng = random.Random(seed)
            for n in range(ROUNDS):
                won = await race_round(clients, table, rng, if_match=n % 3 != 2)
                if won is None:
                    return
                acknowledged[table.id] += won

        await asyncio.gather(*(drive(t, i) for i, t in enumerate(made)))
        for table in made:
            await check_history(ca, table, acknowledged[table.id])
    print("\nrace figures:", json.dumps(dict(sorted(FIGURES.items()))))
    assert FIGURES["commands raced"] >= 2000


async def check_history(
    client: httpx.AsyncClient, table: Table, acknowledged: list[dict[str, Any]]
) -> None:
    logs = {}
    for seat, token in enumerate(table.players):
        events: list[dict[str, Any]] = []
        while True:
            r = await client.get(
                f"/v1/games/{table.id}/events",
                params={"after": len(events)},
                headers=auth(token),
            )
            page = r.json()["events"]
            if not page:
                break
            events += page
        assert [e["version"] for e in events] == list(range(1, len(events) + 1)), "gap or dup"
        logs[seat] = events
    claimed: set[int] = set()
    last = 0
    for ack in acknowledged:
        body, seat = ack["body"], ack["seat"]
        versions = [e["version"] for e in body["events"]]
        assert versions == list(range(body["version"] - len(versions) + 1, body["version"] + 1))
        assert versions[0] > last, "acknowledged out of order"
        last = versions[-1]
        assert not claimed & set(versions), "two commands claim one version"
        claimed |= set(versions)
        for event in body["events"]:
            assert logs[seat][event["version"] - 1] == event, "an acknowledged event changed"
    FIGURES["events checked"] += len(logs[0])
    # Every event after the deal came from an acknowledged command: none lost, none invented.
    first_move = min(claimed) if claimed else len(logs[0]) + 1
    assert claimed == set(range(first_move, len(logs[0]) + 1))


async def test_concurrent_reads_of_a_stale_cached_table_do_not_503(redis_url: str) -> None:
    """Two requests in one process that both refresh the same cached table from one version."""
    from litestar.testing import AsyncTestClient

    from kronikas.api.app import create_app
    from tests.api.conftest import settings

    async with (
        AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as one,
        AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as other,
    ):
        table = await Tables(one).ready("cheat", 2, seed=3)
        view = (await one.get(f"/v1/games/{table.id}", headers=auth(table.players[0]))).json()
        turn = view["turn"]
        mover = (await one.get(f"/v1/games/{table.id}", headers=auth(table.players[turn]))).json()
        play = {"type": "play", "cards": mover["me"]["hand"][:1]}
        r = await Tables(other).send(table, turn, play)  # `one`'s cached fold is now stale
        assert r.status_code == 200
        games = one.app.state.games

        async def burst() -> list[Any]:
            # On the app's own loop (the test client's portal), where its Redis client lives.
            return await asyncio.gather(
                *(games.view(table.id, None) for _ in range(8)), return_exceptions=True
            )

        answers = one.blocking_portal.call(burst)
        assert [a for a in answers if not isinstance(a, Answer)] == []
