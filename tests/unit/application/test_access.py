"""Who may change a table, and the refusal each other token gets, in the order they are checked
(application/access.py): a token of another table is 401; the host token that plays, or a
player's that starts, 403; a command of another game 422, before the seat is looked at; a
player who left before the start, 401 for a command of its game."""

from __future__ import annotations

import json

import pytest

from kronikas.adapters.memory import MemoryChangeFeed, MemoryStores
from kronikas.adapters.randomness import for_table
from kronikas.application.errors import Forbidden, InvalidRequest, Unauthorized
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules.cheat import CheatOptions, Play
from kronikas_rules.seating import Leave
from kronikas_rules.thirty_one import Pass
from tests.apps import ENGINES

SETTINGS = Settings(rate_per_s=100_000, rate_burst=100_000)


@pytest.fixture
def games() -> Games:
    feed = MemoryChangeFeed()
    return Games(MemoryStores(feeds=[feed]), feed, for_table, SETTINGS, ENGINES)


async def open_table(games: Games, players: int) -> tuple[str, str, list[str]]:
    """A Cheat table with `players` seated, not started: its id, host token, player tokens."""
    created = json.loads(await games.create("cheat", CheatOptions(), seed=3))
    game_id = created["game"]["id"]
    tokens = [json.loads(await games.join(game_id, f"P{i}"))["token"] for i in range(players)]
    return game_id, created["host_token"], tokens


async def test_only_the_host_token_starts_a_table_or_seats_the_house(games: Games) -> None:
    game_id, _, tokens = await open_table(games, 2)
    with pytest.raises(Forbidden, match="Only the host token may start the table"):
        await games.start(game_id, tokens[0])
    with pytest.raises(Forbidden, match="Only the host token may seat a house player"):
        await games.seat_house(game_id, tokens[0], "Robot")


async def test_the_host_token_cannot_play_and_a_stranger_is_not_known(games: Games) -> None:
    game_id, host, _ = await open_table(games, 2)
    other_id, _, strangers = await open_table(games, 1)
    with pytest.raises(Forbidden, match="host token cannot play"):
        await games.command(game_id, host, Leave(), b"")
    with pytest.raises(Unauthorized, match="not one of this table's"):
        await games.command(game_id, strangers[0], Leave(), b"")
    with pytest.raises(Unauthorized, match="not one of this table's"):
        await games.start(other_id, host)


async def test_a_command_of_another_game_is_refused_before_the_seat_is_looked_at(
    games: Games,
) -> None:
    game_id, host, tokens = await open_table(games, 3)
    await games.command(game_id, tokens[1], Leave(), b"")
    # the player who left: its own game's command finds no seat; another game's is malformed
    with pytest.raises(InvalidRequest, match="'pass' command is not a command of cheat"):
        await games.command(game_id, tokens[1], Pass(), b"")
    with pytest.raises(Unauthorized, match="left the table before it started"):
        await games.command(game_id, tokens[1], Play(cards=[]), b"")
    # the players who stayed still play, from the seats they moved to
    await games.start(game_id, host)
    view = json.loads((await games.view(game_id, tokens[2])).body)
    assert view["me"]["seat"] == 1
