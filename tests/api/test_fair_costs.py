"""What each request costs (docs/api.md, Rate limits), on an app of small limits.

Reads without a token of the table, and requests whose token the table does not know, are paid
by the client's address; a refused command and a start are paid by their token. (Here every
request comes from the test client's one address; tests/reliability/test_fair_limits.py sends
from several, to a real service process.)
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.api.app import create_app
from tests.api.tables import Tables, auth
from tests.api.test_tables import assert_problem
from tests.apps import ENGINES, settings

Client = AsyncTestClient[Litestar]


async def small(redis_url: str, **limits: Any) -> AsyncIterator[Client]:
    """A client on an app with `limits`, its address's buckets empty of earlier tests' use."""
    async with Redis.from_url(redis_url) as redis:
        await redis.delete("kr:bucket:read:testclient", "kr:bucket:open:testclient")
    async with AsyncTestClient(create_app(settings(redis_url, **limits), games=ENGINES)) as client:
        yield client


@pytest.fixture
async def few_reads(redis_url: str) -> AsyncIterator[Client]:
    """Five reads at once and one a second for the address; tokens are not held back."""
    async for client in small(redis_url, read_burst=5, read_per_s=1):
        yield client


@pytest.fixture
async def few_moves(redis_url: str) -> AsyncIterator[Client]:
    """Three requests at once and one a second for each token."""
    async for client in small(redis_url, rate_burst=3, rate_per_s=1):
        yield client


def statuses(answers: list[Any]) -> list[int]:
    return [r.status_code for r in answers]


def made_up() -> str:
    return f"seat_{secrets.token_urlsafe(24)}"


async def test_reads_without_a_token_are_limited_per_address(few_reads: Client) -> None:
    table = await Tables(few_reads).ready("cheat", 2)
    paths = [f"/v1/games/{table.id}", f"/v1/games/{table.id}/events", "/v1/games"]
    answers = [await few_reads.get(paths[i % 3]) for i in range(20)]
    assert statuses(answers)[:5] == [200] * 5
    limited = answers[-1]
    assert_problem(limited, 429, "rate_limited")
    assert int(limited.headers["retry-after"]) >= 1
    # A stream and a long-poll without a token are reads of the address too.
    assert_problem(await few_reads.get(f"/v1/games/{table.id}/stream"), 429, "rate_limited")
    polled = await few_reads.get(f"/v1/games/{table.id}/events", params={"after": 99, "wait": 5})
    assert_problem(polled, 429, "rate_limited")
    # A token the table knows pays with its own bucket, not the address's.
    for _ in range(10):
        r = await few_reads.get(f"/v1/games/{table.id}", headers=auth(table.players[0]))
        assert r.status_code == 200, r.text


async def test_a_made_up_token_gets_no_bucket_its_address_pays(few_reads: Client) -> None:
    table = await Tables(few_reads).ready("cheat", 2)
    views = [
        await few_reads.get(f"/v1/games/{table.id}", headers=auth(made_up())) for _ in range(12)
    ]
    assert statuses(views)[:5] == [401] * 5
    assert 429 in statuses(views) and set(statuses(views)) <= {401, 429}
    # The same for a command sent with a made-up token, and for a table that is not there.
    play = {"type": "play", "cards": ["PA"]}
    moves = [
        await few_reads.post(f"/v1/games/{table.id}/commands", json=play, headers=auth(made_up()))
        for _ in range(3)
    ]
    assert statuses(moves) == [429] * 3
    absent = await few_reads.get(f"/v1/games/{'0' * 16}", headers=auth(made_up()))
    assert_problem(absent, 429, "rate_limited")
    # The table's own tokens go on.
    for token in table.players:
        r = await few_reads.get(f"/v1/games/{table.id}", headers=auth(token))
        assert r.status_code == 200, r.text


async def test_a_refused_command_costs_its_token_one(few_moves: Client) -> None:
    tables = Tables(few_moves)
    table = await tables.ready("cheat", 2)
    turn = (await tables.view(table))["turn"]
    seat = 1 - turn  # not its turn: each play is a 409
    hand = (await tables.view(table, table.players[seat]))["me"]["hand"]
    play = {"type": "play", "cards": hand[:1]}
    answers = [await tables.send(table, seat, play) for _ in range(8)]
    assert 429 in statuses(answers), statuses(answers)
    assert set(statuses(answers)) <= {409, 429}
    assert_problem(answers[-1], 429, "rate_limited")
    # A stale If-Match (412) and a body that is no command (422) are refusals too.
    hand = (await tables.view(table, table.players[turn]))["me"]["hand"]
    move = {"type": "play", "cards": hand[:1]}
    answers = [await tables.send(table, turn, move, **{"If-Match": '"1"'}) for _ in range(6)]
    assert 429 in statuses(answers) and set(statuses(answers)) <= {412, 429}, statuses(answers)
    other = await tables.ready("cheat", 2)
    malformed = [await tables.send(other, 0, {"type": "nothing"}) for _ in range(6)]
    assert 429 in statuses(malformed) and set(statuses(malformed)) <= {422, 429}


async def test_a_start_costs_the_host_token_one(few_moves: Client) -> None:
    tables = Tables(few_moves)
    table = await tables.create("cheat")
    for _ in range(2):
        await tables.join(table)
    starts = [
        await few_moves.post(f"/v1/games/{table.id}/start", headers=auth(table.host))
        for _ in range(8)
    ]
    assert starts[0].status_code == 200, starts[0].text
    assert 429 in statuses(starts), statuses(starts)
    assert set(statuses(starts[1:])) <= {409, 429}
