"""The bots' runner seats house players (`--bots house,…`): the host seats them, the service
plays them, and their wins are tallied like any bot's."""

from __future__ import annotations

import random

import pytest
from kronikas_bots.__main__ import main as run_bots
from kronikas_bots.cheat import RandomCheatBot
from kronikas_bots.table import Table

from tests.conftest import ServiceProcess


@pytest.mark.parametrize(
    ("game", "bots", "options"),
    [("cheat", "house,random", "{}"), ("thirty_one", "good,house", '{"lives": 0}')],
)
def test_the_runner_plays_the_house_and_tallies_its_wins(
    service: ServiceProcess,
    capsys: pytest.CaptureFixture[str],
    game: str,
    bots: str,
    options: str,
) -> None:
    argv = ["--url", service.url, "--game", game, "--bots", bots, "--options", options]
    assert run_bots([*argv, "--games", "2", "--seed", "3", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"{game}: 2 games of {bots}" in out
    assert "game 1/2: won by" in out and "game 2/2: won by" in out
    house = [line for line in out.splitlines() if line.split()[:2] == ["house", "won"]]
    assert len(house) == 1 and "/2" in house[0] and "95% CI" in house[0]


def test_a_house_seat_has_no_bot_and_the_match_still_ends(service: ServiceProcess) -> None:
    rng = random.Random(4)
    table = Table.create(service.url, "cheat", [None, RandomCheatBot(rng)], {}, 4, rng)
    view = table.play()
    assert [seat.seat for seat in table.seats] == [1] and table.house == [0]
    assert view.status.value == "finished" and view.winners
    assert [p.house for p in view.players] == [True, False]
