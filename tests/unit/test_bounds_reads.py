"""Nothing grows without bound (issue 25): a table not held in a process is read in pages of
`READ_PAGE` events, folded as they come, never whole in one store call.

On the memory store, through a store that counts the `limit` of each read.
"""

from __future__ import annotations

from typing import Any

import pytest

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.memory_log import MemoryLog
from kronikas.application import folds
from kronikas.application.games import Games
from kronikas.application.ports import ReadResult
from kronikas.application.tables import Fold
from tests.apps import ENGINES
from tests.unit.application.clock_helpers import (
    SETTINGS,
    Seated,
    events,
    started,
    ticked,
    view,
    world,
)


class CountingReads(MemoryLog):
    """The memory event log, keeping the `limit` of each read."""

    def __init__(self, stores: MemoryStores) -> None:
        super().__init__(stores.data, stores.log.rate_per_s, stores.log.burst)
        self.limits: list[int] = []

    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        self.limits.append(limit)
        return await super().read(game_id, after, token_hash, limit, rate, cost)


def reads_counted(stores: MemoryStores) -> tuple[MemoryStores, CountingReads]:
    """Stores on the same data, their log keeping the `limit` of each read."""
    stores.log = log = CountingReads(stores)
    return stores, log


async def house_match() -> tuple[Any, Seated]:
    """A Cheat match of house seats alone, played to its end: some hundreds of events."""
    w = world()
    s = await started(w.games, "cheat", "hhh", seed=5, rounds=2)
    for _ in range(50):
        if (await view(w.games, s))["status"] == "finished":
            break
        await ticked(w, 0)
    return w, s


def test_a_page_is_a_thousand_events() -> None:
    assert folds.READ_PAGE == 1_000


def _held(games: Games, game_id: str) -> Fold:
    table = games.folds.held(game_id)
    assert table is not None, "held in this process"
    return table


@pytest.mark.parametrize("page", [1, 37, 1_000])
async def test_a_table_read_cold_is_read_in_pages_and_folds_as_it_was_played(
    page: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    w, s = await house_match()
    warm = _held(w.games, s.game_id)
    assert warm.version > 300, "a table of many pages"
    monkeypatch.setattr(folds, "READ_PAGE", page)
    stores, counting = reads_counted(w.store.sharing())
    cold = Games(stores, w.feed, w.randomness, SETTINGS, ENGINES, now=w.clock)
    seen = await view(cold, s)
    assert seen == await view(w.games, s)
    assert seen["status"] == "finished" and seen["version"] == warm.version
    table = _held(cold, s.game_id)
    assert table.state == warm.state
    assert table.round == warm.round and table.at == warm.at
    assert counting.limits and max(counting.limits) <= page
    assert len(counting.limits) >= -(-warm.version // page), "no read asks for more than a page"
    # The events a stream shows from that table are its log, as the first process shows it.
    assert await events(cold, s) == await events(w.games, s)


async def test_a_process_far_behind_catches_up_in_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(folds, "READ_PAGE", 10)
    w = world()
    stores, counting = reads_counted(w.store.sharing())
    deaf = MemoryChangeFeed()  # hears nothing: the store tells the first process's feed alone
    behind = Games(stores, deaf, w.randomness, SETTINGS, ENGINES, now=w.clock)
    s = await started(w.games, "thirty_one", "hhhh", seed=3, lives=10)
    assert (await view(behind, s))["version"] == (await view(w.games, s))["version"]
    for _ in range(3):
        await ticked(w, 0)  # moves the other process does not hear of (its own feed)
    counting.limits.clear()
    behind.folds.unvouched(s.game_id)
    await behind.commands.folds.load(s.game_id, rate=False)
    assert _held(behind, s.game_id).state == _held(w.games, s.game_id).state
    assert max(counting.limits) <= 10 and len(counting.limits) > 1
