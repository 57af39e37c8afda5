"""The SDK's seat-socket helper against the real service process: a game of each kind played by
the example bots over their sockets, a socket killed mid-game that resumes without a gap or a
repeat, and the answers a command gets (its result, a refusal, a replay by id)."""

from __future__ import annotations

import asyncio
import random

import pytest
from kronikas_bots import over_socket
from kronikas_bots.__main__ import main as run_bots
from kronikas_bots.cheat import GoodCheatBot, RandomCheatBot
from kronikas_bots.table import Table
from kronikas_bots.thirty_one import GoodThirtyOneBot, RandomThirtyOneBot
from kronikas_client import AuthenticatedClient
from kronikas_client.api.games import list_events
from kronikas_client.events import GameEvent
from kronikas_client.models import (
    CheatGameView,
    CreateCheatGame,
    EventPage,
    Play,
    ThirtyOneGameView,
)
from kronikas_client.socket import CommandRefused, SocketClosed, connect_seat

from tests.conftest import ServiceProcess
from tests.e2e.test_sdk_games import seated


def all_versions(url: str, game_id: str, token: str) -> list[int]:
    """Every version of the table as a seat reads it over HTTP, page by page."""
    client = AuthenticatedClient(base_url=url, token=token)
    out: list[int] = []
    while True:
        page = list_events.sync(game_id, client=client, after=out[-1] if out else 0)
        assert isinstance(page, EventPage), page
        out += [event.version for event in page.events]
        if not page.more:
            return out


def test_a_cheat_match_of_bots_over_their_sockets_plays_to_the_end(
    service: ServiceProcess,
) -> None:
    rng = random.Random(1)
    bots = [GoodCheatBot(rng), RandomCheatBot(rng), RandomCheatBot(rng)]
    table = Table.create(service.url, "cheat", bots, {"rounds": 2, "chroniclers": True}, 11, rng)
    seen: list[int] = []
    view = over_socket.play(table, lambda events, _: seen.extend(e.version for e in events))
    assert isinstance(view, CheatGameView)
    assert view.status.value == "finished" and view.winners and view.last_round is not None
    # The first seat's socket gave it every version of the match once, in order.
    token = table.seats[0].client
    assert isinstance(token, AuthenticatedClient)
    assert seen == all_versions(service.url, table.game_id, token.token)
    assert seen == list(range(1, view.version + 1))


def test_a_thirty_one_match_of_bots_over_their_sockets_plays_to_the_end(
    service: ServiceProcess,
) -> None:
    rng = random.Random(2)
    bots = [GoodThirtyOneBot(rng), RandomThirtyOneBot(rng), RandomThirtyOneBot(rng)]
    table = Table.create(service.url, "thirty_one", bots, {"lives": 1, "chronicler": True}, 7, rng)
    view = over_socket.play(table)
    assert isinstance(view, ThirtyOneGameView)
    assert view.status.value == "finished" and len(view.winners) == 1
    assert [p.out for p in view.players].count(False) == 1


async def test_a_socket_killed_mid_game_resumes_without_a_gap_or_a_repeat(
    service: ServiceProcess,
) -> None:
    rng = random.Random(3)
    bots = [GoodCheatBot(rng), RandomCheatBot(rng)]
    table = Table.create(service.url, "cheat", bots, {"rounds": 2}, 13, rng)
    sockets = [
        connect_seat(seat.client, table.game_id, views=True, retry_delay=0.05)
        for seat in table.seats
    ]
    seen: list[int] = []
    kills: list[int] = []

    async def lose_the_socket() -> None:
        """Drop seat 1's connection without a close frame, as a network would, twice."""
        for target in (6, 20):
            while not sockets[1].final:
                connection = sockets[1].connection
                if sockets[1].version >= target and connection is not None:
                    connection.transport.abort()
                    kills.append(sockets[1].version)
                    break
                await asyncio.sleep(0.005)

    def record(events: list[GameEvent], view: object) -> None:
        seen.extend(event.version for event in events)

    final, _, _ = await asyncio.gather(
        over_socket.follow(table.seats[1], sockets[1], record),
        over_socket.follow(table.seats[0], sockets[0]),
        lose_the_socket(),
    )
    assert final.status == "finished" and len(kills) == 2
    assert sockets[1].reconnects == 2
    token = table.seats[1].client
    assert isinstance(token, AuthenticatedClient)
    assert seen == list(range(1, final.version + 1))
    assert seen == all_versions(service.url, table.game_id, token.token)


async def test_a_command_is_answered_by_id_and_a_stale_one_is_refused(
    service: ServiceProcess,
) -> None:
    game_id, seats = seated(service.url, CreateCheatGame(seed=6), 2)
    async with (
        asyncio.timeout(60),
        connect_seat(seats[0], game_id, views=True) as first,
        connect_seat(seats[1], game_id, views=True) as second,
    ):
        views = [await anext(first.updates()), await anext(second.updates())]
        turn = views[0].view.turn if views[0].view else None
        assert turn is not None
        mover = (first, second)[turn]
        view = views[turn].view
        assert isinstance(view, CheatGameView) and view.me is not None
        with pytest.raises(CommandRefused) as stale:
            await mover.command(Play(cards=view.me.hand[:1]), if_match=view.version - 1)
        assert (stale.value.status, stale.value.code) == (412, "version_mismatch")
        move = Play(cards=view.me.hand[:1])
        done = await mover.command(move, id="socket-move-1", if_match=view.version)
        again = await mover.command(move, id="socket-move-1", if_match=view.version)
        assert done.version == view.version + 1 and again.to_dict() == done.to_dict()
        with pytest.raises(CommandRefused) as own_play:  # calling one's own play
            await mover.command({"type": "call"}, id="socket-move-2")
        assert (own_play.value.status, own_play.value.code) == (409, "illegal_move")
    with pytest.raises(SocketClosed) as unknown:
        await connect_seat(service.url, game_id, token="not-a-token").open()
    assert unknown.value.code == 4401


def test_the_runner_plays_over_the_socket(
    service: ServiceProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--url", service.url, "--game", "cheat", "--bots", "good,random", "--seed", "3"]
    assert run_bots([*argv, "--transport", "socket", "--options", '{"rounds": 1}']) == 0
    out = capsys.readouterr().out
    assert "round 1:" in out and "won by" in out
