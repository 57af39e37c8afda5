"""Retries of a keyed move (docs/api.md, Versions and retries): answered from the answer kept
(the accepting process's memory, else the store's), made again from the log at most once a key
in a process however many arrive together, and paid for as any request."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kronikas.adapters.memory import MemoryAnswers, MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.application import appends as appends_module
from kronikas.application.appends import Kept
from kronikas.application.errors import InvalidRequest, RateLimited
from kronikas.application.games import Games
from kronikas.application.wire import Answer
from tests.apps import ENGINES
from tests.unit.application.test_use_cases import (
    SETTINGS,
    CountingStore,
    first_play,
    frozen,
    move,
    started,
    view_of,
)


class CountedAnswers(MemoryAnswers):
    """The memory stored answers, counting their lookups."""

    lookups = 0

    async def answer_of(self, game_id: str, key: str) -> bytes | None:
        self.lookups += 1
        return await super().answer_of(game_id, key)


class Counted(CountingStore):
    """The counting stores, counting lookups of kept answers too."""

    answers: CountedAnswers

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.answers = CountedAnswers(self.data)

    @property
    def lookups(self) -> int:
        return self.answers.lookups


@pytest.fixture
def feed() -> MemoryChangeFeed:
    return MemoryChangeFeed()


@pytest.fixture
def store(feed: MemoryChangeFeed) -> Counted:
    return Counted(clock=frozen, feeds=[feed])


def process(store: MemoryStores, feed: MemoryChangeFeed) -> Games:
    """One service process on the store (its own folds and kept answers)."""
    return Games(store, feed, for_table, SETTINGS, ENGINES)


async def test_the_accepting_process_answers_a_retry_from_the_table_it_holds(
    store: Counted, feed: MemoryChangeFeed
) -> None:
    games = process(store, feed)
    play = await first_play(games, await started(games))
    first = await play.send(games, "k")
    kept = games.commands.appends.kept
    assert len(kept) == 0, "a keyed move keeps nothing in memory"
    reads, lookups = store.log_reads, store.lookups
    for _ in range(5):
        assert await play.send(games, "k") == first
    assert (store.log_reads, store.lookups) == (reads, lookups), "neither the log nor the store"
    assert len(kept) == 1, "the answer made again is kept for the retries after it"


async def test_once_the_table_moved_on_a_retry_at_the_accepting_process_reads_the_log_once(
    store: Counted, feed: MemoryChangeFeed
) -> None:
    games = process(store, feed)
    table = await started(games)
    play = await first_play(games, table)
    first = await play.send(games, "k")
    await move(games, table)  # the next seat: the keyed append is no longer the table's latest
    reads, lookups = store.log_reads, store.lookups
    answers = await asyncio.gather(*(play.send(games, "k") for _ in range(20)))
    assert set(answers) == {first}
    assert (store.log_reads, store.lookups) == (reads + 1, lookups + 1), "one lookup, one fold"
    assert await play.send(games, "k") == first
    assert (store.log_reads, store.lookups) == (reads + 1, lookups + 1), "then from memory"
    elsewhere = process(store, feed)
    await elsewhere.view(table.game_id, play.token)  # it holds the table, not the answer
    reads = store.log_reads
    assert await play.send(elsewhere, "k") == first
    assert (store.log_reads, store.lookups) == (reads, lookups + 2), "and the store kept it"


async def test_retries_arriving_together_elsewhere_share_one_lookup_and_one_fold(
    store: Counted, feed: MemoryChangeFeed
) -> None:
    games, elsewhere, third = (process(store, feed) for _ in range(3))
    table = await started(games)
    for _ in range(6):  # a log longer than the one append
        await move(games, table)
    play = await first_play(games, table)
    first = await play.send(games, "k")
    await move(games, table)  # moved on: the state after the keyed append is held nowhere
    for other in (elsewhere, third):  # each holds the table and knows the token, not the answer
        await other.view(table.game_id, play.token)
    reads, lookups = store.log_reads, store.lookups

    answers = await asyncio.gather(*(play.send(elsewhere, "k") for _ in range(50)))
    assert set(answers) == {first}
    assert (store.log_reads, store.lookups) == (reads + 1, lookups + 1), "one lookup, one fold"
    for _ in range(3):
        assert await play.send(elsewhere, "k") == first
    assert (store.log_reads, store.lookups) == (reads + 1, lookups + 1), "then from memory"

    answers = await asyncio.gather(*(play.send(third, "k") for _ in range(50)))
    assert set(answers) == {first}
    assert (store.log_reads, store.lookups) == (reads + 1, lookups + 2), "kept by the store"


async def test_a_retry_with_another_body_is_refused_before_any_lookup(
    store: Counted, feed: MemoryChangeFeed
) -> None:
    games, elsewhere = process(store, feed), process(store, feed)
    play = await first_play(games, await started(games))
    await play.send(games, "k")
    await elsewhere.view(play.table.game_id, play.token)
    reads, lookups = store.log_reads, store.lookups
    for other in (games, elsewhere):
        with pytest.raises(InvalidRequest):
            await play.send(other, "k", body=b"{}")
    assert (store.log_reads, store.lookups) == (reads, lookups)


async def test_retries_are_paid_from_the_tokens_bucket(feed: MemoryChangeFeed) -> None:
    store = MemoryStores(rate_per_s=1, burst=4, clock=frozen, feeds=[feed])
    games = process(store, feed)
    play = await first_play(games, await started(games))
    first = await play.send(games, "k")  # the store's clock stands still: no token comes back
    answered, limited = [], 0
    for _ in range(10):
        try:
            answered.append(await play.send(games, "k"))
        except RateLimited as exc:
            limited += 1
            assert exc.headers is not None and int(exc.headers["Retry-After"]) >= 1
    assert set(answered) == {first} and answered, "answered while the bucket held tokens"
    assert limited and len(answered) + limited == 10, "then 429, as any request"
    assert (await view_of(process(store, feed), play.table))["version"] == first.version


def answer(n: int, size: int = 10) -> Answer:
    return Answer(bytes([65 + n % 26]) * size, n)


def test_kept_answers_are_bounded_by_count_the_least_recently_used_going_first() -> None:
    kept = Kept(entries=3, size=1000)
    for n in range(3):
        kept.put("g", f"k{n}", n, answer(n))
    assert kept.get("g", "k0", 0) == answer(0)  # used: now the most recent
    kept.put("g", "k3", 3, answer(3))
    assert len(kept) == 3 and kept.bytes == 30
    assert kept.get("g", "k1", 1) is None, "the least recently used went"
    assert [kept.get("g", f"k{n}", n) for n in (0, 2, 3)] == [answer(n) for n in (0, 2, 3)]


def test_kept_answers_are_bounded_by_bytes_and_one_too_large_is_not_kept() -> None:
    kept = Kept(entries=100, size=100)
    for n in range(5):
        kept.put("g", f"k{n}", n, answer(n, 30))
    assert kept.bytes == 90 and len(kept) == 3
    assert kept.get("g", "k1", 1) is None and kept.get("g", "k4", 4) == answer(4, 30)
    kept.put("g", "big", 9, answer(9, 101))
    assert kept.get("g", "big", 9) is None and kept.bytes == 90
    kept.put("g", "k4", 4, answer(4, 10))  # kept again, smaller
    assert kept.bytes == 70


def test_a_kept_answer_is_only_for_the_append_its_key_records() -> None:
    kept = Kept()
    kept.put("g", "k", 7, answer(7))
    assert kept.get("g", "k", 7) == answer(7)
    assert kept.get("g", "k", 8) is None, "a key another append records (a table made again)"
    assert kept.get("h", "k", 7) is None


async def test_a_process_keeps_the_answers_it_made_again_its_latest_only(
    store: Counted, feed: MemoryChangeFeed, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(appends_module, "KEPT_ANSWERS", 2)
    games = process(store, feed)
    table = await started(games)
    sent = []
    while len(sent) < 3:
        seat = (await view_of(games, table))["turn"]
        if "accept" in (await view_of(games, table, seat))["legal"]:
            await move(games, table)
            continue
        play, key = await first_play(games, table), f"k{len(sent)}"
        sent.append((play, key, await play.send(games, key)))
        await move(games, table)  # each keyed append is soon not the table's latest
    kept = games.commands.appends.kept
    assert len(kept) == 0, "the moves kept nothing"
    reads, lookups = store.log_reads, store.lookups
    for play, key, first in sent:
        assert await play.send(games, key) == first
    assert (store.log_reads, store.lookups) == (reads + 3, lookups + 3), "each made again once"
    assert len(kept) == 2
    for play, key, first in sent[1:]:
        assert await play.send(games, key) == first
    assert (store.log_reads, store.lookups) == (reads + 3, lookups + 3), "the latest two in memory"
    play, key, first = sent[0]
    assert await play.send(games, key) == first
    assert (store.log_reads, store.lookups) == (reads + 3, lookups + 4), "the oldest: the store's"
    assert len(kept) == 2
    assert json.loads(first.body)["version"] == first.version
