"""Tables stored before fair deals committed card by card still load, answer as they did, and
take moves (issue 41, item 6).

tests/fixtures/stored41/ holds tables of each kind, one finished and one in the middle of a
round, captured from the service of the commit before (tools/capture_stored_tables.py): the keys
Redis held for each (its log, meta and auth, as stored) and what each seat, the host and a
spectator were served then — the view and every events page. Loaded into Redis under the code of
today, every field served then keeps its value (fields added since are allowed), in the view and
events pages as in the record and the past view that replay them, and a table that was not over
plays on to its end: the deal stored before ends with its `deck_revealed` as
it did, and every later deal is committed card by card.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from tests.api.tables import Table, Tables, auth
from tests.conftest import ServiceProcess

FIXTURES = Path(__file__).parent.parent / "fixtures" / "stored41"
NAMES = sorted(p.stem for p in FIXTURES.glob("*.json"))


def changed(before: Any, now: Any, where: str = "") -> list[str]:
    """Where `now` does not keep every field `before` had, with its value."""
    if isinstance(before, dict):
        if not isinstance(now, dict):
            return [f"{where or '.'}: {now!r} is no object"]
        return [
            difference
            for key, value in before.items()
            for difference in (
                changed(value, now[key], f"{where}.{key}")
                if key in now
                else [f"{where}.{key}: gone (was {value!r})"]
            )
        ]
    if isinstance(before, list):
        if not isinstance(now, list) or len(now) != len(before):
            return [f"{where}: {now!r} is not a list of {len(before)}"]
        return [
            d
            for n, (b, a) in enumerate(zip(before, now, strict=True))
            for d in changed(b, a, f"{where}[{n}]")
        ]
    return (
        [] if before == now and type(before) is type(now) else [f"{where}: {before!r} -> {now!r}"]
    )


async def load(redis: Redis, table: dict[str, Any]) -> None:
    """The table's keys, as Redis held them then."""
    tag = f"kr:{{{table['id']}}}"
    stored = table["stored"]
    await redis.delete(f"{tag}:log", f"{tag}:meta", f"{tag}:auth")
    await redis.rpush(f"{tag}:log", *stored["log"])
    await redis.hset(f"{tag}:meta", mapping=stored["meta"])
    await redis.hset(f"{tag}:auth", mapping=stored["auth"])
    for key in ("log", "meta", "auth"):
        await redis.expire(f"{tag}:{key}", 3600)


def tokens(table: dict[str, Any]) -> dict[str, str | None]:
    """Each viewer's token by the name its answers are kept under."""
    seats = {f"seat {n}": s["token"] for n, s in enumerate(table["seats"])}
    return seats | {"host": table["host_token"], "spectator": None}


async def served(http: httpx.AsyncClient, game: str, token: str | None) -> dict[str, Any]:
    """A viewer's view and every events page from the start, as the capture read them."""
    view = await http.get(f"/v1/games/{game}", headers=auth(token))
    assert view.status_code == 200, view.text
    pages: list[dict[str, Any]] = []
    after, more = 0, True
    while more:
        r = await http.get(f"/v1/games/{game}/events", params={"after": after}, headers=auth(token))
        assert r.status_code == 200, r.text
        pages.append(r.json())
        after, more = after + len(r.json()["events"]), r.json()["more"]
    return {"view": view.json(), "events": pages}


async def replay(
    http: httpx.AsyncClient, game: str, token: str | None, version: int
) -> dict[str, Any]:
    """A viewer's view at `version` as the past views give it, and its events as its record's
    pages give them."""
    r = await http.get(
        f"/v1/games/{game}/views", params={"after": version - 1, "limit": 1}, headers=auth(token)
    )
    assert r.status_code == 200, r.text
    events: list[dict[str, Any]] = []
    more = True
    while more:
        page = await http.get(
            f"/v1/games/{game}/record", params={"after": len(events)}, headers=auth(token)
        )
        assert page.status_code == 200, page.text
        events, more = events + page.json()["events"], page.json()["more"]
    return {"view": r.json()["views"][0], "events": events}


def test_the_fixtures_hold_a_finished_and_an_unfinished_table_of_each_kind() -> None:
    tables = [json.loads((FIXTURES / f"{name}.json").read_text()) for name in NAMES]
    held = {(t["kind"], t["served"]["spectator"]["view"]["status"]) for t in tables}
    assert held == {(k, s) for k in ("cheat", "thirty_one") for s in ("finished", "playing")}
    for table in tables:  # stored before: whole-deck hashes, no scheme, no salts by position
        deals = [json.loads(e)["e"] for e in table["stored"]["log"]]
        deals = [e for e in deals if e["type"] == "round_dealt"]
        assert deals and all("scheme" not in e and "salts" not in e for e in deals)


@pytest.mark.parametrize("name", NAMES)
async def test_a_table_stored_before_answers_as_it_did(
    service: ServiceProcess, redis: Redis, name: str
) -> None:
    table = json.loads((FIXTURES / f"{name}.json").read_text())
    await load(redis, table)
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        differences = []
        for who, token in tokens(table).items():
            now = await served(http, table["id"], token)
            differences += [f"{who}: {d}" for d in changed(table["served"][who], now)]
            # its record and its view at the last version replay what was served
            view, pages = table["served"][who]["view"], table["served"][who]["events"]
            before = {"view": view, "events": [e for page in pages for e in page["events"]]}
            replayed = await replay(http, table["id"], token, view["version"])
            differences += [f"{who}'s replay: {d}" for d in changed(before, replayed)]
        assert differences == [], differences[:20]


@pytest.mark.parametrize("name", [n for n in NAMES if n.endswith("_unfinished")])
async def test_a_table_stored_mid_round_plays_on_to_its_end(
    service: ServiceProcess, redis: Redis, name: str
) -> None:
    table = json.loads((FIXTURES / f"{name}.json").read_text())
    await load(redis, table)
    before = len(table["stored"]["log"])
    async with httpx.AsyncClient(base_url=service.url, timeout=30) as http:
        tables = Tables(http)
        playing = Table(table["id"], table["kind"], table["host_token"])
        playing.players = [s["token"] for s in table["seats"]]
        assert await tables.play_to_end(playing, random.Random(table["seed"])) > 0
        log = (await served(http, table["id"], None))["events"]
    events = [e for page in log for e in page["events"]]
    kinds = [e["data"]["type"] for e in events]
    # the deal stored before ends as it did: its round's end, then its whole deck revealed
    ended = kinds.index("round_ended", before)
    assert kinds[ended + 1] == "deck_revealed", kinds[before:]
    old_deal = events[max(i for i, k in enumerate(kinds[:before]) if k == "round_dealt")]["data"]
    assert old_deal.get("scheme", "deck-sha256") == "deck-sha256", old_deal
    revealed = events[ended + 1]["data"]
    whole = f"{revealed['salt']}:{','.join(revealed['deck'])}".encode()
    assert hashlib.sha256(whole).hexdigest() == old_deal["commitment"]
    # every later deal is committed card by card, and none is revealed whole
    later = [e["data"] for e in events[ended + 1 :]]
    for deal in (d for d in later if d["type"] == "round_dealt"):
        assert deal["scheme"] == "merkle-sha256" and deal["deck_size"] > 0, deal
    assert [d for d in later[1:] if d["type"] == "deck_revealed"] == []
    assert kinds[-1] == "match_ended"
