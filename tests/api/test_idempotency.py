"""Idempotency keys over HTTP: a key's record is its append's first event (docs/api.md, versions
and retries), so a retry is answered byte for byte by any process: from the log, or from the
table the process holds while the keyed move is its latest."""

from __future__ import annotations

import hashlib
import itertools
import json
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from redis.asyncio import Redis

from kronikas.api.app import create_app
from kronikas.application import folds as folds_module
from kronikas.application import tables as table_module
from kronikas.application.tables import key_hash
from tests.api.tables import Table, Tables, auth, move
from tests.api.test_tables import assert_problem
from tests.apps import ENGINES, settings

Client = AsyncTestClient[Litestar]


@dataclass(frozen=True)
class Sent:
    seat: int
    command: dict[str, Any]
    key: str
    answer: bytes


class KeyedTables(Tables):
    """Tables whose every command carries a key of its own; the accepted ones are kept."""

    def __init__(self, client: Client) -> None:
        super().__init__(client)
        self.keys = (f"key-{n}" for n in itertools.count())
        self.accepted: list[Sent] = []

    async def send(
        self, table: Table, seat: int, command: dict[str, Any], **headers: str
    ) -> httpx.Response:
        headers.setdefault("Idempotency-Key", next(self.keys))
        r = await super().send(table, seat, command, **headers)
        if r.status_code == 200:
            self.accepted.append(Sent(seat, command, headers["Idempotency-Key"], r.content))
        return r


async def keyed_match(
    client: Client, kind: str, players: int, house: int
) -> tuple[KeyedTables, Table]:
    """A match of `players` and `house` house players, dealt, whose every command is keyed."""
    keyed = KeyedTables(client)
    table = await keyed.create(kind, seed=11)
    for _ in range(players):
        await keyed.join(table)
    for _ in range(house):  # the house answers in the same append as the move it follows
        r = await client.post(
            f"/v1/games/{table.id}/house-players", json={"name": "H"}, headers=auth(table.host)
        )
        assert r.status_code == 201, r.text
    await keyed.start(table)
    return keyed, table


@pytest.fixture
async def elsewhere(redis_url: str) -> AsyncIterator[Client]:
    """A second process on the same Redis: it holds no fold of the tables the test makes."""
    async with AsyncTestClient(create_app(settings(redis_url), games=ENGINES)) as client:
        yield client


