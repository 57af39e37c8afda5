"""Nothing grows without bound (issue 25): a table of house seats alone plays no faster than
its host's bucket lets it. Each house move there takes a token of the bucket `host:<game id>`
(a token's rate settings), and an empty bucket defers the house to the refill.

On the memory store: a fake clock that stands still until a test moves it runs the store's
buckets and the service's deadlines alike.
"""

from __future__ import annotations

import json

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.application.games import Games
from kronikas.application.house import HOUSE_MOVES
from kronikas.config import Settings
from kronikas_rules.seating import Leave
from tests.apps import ENGINES
from tests.unit.application.clock_helpers import (
    FakeClock,
    Seated,
    moves_in,
    person_move,
    started,
    stored,
    tag,
    view,
)

RATE, BURST = 2, 5
"""The test's rate settings: the host's bucket holds 5 moves and refills 2 a second."""


def slow_world() -> tuple[Games, MemoryStores, FakeClock]:
    """A store and a process on one fake clock that stands still until the test moves it."""
    clock = FakeClock()
    clock.freeze(1_800_000_000_000)
    feed = MemoryChangeFeed()
    store = MemoryStores(clock=lambda: clock() / 1000, feeds=[feed])
    settings = Settings(rate_per_s=RATE, rate_burst=BURST, sse_keepalive_s=5.0)
    return Games(store, feed, for_table, settings, ENGINES, now=clock), store, clock


def later(clock: FakeClock, seconds: float) -> None:
    clock.freeze(clock() + round(seconds * 1000))


async def house_moves(store: MemoryStores, s: Seated) -> int:
    """The Thirty-One moves made at the table: each is one command (a swap in the last circuit
    shows the hand at once, in a second event of that one move)."""
    made, previous = 0, None
    for record in await stored(store, s.game_id):
        shown_by_swap = (
            tag(record) == "hand_shown"
            and previous is not None
            and tag(previous) in ("card_swapped", "hands_swapped")
            and previous["e"]["seat"] == record["e"]["seat"]
        )
        if moves_in("thirty_one", [record]) and not shown_by_swap:
            made += 1
        previous = record
    return made


async def test_a_table_of_house_seats_alone_moves_no_faster_than_its_hosts_bucket() -> None:
    games, store, clock = slow_world()
    s = await started(games, "thirty_one", "hhh", seed=3, lives=10)
    assert await house_moves(store, s) == 0, "the start does not pay for the house's moves"
    assert await games.clocks.tick() == 1
    assert await house_moves(store, s) == BURST, "a full bucket pays for its burst"
    # The empty bucket defers the house: the table is taken once more, and then not again
    # until the bucket has a token.
    assert await games.clocks.tick() == 1
    assert await house_moves(store, s) == BURST
    assert await games.clocks.tick() == 0, "deferred to the refill"
    later(clock, 0.49)
    assert await games.clocks.tick() == 0
    later(clock, 0.01)
    assert await games.clocks.tick() == 1
    assert await house_moves(store, s) == BURST + 1, "one token, one move"
    # Over time: never more than the burst and the refill.
    start, made = clock(), BURST + 1
    for _ in range(20):
        later(clock, 1.0)
        await games.clocks.tick()
        await games.clocks.tick()  # a second look in the same instant finds nothing to pay with
        now_made = await house_moves(store, s)
        assert now_made - made <= BURST, "at most a bucket at a time"
        assert now_made - (BURST + 1) <= RATE * (clock() - start) / 1000
        assert now_made > made or (await view(games, s))["status"] == "finished", "it moves on"
        made = now_made
    assert made >= BURST + 1 + RATE * 20 - 1 or (await view(games, s))["status"] == "finished"


async def test_every_person_gone_the_house_pays_for_the_rest_of_the_match() -> None:
    games, store, _ = slow_world()
    s = await started(games, "thirty_one", "pph", seed=3, lives=10)
    turn = (await view(games, s))["turn"]
    for seat in (0, 1):
        if seat != turn:
            await games.command(s.game_id, s.token(seat), Leave(), b"")
    before = await house_moves(store, s)
    left = json.loads((await games.command(s.game_id, s.token(turn), Leave(), b"")).body)
    assert [e["type"] for e in left["events"]] == ["thirty_one.player_left"], "no unpaid move"
    assert await house_moves(store, s) == before
    await games.clocks.tick()
    assert await house_moves(store, s) == before + BURST


async def test_a_person_at_the_table_is_answered_by_the_house_whatever_the_bucket() -> None:
    games, store, _ = slow_world()
    s = await started(games, "cheat", "ph", seed=7, rounds=3)
    answered = 0
    for _ in range(3 * BURST):
        if (await view(games, s))["status"] == "finished":
            break
        before = await house_moves_cheat(store, s)
        await games.command(s.game_id, s.token(0), await person_move(games, s, 0), b"")
        answered += await house_moves_cheat(store, s) > before + 1
    assert answered > BURST, "the house answers a person at once, however often"


async def house_moves_cheat(store: MemoryStores, s: Seated) -> int:
    return moves_in("cheat", await stored(store, s.game_id))


async def test_without_a_rate_limit_the_house_alone_is_not_held_back() -> None:
    clock = FakeClock()
    clock.freeze(1_800_000_000_000)
    feed = MemoryChangeFeed()
    store = MemoryStores(clock=lambda: clock() / 1000, feeds=[feed])
    settings = Settings(rate_per_s=0, rate_burst=BURST, sse_keepalive_s=5.0)
    games = Games(store, feed, for_table, settings, ENGINES, now=clock)
    s = await started(games, "thirty_one", "hhh", seed=3, lives=10)
    assert await games.clocks.tick() == 1
    assert await house_moves(store, s) == HOUSE_MOVES, "a request's worth of moves at once"
