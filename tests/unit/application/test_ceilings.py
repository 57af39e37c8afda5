"""The address ceiling, kept in the process (application/ceilings.py): a token bucket per client
address on the application's clock, bounded in memory; and taken with the token's bucket in the
store (or the address's read bucket), both or neither (docs/api.md, Rate limits).

The addresses are from the documentation ranges (RFC 5737): never a real client's.
"""

from __future__ import annotations

import json

import pytest

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.application.access import hash_token
from kronikas.application.ceilings import Ceilings
from kronikas.application.errors import RateLimited
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules.cheat import Accept, Play
from tests.apps import ENGINES
from tests.unit.application.test_use_cases import SETTINGS, Seated, frozen, started, view_of

CLIENT = "192.0.2.1"
OTHER = "192.0.2.2"
SLOW = 0.001
"""A refill rate so slow that no bucket in the store refills while a test runs."""


class Clock:
    """Epoch milliseconds that move only when the test says so."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms

    def advance(self, ms: int) -> None:
        self.ms += ms


# -- the ceilings alone ----------------------------------------------------------------------------


def test_a_ceiling_gives_its_burst_then_what_it_refills_at_its_rate() -> None:
    clock = Clock()
    ceilings = Ceilings(10, 5, clock)
    assert ceilings.take(CLIENT, 3) == 0
    assert ceilings.take(CLIENT, 3) == 100, "2 left: one short, at 10 a second"
    assert ceilings.take(CLIENT, 2) == 0, "the refusal took nothing"
    assert ceilings.take(OTHER, 5) == 0, "each address has its own"
    clock.advance(100)
    assert ceilings.take(CLIENT) == 0
    assert ceilings.take(CLIENT) > 0


def test_a_request_dearer_than_the_burst_takes_a_full_ceiling() -> None:
    ceilings = Ceilings(10, 5, Clock())
    assert ceilings.take(CLIENT, 50) == 0
    assert ceilings.take(CLIENT) > 0


def test_a_caller_without_an_address_has_no_ceiling() -> None:
    ceilings = Ceilings(10, 5, Clock())
    assert ceilings.take(None, 1_000) == 0
    ceilings.give_back(None, 1_000)
    assert len(ceilings) == 0


def test_what_is_given_back_is_taken_again_never_beyond_the_burst() -> None:
    ceilings = Ceilings(10, 5, Clock())
    assert ceilings.take(CLIENT, 5) == 0
    ceilings.give_back(CLIENT, 3)
    assert ceilings.take(CLIENT, 3) == 0
    assert ceilings.take(CLIENT) > 0
    ceilings.give_back(CLIENT, 100)
    assert ceilings.take(CLIENT, 5) == 0
    assert ceilings.take(CLIENT) > 0, "given back to a full ceiling, and no further"
    ceilings.give_back(OTHER, 3)
    assert len(ceilings) == 1, "an address without a ceiling here is given nothing"


def test_a_ceiling_that_has_refilled_is_forgotten() -> None:
    clock = Clock()
    ceilings = Ceilings(10, 5, clock)
    for i in range(100):
        assert ceilings.take(f"198.51.100.{i}", 5) == 0
    clock.advance(499)  # 4.99 refilled of 5
    assert ceilings.take(CLIENT) == 0
    assert len(ceilings) == 101
    clock.advance(1)
    assert ceilings.take(OTHER) == 0
    assert len(ceilings) == 2, "the hundred refilled ceilings are gone; CLIENT's has not refilled"
    clock.advance(10_000)
    ceilings.take(CLIENT)
    assert len(ceilings) == 1


def test_past_its_cap_the_ceiling_touched_longest_ago_is_forgotten() -> None:
    clock = Clock()
    ceilings = Ceilings(10, 5, clock, kept=3)
    for address in ("198.51.100.1", "198.51.100.2", "198.51.100.3"):
        assert ceilings.take(address, 5) == 0
        clock.advance(1)
    assert ceilings.take(CLIENT, 5) == 0
    assert len(ceilings) == 3
    assert ceilings.take("198.51.100.1", 5) == 0, "forgotten: a full ceiling again"
    assert ceilings.take("198.51.100.3") > 0, "touched later: kept, and still spent"
    for i in range(10_000):
        ceilings.take(f"203.0.113.{i % 256}/{i}", 5)
        assert len(ceilings) <= 3


# -- with the buckets in the store: both or neither ------------------------------------------------


@pytest.fixture
def feed() -> MemoryChangeFeed:
    return MemoryChangeFeed()


@pytest.fixture
def store(feed: MemoryChangeFeed) -> MemoryStores:
    return MemoryStores(clock=frozen, feeds=[feed])


@pytest.fixture
async def table(store: MemoryStores, feed: MemoryChangeFeed) -> Seated:
    """A started Cheat table of two players, set up on a store without limits."""
    return await started(Games(store, feed, for_table, SETTINGS, ENGINES))


def limited(store: MemoryStores, feed: MemoryChangeFeed, address_burst: int) -> Games:
    """A process on the same data whose tokens (and addresses' read buckets) hold 2, and whose
    addresses' ceilings hold `address_burst`; none of them refills while the test runs."""
    settings = Settings(address_per_s=1, address_burst=address_burst, read_per_s=1, read_burst=2)
    return Games(store.sharing(SLOW, 2), feed, for_table, settings, ENGINES, now=Clock())


def left(games: Games, n: int) -> bool:
    """Whether CLIENT's ceiling holds exactly `n`: takes it all."""
    ceilings = games.queries.ceilings
    return ceilings.take(CLIENT, n) == 0 and ceilings.take(CLIENT) > 0


async def test_a_read_the_tokens_bucket_refuses_gives_the_ceiling_back(
    store: MemoryStores, feed: MemoryChangeFeed, table: Seated
) -> None:
    games = limited(store, feed, address_burst=5)
    token = table.tokens[0]
    for _ in range(2):
        await games.view(table.game_id, token, CLIENT)
    with pytest.raises(RateLimited) as refused:
        await games.view(table.game_id, token, CLIENT)
    assert "from this address" not in refused.value.detail, "the token's bucket refused"
    assert left(games, 3), "the refused read's one was given back"


async def test_a_read_the_ceiling_refuses_takes_nothing_from_the_tokens_bucket(
    store: MemoryStores, feed: MemoryChangeFeed, table: Seated
) -> None:
    games = limited(store, feed, address_burst=1)
    token = table.tokens[0]
    await games.view(table.game_id, token, CLIENT)
    with pytest.raises(RateLimited) as refused:
        await games.view(table.game_id, token, CLIENT)
    assert "from this address" in refused.value.detail
    assert "Retry-After" in refused.value.headers
    paid = await games.stores.log.read(table.game_id, 0, hash_token(token), 0)
    assert paid.retry_after_ms == 0, "the token's bucket kept its second"
    assert (await games.stores.log.read(table.game_id, 0, hash_token(token), 0)).retry_after_ms > 0


async def test_a_read_without_a_token_takes_the_ceiling_and_the_read_bucket_both_or_neither(
    store: MemoryStores, feed: MemoryChangeFeed
) -> None:
    games = limited(store, feed, address_burst=5)
    for _ in range(2):
        await games.lobby(None, None, 0, 10, CLIENT)
    with pytest.raises(RateLimited):
        await games.lobby(None, None, 0, 10, CLIENT)
    assert left(games, 3), "the read bucket refused: the ceiling was given back"


async def test_a_move_takes_one_from_the_ceiling_and_gives_it_back_when_its_token_cannot_pay(
    store: MemoryStores, feed: MemoryChangeFeed, table: Seated
) -> None:
    games = limited(store, feed, address_burst=6)
    setup = Games(store, feed, for_table, SETTINGS, ENGINES)
    seat = (await view_of(setup, table))["turn"]
    mine = await view_of(setup, table, seat)
    command = Accept() if "accept" in mine["legal"] else Play(cards=mine["me"]["hand"][:1])
    token = table.tokens[seat]
    await games.view(table.game_id, token, CLIENT)
    await games.view(table.game_id, token, CLIENT)  # the token's 2 spent; the ceiling holds 4
    with pytest.raises(RateLimited) as refused:
        await games.command(table.game_id, token, command, b"", client=CLIENT)
    assert "from this address" not in refused.value.detail, "the token's bucket refused"
    assert (await view_of(setup, table))["turn"] == seat, "nothing was appended"
    assert left(games, 4), "the refused move's one was given back"


async def test_an_accepted_move_and_a_replay_of_it_each_take_one_from_the_ceiling(
    store: MemoryStores, feed: MemoryChangeFeed, table: Seated
) -> None:
    games = limited(store, feed, address_burst=3)
    setup = Games(store, feed, for_table, SETTINGS, ENGINES)
    seat = (await view_of(setup, table))["turn"]
    hand = (await view_of(setup, table, seat))["me"]["hand"]
    body = json.dumps({"type": "play", "cards": hand[:1]}).encode()
    token, play = table.tokens[seat], Play(cards=hand[:1])
    first = await games.command(table.game_id, token, play, body, None, "k", CLIENT)
    again = await games.command(table.game_id, token, play, body, None, "k", CLIENT)
    assert again.body == first.body
    with pytest.raises(RateLimited) as refused:  # the token's 2 are spent
        await games.command(table.game_id, token, play, body, None, "k", CLIENT)
    assert "from this address" not in refused.value.detail
    assert left(games, 1), "the move and the replay took one each; the refused replay none"
