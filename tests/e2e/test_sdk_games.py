"""The real service process, driven through the generated SDK and the example bots alone."""

from __future__ import annotations

import random
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from kronikas_bots import sample
from kronikas_bots.__main__ import main as run_bots
from kronikas_bots.cheat import GoodCheatBot, RandomCheatBot
from kronikas_bots.table import ApiError, Table
from kronikas_bots.thirty_one import GoodThirtyOneBot, RandomThirtyOneBot
from kronikas_client import AuthenticatedClient, Client
from kronikas_client.api.games import create_game, get_game, join_game, send_command, start_game
from kronikas_client.models import (
    Accept,
    CheatGameView,
    CommandResult,
    CreateCheatGame,
    Created,
    CreateThirtyOneGame,
    Joined,
    JoinRequest,
    Keep,
    Pass,
    Play,
    Problem,
    Swap,
    ThirtyOneGameView,
    ThirtyOneOptions,
)

from tests.conftest import ServiceProcess

ROOT = Path(__file__).resolve().parents[2]


def seated(
    url: str, body: CreateCheatGame | CreateThirtyOneGame, players: int
) -> tuple[str, list[AuthenticatedClient]]:
    """A started table and one authenticated client per seat, all through the SDK."""
    anyone = Client(base_url=url)
    created = create_game.sync(client=anyone, body=body)
    assert isinstance(created, Created), created
    game_id = created.game.id
    seats = []
    for i in range(players):
        joined = join_game.sync(game_id, client=anyone, body=JoinRequest(name=f"P{i}"))
        assert isinstance(joined, Joined), joined
        seats.append(AuthenticatedClient(base_url=url, token=joined.token))
    host = AuthenticatedClient(base_url=url, token=created.host_token)
    assert isinstance(start_game.sync(game_id, client=host), CheatGameView | ThirtyOneGameView)
    return game_id, seats


def view_of(game_id: str, client: AuthenticatedClient) -> CheatGameView | ThirtyOneGameView:
    view = get_game.sync(game_id, client=client)
    assert isinstance(view, CheatGameView | ThirtyOneGameView), view
    return view


def test_a_cheat_match_of_good_and_random_bots_plays_to_the_end(service: ServiceProcess) -> None:
    rng = random.Random(1)
    bots = [GoodCheatBot(rng), RandomCheatBot(rng), RandomCheatBot(rng)]
    table = Table.create(service.url, "cheat", bots, {"rounds": 2, "chroniclers": True}, 11, rng)
    rounds: list[str] = []
    view = table.play(lambda events, _: rounds.extend(e.type_ for e in events))
    rounds = [t for t in rounds if t == "cheat.round_ended"]
    assert view.status.value == "finished" and view.winners
    assert len(rounds) == 2
    assert isinstance(view, CheatGameView) and view.last_round is not None


def test_a_thirty_one_match_of_good_and_random_bots_plays_to_the_end(
    service: ServiceProcess,
) -> None:
    rng = random.Random(2)
    bots = [GoodThirtyOneBot(rng), RandomThirtyOneBot(rng), RandomThirtyOneBot(rng)]
    table = Table.create(service.url, "thirty_one", bots, {"lives": 1, "chronicler": True}, 7, rng)
    view = table.play()
    assert isinstance(view, ThirtyOneGameView)
    assert view.status.value == "finished" and len(view.winners) == 1
    assert [p.out for p in view.players].count(False) == 1


def test_a_stale_if_match_is_412_and_a_retry_on_the_fresh_view_succeeds(
    service: ServiceProcess,
) -> None:
    game_id, seats = seated(service.url, CreateCheatGame(seed=3), 2)
    turn = view_of(game_id, seats[0]).turn
    assert turn is not None
    mover = seats[turn]
    view = view_of(game_id, mover)
    assert view.me is not None
    stale = f'"{view.version - 1}"'
    refused = send_command.sync(
        game_id, client=mover, body=Play(cards=view.me.hand[:1]), if_match=stale
    )
    assert isinstance(refused, Problem)
    assert (refused.status, refused.code) == (412, "version_mismatch")
    fresh = view_of(game_id, mover)
    assert fresh.version == view.version and fresh.me is not None
    done = send_command.sync(
        game_id, client=mover, body=Play(cards=fresh.me.hand[:1]), if_match=f'"{fresh.version}"'
    )
    assert isinstance(done, CommandResult), done
    assert done.version > fresh.version and done.events[0].type_ == "cheat.cards_played"


