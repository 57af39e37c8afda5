"""The worked example live: the searching Cheat bot plays a real table through the rules' live
adapter (`kronikas_bots.cheat.live`), the same policy the offline figures measure."""

from __future__ import annotations

import random

from kronikas_bots.cheat.live import search_bot
from kronikas_bots.table import Table

from tests.conftest import ServiceProcess


def test_the_search_bot_plays_a_live_table_against_the_house(service: ServiceProcess) -> None:
    bot = search_bot(random.Random(7))
    table = Table.create(
        service.url,
        "cheat",
        [bot, None],  # None: a house player, which the service plays
        # The house waits for nobody's call: the bot answers each play when the driver asks.
        options={"house_pause_seconds": 0, "max_plays": 60},
        seed=7,
        rng=random.Random(7),
    )
    view = table.play()
    assert view.status == "finished" and view.winners
    assert bot.policy.search.decisions > 0  # type: ignore[attr-defined]
