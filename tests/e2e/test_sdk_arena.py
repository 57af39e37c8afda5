"""Joining the arena in a few lines, against a real service process: the SDK's arena helper
(`kronikas_client.arena`) registers, queues, waits, leaves and revokes; the example bot
(bots/src/kronikas_bots/arena.py, under 30 lines) plays a rated table with it, and then reads its
rating, its match and the leaderboard, the standing entrants on it; the match is replayable."""

from __future__ import annotations

import random
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
import redis
from kronikas_bots import arena as example
from kronikas_bots.table import make_bot, play_seat
from kronikas_client import Client
from kronikas_client.arena import Arena, ArenaError, Seated
from kronikas_client.models import EntrantPage
from kronikas_client.replay import replay

from tests.conftest import serving

T = TypeVar("T")

ARENA_ENV = {
    "ARENA_FILL_SECONDS": "0",  # a lone entrant's set is filled by the standing entrants at once
    "ARENA_TICK_MS": "50",
    "ARENA_TURN_SECONDS": "5",
    "ARENA_REGISTER_PER_HOUR": "1000000",
    "ARENA_QUEUE_PER_MIN": "1000000",
}
LONELY = 3
"""A table size no lone entrant is seated at (a 3-seat set needs 3 real entrants): it waits."""


@pytest.fixture(scope="module")
def arena_service(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    store = redis.Redis.from_url(redis_url)
    keys = list(store.scan_iter(match="{arena}:*", count=1000))
    if keys:
        store.delete(*keys)  # an arena of this module's own: no entrant left queued before
    store.close()
    log = tmp_path_factory.mktemp("arena") / "service.log"
    with serving(redis_url, log, **ARENA_ENV) as running:
        yield running.url


def until(read: Callable[[], T], done: Callable[[T], bool], seconds: float = 60) -> T:
    """`read()` again until `done` says so (the arena ticks in the service's own time)."""
    deadline = time.monotonic() + seconds
    while True:
        got = read()
        if done(got) or time.monotonic() > deadline:
            return got
        time.sleep(0.1)


def name() -> str:
    return f"bot-{uuid.uuid4().hex[:10]}"


def test_the_example_bot_is_under_30_lines() -> None:
    assert example.__file__ is not None
    assert len(Path(example.__file__).read_text().splitlines()) < 30


def test_the_example_bot_plays_a_rated_table_then_reads_its_rating(
    arena_service: str, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = name()
    arena = example.main(arena_service, bot, "cheat", tables=1)

    played = capsys.readouterr().out.splitlines()
    assert len(played) == 1 and played[0].startswith("table ") and "winners" in played[0]
    # rated once the whole set (its other table: the standing entrants') has finished
    page: EntrantPage = until(arena.me, lambda p: bool(p.matches))
    assert page.name == bot and not page.standing
    [match] = page.matches
    assert (match.kind, match.players) == ("cheat", 2) and match.table_id in played[0]
    [rating] = page.ratings
    assert (rating.kind, rating.players, rating.matches) == ("cheat", 2, 1)
    assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)
    board = arena.leaderboard("cheat")
    entries = {e.entrant_id: e for e in board.entries}
    assert entries[page.entrant_id].name == bot
    assert {e.name for e in board.entries if e.standing} == {"House", "Random"}
    assert [e.rank for e in board.entries] == list(range(1, len(board.entries) + 1))
    # the match is replayable by anyone now, as the web's entrant page links it
    views = list(replay(Client(base_url=arena_service), match.table_id))
    assert views and views[-1][1].status == "finished"
    assert arena.status().status == "idle"


def test_play_enters_again_once_its_last_table_is_over(arena_service: str) -> None:
    arena = Arena(Client(base_url=arena_service), busy_s=0.2)
    arena.register(name(), ["thirty_one"])
    seats: list[Seated] = []

    def player(seated: Seated) -> None:
        seats.append(seated)
        bot = make_bot(seated.kind, "random", random.Random(len(seats)))
        assert play_seat(arena_service, seated.table_id, seated.token, bot).status == "finished"

    assert arena.play(player, "thirty_one", tables=2) == 2
    assert len({s.table_id for s in seats}) == 2 and len({s.set_id for s in seats}) == 2
    assert all((s.kind, s.players) == ("thirty_one", 2) for s in seats)
    assert arena.status().status in {"idle", "seated"}  # left no ticket waiting


def test_an_entrant_queues_waits_leaves_and_is_revoked(arena_service: str) -> None:
    arena = Arena(Client(base_url=arena_service))
    entrant = arena.register(name(), ["cheat"])
    assert entrant.token.startswith("ke_") and arena.token == entrant.token

    assert arena.queue("cheat", LONELY).status == "waiting"
    with pytest.raises(TimeoutError):
        arena.enter("cheat", LONELY, wait=0.5)
    assert arena.status(wait=0.2).status == "waiting"
    arena.leave()
    assert arena.status().status == "idle"
    assert arena.me().matches == [] and arena.me().ratings == []

    token = arena.token
    arena.revoke()
    assert arena.token is None
    with pytest.raises(ArenaError) as refused:
        Arena(Client(base_url=arena_service), token=token).queue("cheat")
    assert refused.value.status == 401 and refused.value.code == "unauthorized"


def test_a_refusal_says_why(arena_service: str) -> None:
    arena = Arena(Client(base_url=arena_service))
    arena.register(name(), ["cheat"])
    with pytest.raises(ArenaError) as refused:
        arena.queue("no-such-game")
    assert refused.value.status == 422 and refused.value.code
    with pytest.raises(ArenaError) as unknown:
        arena.entrant(f"nobody-{uuid.uuid4().hex}")
    assert unknown.value.status == 404
    with pytest.raises(ArenaError) as no_token:
        Arena(Client(base_url=arena_service)).leave()
    assert no_token.value.status == 401