def test_a_second_pass_is_a_409_whose_detail_reaches_the_user(service: ServiceProcess) -> None:
    body = CreateThirtyOneGame(seed=4, options=ThirtyOneOptions(lives=3))
    game_id, seats = seated(service.url, body, 2)
    view = view_of(game_id, seats[0])
    assert view.dealer is not None
    dealer, first = seats[view.dealer], seats[1 - view.dealer]
    assert isinstance(send_command.sync(game_id, client=dealer, body=Keep()), CommandResult)
    assert isinstance(send_command.sync(game_id, client=first, body=Pass()), CommandResult)
    dealer_view = view_of(game_id, dealer)
    assert dealer_view.me is not None and isinstance(dealer_view, ThirtyOneGameView)
    assert dealer_view.thirty_one is not None
    give, take = dealer_view.me.hand[0], dealer_view.thirty_one.table[0]
    swapped = send_command.sync(game_id, client=dealer, body=Swap(give=give, take=take))
    assert isinstance(swapped, CommandResult), swapped
    again = send_command.sync(game_id, client=first, body=Pass())
    assert isinstance(again, Problem)
    assert (again.status, again.code) == (409, "illegal_move")
    assert again.detail and "pass" in again.detail.lower()
    # What the runner prints when the service refuses a bot's move:
    assert again.detail in str(ApiError("pass", again))


def test_the_readme_sample_bot_plays_cheat_against_itself(service: ServiceProcess) -> None:
    created = create_game.sync(client=Client(base_url=service.url), body=CreateCheatGame(seed=8))
    assert isinstance(created, Created)
    game_id = created.game.id
    results: list[list[int]] = []
    bots = [
        threading.Thread(target=lambda n=n: results.append(sample.main(service.url, game_id, n)))
        for n in ("one", "two")
    ]
    for bot in bots:
        bot.start()
    host = AuthenticatedClient(base_url=service.url, token=created.host_token)
    for _ in range(200):
        if len(view_of(game_id, host).players) == 2:
            break
        threading.Event().wait(0.02)
    assert isinstance(start_game.sync(game_id, client=host), CheatGameView)
    for bot in bots:
        bot.join(60)
    assert len(results) == 2 and results[0] == results[1] and results[0]


def test_the_runner_plays_many_tables_and_prints_win_rates(
    service: ServiceProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--url", service.url, "--game", "thirty_one", "--bots", "good,random"]
    assert run_bots([*argv, "--games", "3", "--options", '{"lives": 0}', "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "thirty_one: 3 games of good,random" in out
    assert "95% CI" in out and "good" in out and "random" in out
    assert "round 1:" in out


def test_the_runner_starts_its_own_service_when_no_url_is_given() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "kronikas_bots", "--game", "cheat", "--bots", "good,random"],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "started a service" in done.stderr
    assert "round 1:" in done.stdout and "won by" in done.stdout


def test_the_runner_explains_itself() -> None:
    command = [sys.executable, "-m", "kronikas_bots", "--help"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "--games" in done.stdout and "--url" in done.stdout


def test_the_bots_import_nothing_of_the_service() -> None:
    for path in (ROOT / "bots" / "src").rglob("*.py"):
        for line in path.read_text().splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                assert words[1].split(".")[0] != "kronikas", f"{path}: {line}"


def test_reads_during_commands_never_get_a_503(service: ServiceProcess) -> None:
    game_id, seats = seated(service.url, CreateCheatGame(seed=12), 2)
    problems: list[Problem] = []
    stop = threading.Event()

    def reader(client: AuthenticatedClient) -> None:
        while not stop.is_set():
            view = get_game.sync(game_id, client=client)
            if isinstance(view, Problem):
                problems.append(view)

    readers = [
        threading.Thread(target=reader, args=(AuthenticatedClient(service.url, token=s.token),))
        for s in seats * 3
    ]
    for thread in readers:
        thread.start()
    try:
        for _ in range(60):
            view = view_of(game_id, seats[0])
            if view.status.value == "finished" or problems:
                break
            mover = seats[view.turn or 0]
            mine = view_of(game_id, mover)
            assert mine.me is not None
            if mine.legal and "play" in mine.legal:
                send_command.sync(game_id, client=mover, body=Play(cards=mine.me.hand[:1]))
            else:
                send_command.sync(game_id, client=mover, body=Accept())
    finally:
        stop.set()
        for thread in readers:
            thread.join(10)
    assert problems == []
