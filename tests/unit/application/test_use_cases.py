"""The use cases on the memory store: what they answer, without Redis.

Each `Games` stands for one service process (its own fold cache); two of them on one memory store
are two processes on one Redis. The store's clock stands still, so nothing expires mid-test.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
from dataclasses import dataclass
from typing import Any

import pytest

from kronikas.adapters.memory import MemoryChangeFeed, MemoryDeadlines, MemoryStores
from kronikas.adapters.memory_log import MemoryLog
from kronikas.adapters.randomness import for_table
from kronikas.application import folds as folds_module
from kronikas.application.errors import InvalidRequest, VersionMismatch
from kronikas.application.games import Delivered, Games
from kronikas.application.ports import ReadResult
from kronikas.application.wire import Answer
from kronikas.config import Settings
from kronikas_rules.cheat import Accept, Call, CheatOptions, Play
from kronikas_rules.common import DomainError
from kronikas_rules.seating import Leave
from tests.apps import ENGINES

SETTINGS = Settings(rate_per_s=100_000, rate_burst=100_000, sse_keepalive_s=5.0)
NOW = 1_800_000_000.0


def frozen() -> float:
    return NOW


class CountingLog(MemoryLog):
    """The memory event log, counting the reads it is asked for (`log_reads`: those asking for
    events, not a bucket's charge alone)."""

    reads = 0
    log_reads = 0

    async def read(
        self,
        game_id: str,
        after: int,
        token_hash: str,
        limit: int,
        rate: bool = True,
        cost: int = 1,
    ) -> ReadResult:
        self.reads += 1
        if limit > 0:
            self.log_reads += 1
        return await super().read(game_id, after, token_hash, limit, rate, cost)


class CountingStore(MemoryStores):
    """The memory stores, their log counting its reads (`CountingLog`)."""

    log: CountingLog

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log = CountingLog(self.data, self.log.rate_per_s, self.log.burst)

    @property
    def reads(self) -> int:
        return self.log.reads

    @property
    def log_reads(self) -> int:
        return self.log.log_reads


@pytest.fixture
def feed() -> MemoryChangeFeed:
    return MemoryChangeFeed()


@pytest.fixture
def store(feed: MemoryChangeFeed) -> CountingStore:
    return CountingStore(clock=frozen, feeds=[feed])


@pytest.fixture
def games(store: MemoryStores, feed: MemoryChangeFeed) -> Games:
    return Games(store, feed, for_table, SETTINGS, ENGINES)


@pytest.fixture
def other(store: MemoryStores, feed: MemoryChangeFeed) -> Games:
    """A second process on the same store and feed: its moves are news to `games`."""
    return Games(store.sharing(), feed, for_table, SETTINGS, ENGINES)


@dataclass
class Seated:
    game_id: str
    host: str
    tokens: list[str]


async def started(games: Games, players: int = 2, **options: Any) -> Seated:
    created = json.loads(await games.create("cheat", CheatOptions(**options), seed=7))
    game_id = created["game"]["id"]
    tokens = [json.loads(await games.join(game_id, f"P{i}"))["token"] for i in range(players)]
    await games.start(game_id, created["host_token"])
    return Seated(game_id, created["host_token"], tokens)


async def view_of(games: Games, table: Seated, seat: int | None = None) -> dict[str, Any]:
    token = None if seat is None else table.tokens[seat]
    view: dict[str, Any] = json.loads((await games.view(table.game_id, token)).body)
    return view


async def move(games: Games, table: Seated) -> int:
    """The seat on turn plays its first card (or accepts, when it must); returns the version."""
    seat = (await view_of(games, table))["turn"]
    mine = await view_of(games, table, seat)
    command = Accept() if "accept" in mine["legal"] else Play(cards=mine["me"]["hand"][:1])
    return (await games.command(table.game_id, table.tokens[seat], command, b"")).version


@dataclass
class FirstPlay:
    """The seat on turn's play of its first card, to send under an idempotency key."""

    table: Seated
    token: str
    play: Play
    body: bytes

    async def send(
        self, games: Games, key: str, body: bytes | None = None, if_match: int | None = None
    ) -> Answer:
        table, play = self.table, self.play
        return await games.command(
            table.game_id, self.token, play, body or self.body, if_match, idempotency_key=key
        )


async def first_play(games: Games, table: Seated) -> FirstPlay:
    seat = (await view_of(games, table))["turn"]
    hand = (await view_of(games, table, seat))["me"]["hand"]
    body = json.dumps({"type": "play", "cards": hand[:1]}).encode()
    return FirstPlay(table, table.tokens[seat], Play(cards=hand[:1]), body)


async def caught_up(streams: list[list[Delivered]], version: int) -> None:
    """Let the streams' tasks run until each has delivered `version` (no clock: the memory feed
    wakes them at once, so a few turns of the loop do)."""
    for _ in range(10_000):
        if all(s and s[-1].version >= version for s in streams):
            return
        await asyncio.sleep(0)
    raise AssertionError(f"the streams did not reach version {version}")


# -- answers -------------------------------------------------------------------------------------


async def test_create_join_start_and_a_command_answer_as_the_api_describes(
    games: Games, store: MemoryStores
) -> None:
    created = json.loads(await games.create("cheat", CheatOptions(), seed=7))
    assert set(created) == {"game", "host_token"}
    assert created["host_token"].startswith("host_")
    game = created["game"]
    game_id = game["id"]
    assert re.fullmatch(r"[0-9a-f]{16}", game_id)
    assert (game["kind"], game["status"], game["version"], game["players"]) == (
        "cheat",
        "open",
        1,
        [],
    )
    [listed], more = await store.lobby.page("cheat", "open", 0, 10)
    assert (listed.game_id, listed.version, listed.players, more) == (game_id, 1, 0, False)

    joined = [json.loads(await games.join(game_id, name)) for name in ("A", "B")]
    for seat, answer in enumerate(joined):
        assert set(answer) == {"player_id", "seat", "token", "game"}
        assert answer["seat"] == seat and answer["token"].startswith("seat_")
        assert answer["game"]["version"] == 2 + seat
        assert answer["game"]["me"]["seat"] == seat
    assert [p["name"] for p in joined[1]["game"]["players"]] == ["A", "B"]

    started_ = await games.start(game_id, created["host_token"])
    view = json.loads(started_.body)
    assert view["status"] == "playing" and view["version"] == started_.version > 3
    assert view["me"] is None, "the host sees the table as a spectator"
    [entry], _ = await store.lobby.page("cheat", "playing", 0, 10)
    assert (entry.game_id, entry.players, entry.version) == (game_id, 2, started_.version)

    seat = view["turn"]
    token = joined[seat]["token"]
    hand = json.loads((await games.view(game_id, token)).body)["me"]["hand"]
    answer = await games.command(game_id, token, Play(cards=hand[:1]), b"")
    result = json.loads(answer.body)
    assert set(result) == {"version", "events", "game"}
    assert result["version"] == answer.version == result["game"]["version"] > started_.version
    versions = [e["version"] for e in result["events"]]
    assert versions == list(range(started_.version + 1, answer.version + 1))
    assert all(set(e) == {"version", "type", "at", "data"} for e in result["events"])
    assert result["game"]["me"]["hand"] == hand[1:], "the mover sees their own hand"
    assert (await games.view(game_id, None)).version == answer.version


async def test_a_command_whose_if_match_is_stale_is_a_version_mismatch(games: Games) -> None:
    table = await started(games)
    version = (await view_of(games, table))["version"]
    seat = (await view_of(games, table))["turn"]
    hand = (await view_of(games, table, seat))["me"]["hand"]
    play = Play(cards=hand[:1])
    with pytest.raises(VersionMismatch):
        await games.command(table.game_id, table.tokens[seat], play, b"", if_match=version - 1)
    assert (await view_of(games, table))["version"] == version, "nothing was appended"
    answer = await games.command(table.game_id, table.tokens[seat], play, b"", if_match=version)
    assert answer.version > version
    with pytest.raises(VersionMismatch):  # checked before the rules: it is not their turn now
        await games.command(table.game_id, table.tokens[seat], play, b"", if_match=version)


async def test_with_if_match_exactly_one_of_two_commands_that_arrive_together_wins(
    games: Games,
) -> None:
    table = await started(games, players=3)
    version = await move(games, table)  # a play on the pile: the seat on turn may play, the
    # third seat may call it
    turn = (await view_of(games, table))["turn"]
    callers = [s for s in range(3) if "call" in (await view_of(games, table, s))["legal"]]
    caller = next(s for s in callers if s != turn)
    hand = (await view_of(games, table, turn))["me"]["hand"]
    outcomes = await asyncio.gather(
        games.command(table.game_id, table.tokens[turn], Play(cards=hand[:1]), b"", version),
        games.command(table.game_id, table.tokens[caller], Call(), b"", version),
        return_exceptions=True,
    )
    refused = [o for o in outcomes if isinstance(o, BaseException)]
    assert len(refused) == 1 and isinstance(refused[0], VersionMismatch), outcomes
    assert (await view_of(games, table))["version"] > version


async def test_a_retry_with_the_same_idempotency_key_gets_the_first_answer_and_changes_nothing(
    games: Games, other: Games
) -> None:
    table = await started(games)
    play = await first_play(games, table)
    first = await play.send(games, "k-1")
    assert await play.send(games, "k-1") == first
    assert await play.send(other, "k-1") == first, "the record is the log's, not a process's"
    stale = await play.send(games, "k-1", if_match=first.version - 1)
    assert stale == first, "a retry of an accepted command is not a version mismatch"
    assert (await view_of(games, table))["version"] == first.version
    with pytest.raises(InvalidRequest):
        await play.send(games, "k-1", body=play.body + b" ")


# -- following a table ---------------------------------------------------------------------------


async def test_a_stream_delivers_a_move_another_process_made(games: Games, other: Games) -> None:
    table = await started(other)
    version = (await view_of(games, table))["version"]
    events = (await games.stream(table.game_id, None, version - 1))()
    first = await anext(events)
    assert first is not None and first.version == version
    moved = await move(other, table)
    following = await asyncio.wait_for(anext(events), 2.0)
    assert following is not None and following.version == version + 1 <= moved
    await events.aclose()
    page = json.loads(await games.events(table.game_id, None, version - 1, 0))
    assert json.loads(following.json) == page["events"][1]


async def test_a_long_poll_wakes_on_a_move_another_process_makes(
    games: Games, other: Games
) -> None:
    table = await started(other)
    version = (await view_of(games, table))["version"]
    for _ in range(5):
        poll = asyncio.create_task(games.events(table.game_id, None, version, wait=5.0))
        await asyncio.sleep(0)  # the poll is on its way
        moved = await move(other, table)
        page = json.loads(await asyncio.wait_for(poll, 2.0))
        assert page["events"] and page["events"][0]["version"] == version + 1
        assert page["version"] == moved and page["events"][-1]["version"] == moved
        version = moved


async def follow(games: Games, table: Seated, token: str | None, into: list[Delivered]) -> None:
    events = (await games.stream(table.game_id, token, 0))()
    async for event in events:
        if event is not None:
            into.append(event)


def followers(
    games: Games, table: Seated
) -> tuple[list[str | None], list[list[Delivered]], list[asyncio.Task[None]]]:
    """A stream for each seat and one for spectators, each gathering its events."""
    viewers: list[str | None] = [*table.tokens, None]
    streams: list[list[Delivered]] = [[] for _ in viewers]
    readers = [
        asyncio.create_task(follow(games, table, token, streams[i]))
        for i, token in enumerate(viewers)
    ]
    return viewers, streams, readers


async def test_streams_of_another_process_follow_each_move_without_reading_the_store(
    games: Games, other: Games, store: CountingStore, feed: MemoryChangeFeed
) -> None:
    table = await started(other)
    viewers, streams, readers = followers(games, table)
    try:
        version = await move(other, table)
        await caught_up(streams, version)
        reads = store.reads
        for _ in range(10):
            version = await move(other, table)
            await caught_up(streams, version)
        assert store.reads == reads, "the feed brought each move; nothing was read"
        feed.cut()  # as a lost connection: the streams read once, and miss nothing
        for _ in range(3):
            version = await move(other, table)
        await caught_up(streams, version)
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    for viewer, stream in zip(viewers, streams, strict=True):
        assert [e.version for e in stream] == list(range(1, version + 1))
        page = json.loads(await games.events(table.game_id, viewer, 0, 0))
        assert [json.loads(e.json) for e in stream] == page["events"]


async def test_a_process_hearing_its_own_moves_decodes_none_of_them(games: Games) -> None:
    """The memory feed hands an append to the listeners before the append returns, as Redis
    may: the command's own state and JSON are folded in then, nothing is decoded or read, and
    every stream still gets every event, the same as a page of events says."""
    table = await started(games)
    viewers, streams, readers = followers(games, table)
    decoded = 0
    codec = games.folds.codec
    plain = codec.decode

    def counting(kind: str, raw: bytes) -> Any:
        nonlocal decoded
        decoded += 1
        return plain(kind, raw)

    try:
        version = await move(games, table)
        await caught_up(streams, version)
        codec.decode = counting  # type: ignore[method-assign]
        for _ in range(10):
            version = await move(games, table)
            await caught_up(streams, version)
        assert decoded == 0
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)
    for viewer, stream in zip(viewers, streams, strict=True):
        page = json.loads(await games.events(table.game_id, viewer, 0, 0))
        assert [json.loads(e.json) for e in stream] == page["events"]


