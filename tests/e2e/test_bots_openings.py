"""The example bots check every opening their seats receive from the real service, over HTTP and
over the seat socket, and find none that fails: each seat proves its own cards and the cards
turned up; with `reveal: "match_end"` every seat proves every card of every deal."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kronikas_bots import over_socket
from kronikas_bots.cheat import GoodCheatBot, RandomCheatBot
from kronikas_bots.table import Table
from kronikas_bots.thirty_one import GoodThirtyOneBot, RandomThirtyOneBot

from tests.conftest import ServiceProcess

HAND = {"cheat": 32 // 3, "thirty_one": 3}
"""The fewest cards a seat of three is dealt in a round, and so proves at least."""


def _bots(game: str, rng: random.Random) -> list[Any]:
    if game == "cheat":
        return [GoodCheatBot(rng), RandomCheatBot(rng), RandomCheatBot(rng)]
    return [GoodThirtyOneBot(rng), RandomThirtyOneBot(rng), RandomThirtyOneBot(rng)]


OPTIONS = {"cheat": {"rounds": 2, "house_pause_seconds": 0}, "thirty_one": {"lives": 1}}


@pytest.mark.parametrize("transport", ["http", "socket"])
@pytest.mark.parametrize("game", ["cheat", "thirty_one"])
def test_every_seat_proves_the_cards_it_is_shown_and_finds_no_problem(
    service: ServiceProcess, capsys: pytest.CaptureFixture[str], game: str, transport: str
) -> None:
    rng = random.Random(41)
    table = Table.create(service.url, game, _bots(game, rng), OPTIONS[game], 41, rng)
    rounds = 0

    def count(events: list[Any], _: Any) -> None:
        nonlocal rounds
        rounds += sum(e.type_.endswith(".round_dealt") for e in events)

    if transport == "socket":
        over_socket.play(table, count)
    else:
        table.play(count)
    assert rounds >= 1
    for seat in table.seats:
        assert seat.check.problems == [], seat.check.who
        assert seat.check.openings.proven >= HAND[game] * rounds, seat.check.who
    assert "does not check" not in capsys.readouterr().err


@pytest.mark.parametrize("game", ["cheat", "thirty_one"])
def test_with_reveal_at_the_match_end_every_seat_proves_every_card(
    service: ServiceProcess, game: str
) -> None:
    rng = random.Random(42)
    options = OPTIONS[game] | {"reveal": "match_end"}
    table = Table.create(service.url, game, _bots(game, rng), options, 42, rng)
    sizes: list[int] = []

    def deals(events: list[Any], _: Any) -> None:
        sizes.extend(e.data.deck_size for e in events if e.type_.endswith(".round_dealt"))

    table.play(deals)
    assert sizes
    for seat in table.seats:
        assert seat.check.problems == [], seat.check.who
        assert seat.check.openings.proven == sum(sizes), seat.check.who
