"""The viewer is a player, never a seat index (docs/api.md, "Who sees what").

Seats move down when a player leaves before the start, so every delivery — a view, a page of
events, a long-poll, a stream's events, a command's answer — is redacted for the seat the viewer's
player holds when it is made; and a token whose player left before the start reads nothing more:
its open streams end, its open long-polls answer 401.

On the memory store: each `Games` stands for one service process, `World.process()` for another
on the same store (one Redis).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from kronikas.adapters.memory import MemoryChangeFeed
from kronikas.adapters.randomness import for_table
from kronikas.application.errors import Unauthorized
from kronikas.application.games import Delivered, Games
from kronikas_rules.cheat import Play
from kronikas_rules.seating import Leave
from tests.apps import ENGINES
from tests.unit.application.clock_helpers import SETTINGS, Seated, World, table, view, world

WAIT_S = 5.0
"""Bound on every wait here; the memory feed wakes at once, so none comes near it."""


def dealt(events: list[Delivered]) -> dict[str, Any]:
    """The data of the first deal among a stream's events."""
    for event in events:
        if event.type.endswith("round_dealt"):
            data: dict[str, Any] = json.loads(event.json)["data"]
            return data
    raise AssertionError(f"no deal in {[e.type for e in events]}")


class Stream:
    """One stream of a table, gathering its events until it ends (and how it ended)."""

    def __init__(self, games: Games, seated: Seated, token: str | None, after: int = 0) -> None:
        self.events: list[Delivered] = []
        self.ended: BaseException | None = None
        self.opened = asyncio.Event()
        self.task = asyncio.create_task(self._read(games, seated, token, after))

    async def _read(self, games: Games, seated: Seated, token: str | None, after: int) -> None:
        following = (await games.stream(seated.game_id, token, after))()
        self.opened.set()
        try:
            async for event in following:
                if event is not None:
                    self.events.append(event)
        except Unauthorized as exc:
            self.ended = exc

    async def reaches(self, version: int) -> None:
        async def caught_up() -> None:
            while not (self.events and self.events[-1].version >= version):
                await asyncio.sleep(0.001)

        await asyncio.wait_for(caught_up(), WAIT_S)

    async def close(self) -> None:
        self.task.cancel()
        await asyncio.gather(self.task, return_exceptions=True)


def deaf(w: World) -> Games:
    """A process on the same store whose change feed hears nothing: its folds fall behind
    until a request reads the table again."""
    return Games(w.store.sharing(), MemoryChangeFeed(), for_table, SETTINGS, ENGINES, now=w.clock)


async def leave(games: Games, seated: Seated, token: str) -> int:
    return (await games.command(seated.game_id, token, Leave(), b"")).version


@pytest.mark.parametrize("kind", ["cheat", "thirty_one"])
@pytest.mark.parametrize("leaver", [0, 1, 2])
async def test_a_stream_opened_before_a_seat_moved_shows_its_own_players_hand_and_no_other(
    kind: str, leaver: int
) -> None:
    w = world()
    s = await table(w.games, kind, "pppp")
    stayers = [seat for seat in range(4) if seat != leaver]
    streams = {seat: Stream(w.games, s, s.token(seat)) for seat in stayers}
    await asyncio.gather(*(st.opened.wait() for st in streams.values()))
    await leave(w.games, s, s.token(leaver))
    version = (await w.games.start(s.game_id, s.host)).version
    for seat, stream in streams.items():
        await stream.reaches(version)
        mine = json.loads((await w.games.view(s.game_id, s.token(seat))).body)["me"]
        assert mine["id"] == s.ids[seat]
        hands = dealt(stream.events)["hands"]
        shown = [i for i, hand in enumerate(hands) if hand is not None]
        assert shown == [mine["seat"]], f"the stream of {s.ids[seat]} shows seats {shown}"
        assert sorted(hands[mine["seat"]]) == sorted(mine["hand"])
    for stream in streams.values():
        await stream.close()


@pytest.mark.parametrize("leaver", [0, 1, 2])
async def test_the_stream_of_a_player_who_leaves_before_the_start_ends_and_sees_no_deal(
    leaver: int,
) -> None:
    w = world()
    s = await table(w.games, "cheat", "ppp")
    gone = Stream(w.games, s, s.token(leaver))
    await gone.opened.wait()
    await leave(w.games, s, s.token(leaver))
    await asyncio.wait_for(gone.task, WAIT_S)
    assert isinstance(gone.ended, Unauthorized)
    await w.games.start(s.game_id, s.host)
    assert not [e for e in gone.events if e.type.endswith("round_dealt")]
    with pytest.raises(Unauthorized):
        await w.games.stream(s.game_id, s.token(leaver), 0)


