"""Capture stored tables as fixtures: seeded tables of each kind played over HTTP on a real
service, then the raw keys Redis holds for each (its log, meta and auth) and the answers served
then — each seat's, the host's and a spectator's view and events pages.

Run with the service of the commit whose stored format is to be kept, from its checkout:
`python tools/capture_stored_tables.py <folder>` writes one JSON file a table into the folder.
tests/reliability/test_stored_tables.py loads them into Redis under the code of today and checks
that they answer as they did. Imports nothing of tests/, so that it runs on any commit.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import redis

from kronikas.adapters.embedded_redis import EmbeddedRedis, free_port

LIMITS = {
    "RATE_LIMIT_PER_S": "100000",
    "RATE_LIMIT_BURST": "100000",
    "OPEN_LIMIT_PER_MIN": "1000000",
    "READ_LIMIT_PER_S": "1000000",
    "READ_LIMIT_BURST": "1000000",
    "ADDRESS_LIMIT_PER_S": "1000000",
    "ADDRESS_LIMIT_BURST": "1000000",
}
TABLES: list[tuple[str, str, int, dict[str, Any], int, int | None]] = [
    # name, kind, players, options, seed, moves (None: to the end)
    ("cheat_finished", "cheat", 3, {"chroniclers": True, "max_play": 3, "rounds": 2}, 4101, None),
    ("cheat_unfinished", "cheat", 5, {"decks": 2, "chroniclers": True}, 4102, 30),
    ("thirty_one_finished", "thirty_one", 3, {"lives": 1, "chronicler": True}, 4103, None),
    ("thirty_one_unfinished", "thirty_one", 4, {"lives": 2, "max_circuits": 2}, 4104, 9),
]


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def commands(view: dict[str, Any], rng: random.Random) -> list[dict[str, Any]]:
    """Commands to try for a seat from its view; the last always works."""
    legal = [k for k in view["legal"] or [] if k not in ("leave", "back")]
    hand: list[str] = view["me"]["hand"]
    if view["kind"] == "cheat":
        out: list[dict[str, Any]] = []
        if "call" in legal and rng.random() < 0.1:
            out.append({"type": "call"})
        if "play" in legal:
            out.append(
                {"type": "play", "cards": rng.sample(hand, rng.randint(1, min(2, len(hand))))}
            )
        out += [{"type": k} for k in ("accept", "call") if k in legal]
        return out
    table: list[str] = view["thirty_one"]["table"]
    out = []
    for kind in rng.sample(legal, len(legal)):
        if kind == "swap":
            out += [{"type": "swap", "give": g, "take": t} for g in hand for t in table]
        elif kind != "show" or rng.random() < 0.3:
            out.append({"type": kind})
    return out + [{"type": "show"}] * ("show" in legal)


def events_of(http: httpx.Client, game: str, token: str | None) -> list[dict[str, Any]]:
    """Every events page a viewer reads from the start."""
    pages: list[dict[str, Any]] = []
    after, more = 0, True
    while more:
        r = http.get(f"/v1/games/{game}/events", params={"after": after}, headers=auth(token))
        assert r.status_code == 200, r.text
        pages.append(r.json())
        after, more = after + len(r.json()["events"]), r.json()["more"]
    return pages


def capture(http: httpx.Client, store: redis.Redis, spec: tuple[Any, ...]) -> dict[str, Any]:
    name, kind, players, options, seed, moves = spec
    rng = random.Random(seed)
    r = http.post("/v1/games", json={"kind": kind, "options": options, "seed": seed})
    assert r.status_code == 201, r.text
    game, host = r.json()["game"]["id"], r.json()["host_token"]
    seats = []
    for n in range(players):
        r = http.post(f"/v1/games/{game}/players", json={"name": f"P{n}"})
        assert r.status_code == 201, r.text
        seats.append({"player_id": r.json()["player_id"], "token": r.json()["token"]})
    assert http.post(f"/v1/games/{game}/start", headers=auth(host)).status_code == 200
    made = 0
    while moves is None or made < moves:
        views = [http.get(f"/v1/games/{game}", headers=auth(s["token"])).json() for s in seats]
        if views[0]["status"] == "finished":
            break
        movers = [v for v in views if any(k not in ("leave", "back") for k in v["legal"] or [])]
        on_turn = [v for v in movers if v["me"]["seat"] == v["turn"]]
        view = rng.choice(on_turn if on_turn and rng.random() < 0.9 else movers)
        for command in commands(view, rng):
            r = http.post(
                f"/v1/games/{game}/commands",
                json=command,
                headers=auth(seats[view["me"]["seat"]]["token"]),
            )
            if r.status_code == 200:
                made += 1
                break
        else:
            raise AssertionError(f"no command accepted: {view}")
    tag = f"kr:{{{game}}}"
    viewers = {f"seat {n}": s["token"] for n, s in enumerate(seats)} | {
        "host": host,
        "spectator": None,
    }
    return {
        "name": name,
        "kind": kind,
        "players": players,
        "options": options,
        "seed": seed,
        "id": game,
        "host_token": host,
        "seats": seats,
        "stored": {
            "log": [e.decode() for e in store.lrange(f"{tag}:log", 0, -1)],
            "meta": {k.decode(): v.decode() for k, v in store.hgetall(f"{tag}:meta").items()},
            "auth": {k.decode(): v.decode() for k, v in store.hgetall(f"{tag}:auth").items()},
        },
        "served": {
            who: {
                "view": http.get(f"/v1/games/{game}", headers=auth(token)).json(),
                "events": events_of(http, game, token),
            }
            for who, token in viewers.items()
        },
    }


def main(folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data, EmbeddedRedis(data) as server:
        port = free_port()
        env = (
            os.environ
            | LIMITS
            | {"REDIS_URL": server.url, "PORT": str(port), "LOG_LEVEL": "WARNING"}
        )
        service = subprocess.Popen([sys.executable, "-m", "kronikas.serve"], env=env)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
                for _ in range(600):
                    try:
                        if http.get("/v1/health").status_code == 200:
                            break
                    except httpx.HTTPError:
                        time.sleep(0.05)
                store = redis.Redis.from_url(server.url)
                for spec in TABLES:
                    table = capture(http, store, spec)
                    (folder / f"{spec[0]}.json").write_text(
                        json.dumps(table, separators=(",", ":")) + "\n"
                    )
                    print(spec[0], table["served"]["spectator"]["view"]["version"], "events")
        finally:
            service.terminate()
            service.wait(20)


if __name__ == "__main__":
    main(Path(sys.argv[1]))