async def test_moves_followed_by_streams_leave_no_garbage_for_the_collector(
    games: Games,
) -> None:
    """A move's objects are freed as soon as it is done with them: none is caught in a reference
    cycle that only the garbage collector frees (under load, its passes cost as much CPU a move as
    a tenth of the move and held the push delay's p99 back)."""
    table = await started(games)
    _, streams, readers = followers(games, table)
    try:
        version = await move(games, table)
        await caught_up(streams, version)
        gc.collect()
        gc.disable()
        gc.set_debug(gc.DEBUG_SAVEALL)
        try:
            for _ in range(10):
                version = await move(games, table)
                await caught_up(streams, version)
            gc.collect()
            ours = [o for o in gc.garbage if type(o).__module__.startswith("kronikas")]
        finally:
            gc.set_debug(0)
            gc.garbage.clear()
            gc.enable()
        assert ours == []
    finally:
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)


class GatedDeadlines(MemoryDeadlines):
    """The memory deadlines, whose `arm` waits at a gate: what another process does while a
    command arms its deadline, before its append."""

    gate: asyncio.Event | None = None

    async def arm(self, game_id: str, due_ms: int) -> None:
        if self.gate is not None:
            await self.gate.wait()
        await super().arm(game_id, due_ms)


async def test_a_move_heard_while_a_command_arms_its_deadline_makes_it_decide_again(
    feed: MemoryChangeFeed,
) -> None:
    """A command decided at version v waits on its deadline's arm; meanwhile another process's
    move, heard by the feed, moves this process's table to v + 1. The append must still expect
    v (and lose the race, and decide again): appending at v + 1 would store events numbered
    from v + 1 a second time, and the log would no longer match its own versions."""
    gated = CountingStore(clock=frozen, feeds=[feed])
    gated.deadlines = deadlines = GatedDeadlines(gated.data)
    mine = Games(gated, feed, for_table, SETTINGS, ENGINES)
    theirs = Games(gated.sharing(), feed, for_table, SETTINGS, ENGINES)
    table = await started(theirs, turn_seconds=60)
    seat = (await view_of(mine, table))["turn"]
    hand = (await view_of(mine, table, seat))["me"]["hand"]
    async with feed.waiting(table.game_id):  # this process follows the table: it hears moves
        await view_of(mine, table)
        deadlines.gate = asyncio.Event()
        playing = asyncio.create_task(
            mine.command(table.game_id, table.tokens[seat], Play(cards=hand[:1]), b"")
        )
        for _ in range(20):
            await asyncio.sleep(0)  # the play is decided and waits at the arm
        await theirs.command(table.game_id, table.tokens[1 - seat], Leave(), b"")
        deadlines.gate.set()
        await playing
    page = json.loads(await mine.events(table.game_id, None, 0, 0))
    assert [e["version"] for e in page["events"]] == list(range(1, page["version"] + 1))
    kinds = [e["type"] for e in page["events"]]
    assert kinds.count("cheat.cards_played") >= 1 and "cheat.player_left" in kinds