@pytest.mark.parametrize(
    ("kind", "players", "house"), [("cheat", 2, 0), ("cheat", 2, 1), ("thirty_one", 3, 0)]
)
async def test_every_answer_of_a_match_replays_byte_for_byte_from_another_process(
    client: Client,
    elsewhere: Client,
    kind: str,
    players: int,
    house: int,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keyed, table = await keyed_match(client, kind, players, house)
    rng = random.Random(4)
    while (await keyed.view(table))["status"] != "finished":
        await move(keyed, table, rng)
    final = (await keyed.view(table))["version"]
    assert len(keyed.accepted) > 20

    # The log read in pages of 7: appends of several events (the house's answers, a deal)
    # straddle pages as they do at a table past READ_PAGE events.
    monkeypatch.setattr(folds_module, "READ_PAGE", 7)
    again = Tables(elsewhere)
    for sent in keyed.accepted:
        r = await again.send(table, sent.seat, sent.command, **{"Idempotency-Key": sent.key})
        assert (r.status_code, r.content) == (200, sent.answer), sent
    for sent in keyed.accepted[:5]:  # and once more, where the answer was made again
        r = await keyed.send(table, sent.seat, sent.command, **{"Idempotency-Key": sent.key})
        assert (r.status_code, r.content) == (200, sent.answer), sent
    assert (await again.view(table))["version"] == final, "a replay changes nothing"


@pytest.mark.parametrize(
    ("kind", "players", "house"), [("cheat", 2, 0), ("cheat", 2, 1), ("thirty_one", 3, 0)]
)
async def test_a_retry_while_its_move_is_the_latest_is_made_again_from_the_table_held(
    client: Client, kind: str, players: int, house: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Retried at once, before anything else moves, every answer of a match (deals, the house's
    answers in the same append, the match's end) comes back byte for byte from the table the
    process holds: nothing of the log is folded for it. With the house seated, its own turns
    may come between a move and its retry: then the log is folded, and the bytes are the same."""
    folded: list[int] = []
    before = folds_module.Folds.before

    async def counted(self: Any, game_id: str, first: int) -> Any:
        folded.append(first)
        return await before(self, game_id, first)

    monkeypatch.setattr(folds_module.Folds, "before", counted)
    keyed, table = await keyed_match(client, kind, players, house)
    rng, again = random.Random(4), Tables(client)
    while (await keyed.view(table))["status"] != "finished":
        await move(keyed, table, rng)
        sent = keyed.accepted[-1]
        r = await again.send(table, sent.seat, sent.command, **{"Idempotency-Key": sent.key})
        assert (r.status_code, r.content) == (200, sent.answer), sent
    assert len(keyed.accepted) > 20
    if not house:
        assert folded == [], "made again from the table held, never from the log"


async def test_a_key_used_with_another_body_is_422_in_any_process(
    client: Client, elsewhere: Client
) -> None:
    tables = Tables(client)
    table = await tables.ready("cheat", 2, seed=5)
    turn = (await tables.view(table))["turn"]
    hand = (await tables.view(table, table.players[turn]))["me"]["hand"]
    play = {"type": "play", "cards": hand[:1]}
    assert (await tables.send(table, turn, play, **{"Idempotency-Key": "k"})).status_code == 200
    other = {"type": "play", "cards": hand[1:2]}
    for where in (client, elsewhere):
        r = await Tables(where).send(table, turn, other, **{"Idempotency-Key": "k"})
        assert_problem(r, 422, "invalid_request")


async def test_a_retry_with_a_stale_if_match_is_answered_not_refused(
    client: Client, elsewhere: Client
) -> None:
    tables = Tables(client)
    table = await tables.ready("cheat", 2, seed=5)
    view = await tables.view(table)
    turn, version = view["turn"], view["version"]
    hand = (await tables.view(table, table.players[turn]))["me"]["hand"]
    play = {"type": "play", "cards": hand[:1]}
    first = await tables.send(table, turn, play, **{"Idempotency-Key": "k"})
    await tables.send(table, 1 - turn, {"type": "call"})  # the table moves on
    for where in (client, elsewhere):
        for if_match in (version, version - 1):
            retry = await Tables(where).send(
                table, turn, play, **{"Idempotency-Key": "k", "If-Match": f'"{if_match}"'}
            )
            assert (retry.status_code, retry.content) == (200, first.content)


async def test_a_token_keeps_its_most_recent_keys_the_oldest_is_decided_again(
    client: Client, elsewhere: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_module, "KEYS_PER_TOKEN", 3)
    keyed = KeyedTables(client)
    table = await keyed.ready("cheat", 2, seed=3)
    rng = random.Random(2)
    while (
        len({s.seat for s in keyed.accepted}) < 2
        or max(sum(s.seat == seat for s in keyed.accepted) for seat in (0, 1)) < 4
    ):
        await move(keyed, table, rng)
    mover = next(seat for seat in (0, 1) if sum(s.seat == seat for s in keyed.accepted) >= 4)
    own = [s for s in keyed.accepted if s.seat == mover]
    others = [s for s in keyed.accepted if s.seat != mover]
    version = (await keyed.view(table))["version"]
    for where in (client, elsewhere):
        tables = Tables(where)
        for sent in [*own[-3:], *others[-1:]]:  # the token's 3 most recent; another token's
            r = await tables.send(table, sent.seat, sent.command, **{"Idempotency-Key": sent.key})
            assert (r.status_code, r.content) == (200, sent.answer), sent
        assert (await tables.view(table))["version"] == version
        forgotten = own[-4]  # decided again, on the table as it is now: not its first answer
        r = await tables.send(table, mover, forgotten.command, **{"Idempotency-Key": forgotten.key})
        assert r.content != forgotten.answer
        if r.status_code == 200:
            return  # applied again: the table moved on
        assert r.status_code == 409 and r.json()["code"] in ("illegal_move", "not_your_turn")


async def test_no_event_view_or_answer_carries_a_keys_record(client: Client, redis: Redis) -> None:
    keyed = KeyedTables(client)
    table = await keyed.ready("cheat", 2, seed=9)
    rng = random.Random(1)
    for _ in range(12):
        await move(keyed, table, rng)
    marks = [  # what the log's records carry for each key: never on the wire
        key_hash(hashlib.sha256(table.players[sent.seat].encode()).hexdigest(), sent.key)
        for sent in keyed.accepted
    ]
    stored = b"".join(await redis.lrange(f"kr:{{{table.id}}}:log", 0, -1))
    assert all(mark.encode() in stored for mark in marks), "the log holds them"
    texts = [s.answer for s in keyed.accepted]
    for token in [*table.players, table.host, None]:
        r = await client.get(f"/v1/games/{table.id}/events", headers=auth(token))
        texts.append(r.content)
        for event in r.json()["events"]:
            assert set(event) <= {"version", "at", "type", "data"}, event
        texts.append((await client.get(f"/v1/games/{table.id}", headers=auth(token))).content)
    for sent in keyed.accepted:
        for event in json.loads(sent.answer)["events"]:
            assert set(event) <= {"version", "at", "type", "data"}, event
    for text in texts:
        assert not any(mark.encode() in text for mark in marks)
        assert b'"i":' not in text and b'"n":' not in text


async def test_a_retry_of_a_recorded_key_is_paid_for_and_429_once_the_bucket_is_spent(
    redis_url: str,
) -> None:
    async with AsyncTestClient(
        create_app(settings(redis_url, rate_per_s=1, rate_burst=3), games=ENGINES)
    ) as c:
        tables = Tables(c)
        table = await tables.ready("cheat", 2, seed=5)
        turn = (await tables.view(table))["turn"]
        hand = (await tables.view(table, table.players[turn]))["me"]["hand"]
        play = {"type": "play", "cards": hand[:1]}
        first = await tables.send(table, turn, play, **{"Idempotency-Key": "k"})
        assert first.status_code == 200
        answers = []  # until the bucket (1 a second) is spent: a few tries, 200 at the most
        while len(answers) < 200 and not any(r.status_code == 429 for r in answers):
            answers.append(await tables.send(table, turn, play, **{"Idempotency-Key": "k"}))
        assert answers[0].content == first.content, "answered while the bucket held a token"
        assert answers[-1].status_code == 429, "then refused as any request"
        for r in answers:
            if r.status_code == 429:
                assert_problem(r, 429, "rate_limited")
                assert int(r.headers["Retry-After"]) >= 1
            else:
                assert (r.status_code, r.content) == (200, first.content)
        assert (await tables.view(table))["version"] == json.loads(first.content)["version"]


async def test_a_refused_command_retried_with_its_key_is_decided_again(
    client: Client, elsewhere: Client
) -> None:
    """Only accepted commands are remembered: a command refused (409 out of turn, 412 stale)
    and sent again with the same key and body is decided again, here or in another process,
    never answered its refusal again."""
    tables = Tables(client)
    table = await tables.ready("cheat", 2, seed=5)
    view = await tables.view(table)
    turn, version = view["turn"], view["version"]
    waiting = 1 - turn
    hands = [(await tables.view(table, token))["me"]["hand"] for token in table.players]
    early = {"type": "play", "cards": hands[waiting][:1]}
    r = await tables.send(table, waiting, early, **{"Idempotency-Key": "early"})
    assert_problem(r, 409, "not_your_turn")
    play = {"type": "play", "cards": hands[turn][:1]}
    stale = {"Idempotency-Key": "stale", "If-Match": f'"{version - 1}"'}
    assert_problem(await tables.send(table, turn, play, **stale), 412, "version_mismatch")
    assert (await tables.view(table))["version"] == version  # nothing changed
    r = await Tables(elsewhere).send(table, turn, play, **{"Idempotency-Key": "stale"})
    assert r.status_code == 200, r.text
    assert r.json()["version"] > version
    r = await Tables(elsewhere).send(table, waiting, early, **{"Idempotency-Key": "early"})
    assert r.status_code == 200, r.text  # its turn now: decided again, and applied
    again = await tables.send(table, waiting, early, **{"Idempotency-Key": "early"})
    assert (again.status_code, again.content) == (200, r.content)  # remembered once accepted
