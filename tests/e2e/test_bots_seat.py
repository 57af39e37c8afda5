"""The bots play one seat given only its token (`table.play_seat`), as the arena hands one out:
the other seats are someone else's (here the house's), and the bot plays its own to the end."""

from __future__ import annotations

import random
from typing import Any

import pytest
from kronikas_bots.table import ApiError, Table, make_bot, play_seat
from kronikas_client import AuthenticatedClient

from tests.conftest import ServiceProcess


@pytest.mark.parametrize(("game", "options"), [("cheat", {}), ("thirty_one", {"lives": 1})])
def test_a_seat_token_alone_plays_a_table_to_its_end(
    service: ServiceProcess, game: str, options: dict[str, Any]
) -> None:
    rng = random.Random(7)
    # Seated by the bots' runner, which is not asked to play: play_seat gets the token alone.
    table = Table.create(service.url, game, [None, make_bot(game, "random", rng)], options, 7, rng)
    client = table.seats[0].client
    assert isinstance(client, AuthenticatedClient)
    versions: list[int] = []

    view = play_seat(
        service.url,
        table.game_id,
        client.token,
        on_events=lambda events, _: versions.extend(e.version for e in events),
    )

    assert view.status == "finished" and view.winners
    assert view.me is not None and view.me.seat == 1
    assert versions == sorted(versions) and versions[-1] == view.version


def test_a_token_without_a_seat_is_refused(service: ServiceProcess) -> None:
    rng = random.Random(9)
    table = Table.create(service.url, "cheat", [None, None], {}, 9, rng)
    with pytest.raises(ApiError, match="unauthorized"):
        play_seat(service.url, table.game_id, "seat_not-a-token-of-this-table")