async def test_a_stream_on_another_process_ends_when_its_player_leaves_through_this_one() -> None:
    w = world()
    other = w.process()
    s = await table(w.games, "thirty_one", "ppp")
    gone = Stream(other, s, s.token(1))
    await gone.opened.wait()
    await gone.reaches(s_version := (await view(w.games, s))["version"])
    await leave(w.games, s, s.token(1))
    await asyncio.wait_for(gone.task, WAIT_S)
    assert isinstance(gone.ended, Unauthorized)
    assert all(e.version <= s_version + 1 for e in gone.events)


async def test_a_long_poll_open_across_its_players_leave_answers_401() -> None:
    w = world()
    s = await table(w.games, "cheat", "ppp")
    version = (await view(w.games, s))["version"]
    poll = asyncio.create_task(w.games.events(s.game_id, s.token(0), version, WAIT_S))
    await asyncio.sleep(0)
    await leave(w.games, s, s.token(0))
    with pytest.raises(Unauthorized):
        await asyncio.wait_for(poll, WAIT_S)


async def test_a_long_poll_after_a_seat_moved_is_redacted_for_its_player_now() -> None:
    w = world()
    other = w.process()
    s = await table(w.games, "cheat", "ppp")
    await leave(w.games, s, s.token(0))
    version = (await view(w.games, s))["version"]
    # seat 2's player is at seat 1 now; its long-poll waits on the other process for the deal
    poll = asyncio.create_task(other.events(s.game_id, s.token(2), version, WAIT_S))
    await asyncio.sleep(0)
    await w.games.start(s.game_id, s.host)
    page = json.loads(await asyncio.wait_for(poll, WAIT_S))
    deal = next(e["data"] for e in page["events"] if e["type"] == "cheat.round_dealt")
    mine = json.loads((await w.games.view(s.game_id, s.token(2))).body)["me"]
    assert mine["seat"] == 1
    assert [i for i, hand in enumerate(deal["hands"]) if hand] == [1]
    assert sorted(deal["hands"][1]) == sorted(mine["hand"])


async def test_a_command_decided_again_after_a_lost_race_is_decided_for_its_players_seat_now() -> (
    None
):
    """A process whose fold is behind decides for the seat it knew; the append loses to the
    leave another process made, and the move is decided again on the fresher fold — for the
    seat the mover's player holds there, not the index it held before."""
    w = world()
    other, behind = w.process(), deaf(w)
    s = await table(behind, "cheat", "pppp")
    await leave(other, s, s.token(0))  # the fold `behind` holds still has four seats
    answer = json.loads((await behind.command(s.game_id, s.token(2), Leave(), b"")).body)
    players = (await view(w.games, s))["players"]
    assert [p["id"] for p in players] == [s.ids[1], s.ids[3]]
    assert answer["game"]["me"] is None, "the mover left: its answer is a spectator's view"
    assert [e["data"]["player_id"] for e in answer["events"]] == [s.ids[2]]


async def test_a_move_sent_to_a_process_whose_fold_is_behind_is_played_for_its_player() -> None:
    """This process still holds the table before a player left and the start (both made on
    another process): the move is refused on the stale fold, decided again on a fresh one, and
    played from the hand of the mover's player, wherever its seat moved."""
    w = world()
    other, behind = w.process(), deaf(w)
    s = await table(behind, "cheat", "ppp")
    await leave(other, s, s.token(0))
    await other.start(s.game_id, s.host)
    turn = json.loads((await other.view(s.game_id, None)).body)["turn"]
    mover = 1 + turn  # the seats after the leaver's moved down one
    me = json.loads((await other.view(s.game_id, s.token(mover))).body)["me"]
    assert (me["id"], me["seat"]) == (s.ids[mover], turn)
    card = me["hand"][0]
    answer = json.loads(
        (await behind.command(s.game_id, s.token(mover), Play(cards=[card]), b"")).body
    )
    assert answer["game"]["me"]["id"] == s.ids[mover]
    assert answer["game"]["me"]["seat"] == turn
    assert card not in answer["game"]["me"]["hand"]
    [played] = [e for e in answer["events"] if e["type"] == "cheat.cards_played"]
    assert played["data"]["seat"] == turn and played["data"]["cards"] == [card]
