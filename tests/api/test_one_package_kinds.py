"""`GET /v1/kinds` lists the seats each engine declares (`Engine.seats`), as it did when it
guessed them from the options: Cheat 2 to 8 (two decks), Thirty-One 2 to 9."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.apps import ENGINES

Client = AsyncTestClient[Litestar]


async def test_kinds_list_the_seats_each_engine_declares(client: Client) -> None:
    r = await client.get("/v1/kinds")
    assert r.status_code == 200
    listed = {k["kind"]: (k["min_players"], k["max_players"]) for k in r.json()["kinds"]}
    assert listed == {"cheat": (2, 8), "thirty_one": (2, 9)}
    assert listed == {kind: tuple(game.seats) for kind, game in ENGINES.items()}