async def test_processes_with_a_feed_each_follow_one_another(store: MemoryStores) -> None:
    feeds = [MemoryChangeFeed(), MemoryChangeFeed()]
    for feed in feeds:
        store.attach(feed)
    games, other = (Games(store, feed, for_table, SETTINGS, ENGINES) for feed in feeds)
    table = await started(other)
    seen: list[Delivered] = []
    reader = asyncio.create_task(follow(games, table, None, seen))
    try:
        version = 0
        for n in range(6):
            version = await move([games, other][n % 2], table)
            await caught_up([seen], version)
    finally:
        reader.cancel()
        await asyncio.gather(reader, return_exceptions=True)
    assert [e.version for e in seen] == list(range(1, version + 1))


# -- the events page -----------------------------------------------------------------------------


async def test_a_long_history_comes_in_pages_of_500_that_say_when_more_follow(
    games: Games,
) -> None:
    table = await started(games, rounds=100)
    version = 0
    while version < 520:
        version = await move(games, table)
    first = json.loads(await games.events(table.game_id, None, 0, 0))
    assert len(first["events"]) == 500 and first["more"] is True
    assert first["version"] == version
    after = first["events"][-1]["version"]
    assert after == 500
    rest = json.loads(await games.events(table.game_id, None, after, 0))
    assert rest["more"] is False and rest["version"] == version
    seen = [e["version"] for e in first["events"] + rest["events"]]
    assert seen == list(range(1, version + 1))
    assert json.loads(await games.events(table.game_id, None, version, 0)) == {
        "events": [],
        "version": version,
        "more": False,
    }
    short = json.loads(await games.events(table.game_id, None, version - 3, 0))
    assert [e["version"] for e in short["events"]] == [version - 2, version - 1, version]
    assert short["more"] is False


async def test_a_key_is_answered_again_for_a_day_then_decided_again(
    store: MemoryStores, feed: MemoryChangeFeed
) -> None:
    clock = [int(NOW * 1000)]
    games = Games(store, feed, for_table, SETTINGS, ENGINES, now=lambda: clock[0])
    play = await first_play(games, await started(games))
    first = await play.send(games, "k")
    clock[0] += 24 * 3600 * 1000 - 1
    assert await play.send(games, "k") == first
    clock[0] += 1
    with pytest.raises(DomainError):  # decided again: no longer this seat's turn
        await play.send(games, "k")


async def test_every_keyed_move_replays_from_a_log_read_in_small_pages(
    games: Games, other: Games, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(folds_module, "READ_PAGE", 3)  # the answer's append straddles pages
    table = await started(games)
    answers = []
    while len(answers) < 8:
        seat = (await view_of(games, table))["turn"]
        if "accept" in (await view_of(games, table, seat))["legal"]:
            await move(games, table)  # not a play: accepted, without a key
            continue
        play, key = await first_play(games, table), f"k{len(answers)}"
        answers.append((play, key, await play.send(games, key)))
    for play, key, answer in answers:
        assert await play.send(other, key) == answer
