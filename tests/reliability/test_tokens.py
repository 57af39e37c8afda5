"""Tokens: the cases tests/api does not cover, each 401/403 with nothing changed; tokens stored
only as SHA-256. (Near-miss timing is a figure `make fuzz` prints: benchmarks/token_timing.py.)"""

from __future__ import annotations

import hashlib
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.adapters.scripts import game_keys
from tests.api.tables import Table, Tables, auth
from tests.api.test_tables import assert_problem

Client = AsyncTestClient[Litestar]


async def two_tables(client: Client) -> tuple[Table, Table, int]:
    tables = Tables(client)
    table = await tables.ready("cheat", 2, seed=7)
    other = await tables.ready("thirty_one", 2, seed=7)
    return table, other, (await tables.view(table))["version"]


def variants(token: str) -> dict[str, dict[str, str] | list[tuple[bytes, bytes]]]:
    """Near misses of a real token, as Authorization headers."""
    return {
        "extended": auth(token + "A"),
        "case-flipped": auth(token.swapcase()),
        "last char changed": auth(token[:-1] + ("A" if token[-1] != "A" else "B")),
        "prefix only": auth(token[:16]),
        "over 256 chars": auth(token * 10),
        "other scheme": {"Authorization": f"Token {token}"},
        "scheme without token": {"Authorization": "Bearer"},
        "empty bearer": {"Authorization": "Bearer    "},
        "non-latin-1 bytes": [(b"authorization", b"Bearer \xff\xfe" + token.encode())],
    }


async def test_near_miss_tokens_are_401_everywhere_and_change_nothing(client: Client) -> None:
    table, _, version = await two_tables(client)
    token = table.players[0]
    routes = [
        ("POST", f"/v1/games/{table.id}/commands", {"type": "call"}),
        ("POST", f"/v1/games/{table.id}/start", None),
        ("GET", f"/v1/games/{table.id}", None),
        ("GET", f"/v1/games/{table.id}/events", None),
    ]
    for name, headers in variants(token).items():
        for method, url, body in routes:
            r = await client.request(method, url, json=body, headers=headers)
            assert_problem(r, 401, "unauthorized")
            assert token not in r.text and token[:16] not in r.text, name
    assert (await Tables(client).view(table))["version"] == version


async def test_another_tables_tokens_read_nothing_here(client: Client) -> None:
    table, other, version = await two_tables(client)
    for token in (other.players[0], other.host):
        for url in (f"/v1/games/{table.id}", f"/v1/games/{table.id}/events"):
            assert_problem(await client.get(url, headers=auth(token)), 401, "unauthorized")
        r = await client.get(f"/v1/games/{table.id}/stream", params={"token": token})
        assert_problem(r, 401, "unauthorized")
    r = await client.post(
        f"/v1/games/{table.id}/commands",
        json={"type": "call"},
        headers=auth(other.players[0]) | {"Idempotency-Key": "k"},
    )
    assert_problem(r, 401, "unauthorized")
    assert (await Tables(client).view(table))["version"] == version


async def test_a_token_in_the_query_counts_only_for_streams(client: Client) -> None:
    """`?token=` is for EventSource alone: elsewhere it is ignored (the asker is a spectator)."""
    table, _, _ = await two_tables(client)
    r = await client.get(f"/v1/games/{table.id}", params={"token": table.players[0]})
    assert r.status_code == 200 and r.json()["me"] is None
    r = await client.post(
        f"/v1/games/{table.id}/commands", params={"token": table.players[0]}, json={"type": "call"}
    )
    assert_problem(r, 401, "unauthorized")


async def test_a_host_token_reads_as_a_spectator_and_cannot_move(client: Client) -> None:
    table, _, version = await two_tables(client)
    r = await client.get(f"/v1/games/{table.id}/events", headers=auth(table.host))
    deal = next(e for e in r.json()["events"] if e["type"] == "cheat.round_dealt")
    assert deal["data"]["hands"] == [None, None]
    for command in ({"type": "call"}, {"type": "play", "cards": ["7H"]}):
        r = await client.post(
            f"/v1/games/{table.id}/commands", json=command, headers=auth(table.host)
        )
        assert_problem(r, 403, "forbidden")
    assert (await Tables(client).view(table))["version"] == version


async def test_tokens_are_stored_only_as_their_sha256(client: Client, redis_url: str) -> None:
    table, _, _ = await two_tables(client)
    redis = Redis.from_url(redis_url)
    try:
        auth_hash: dict[bytes, bytes] = await redis.hgetall(game_keys(table.id)["auth"])
        expected = {
            hashlib.sha256(t.encode()).hexdigest().encode() for t in (table.host, *table.players)
        }
        assert set(auth_hash) == expected
        tag = game_keys(table.id)["log"].rsplit(":", 1)[0]
        for key in [k async for k in redis.scan_iter(match=f"{tag}*")]:
            kind = (await redis.type(key)).decode()
            values: list[Any] = []
            if kind == "list":
                values = await redis.lrange(key, 0, -1)
            elif kind == "hash":
                values = [*(await redis.hgetall(key)).items()]
            elif kind == "string":
                values = [await redis.get(key)]
            blob = repr(values) + key.decode()
            for token in (table.host, *table.players):
                assert token not in blob and token[5:] not in blob, key
    finally:
        await redis.aclose()
