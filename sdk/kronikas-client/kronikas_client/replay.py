"""Replay a table as one viewer saw it: version by version, the view it was served then.

Hand-written, here in the generated package: `make sdk` carries it over each regeneration
(tools/gen_sdk.py, HAND_WRITTEN). It uses only the SDK's own httpx client:

    from kronikas_client import Client
    from kronikas_client.replay import replay

    with Client(base_url=url) as client:
        for version, view in replay(client, game_id, token=token):
            print(version, view.status, view.me.hand if view.me else None)

It reads `GET /v1/games/{id}/views` a page at a time (`list_views`): the service makes each
view as it served it live, from the table as it was at that version, so no client folds the
rules. A seat's token replays that seat — its hand as it was at each version, and never a card
it could not see then (a spectator's view before it sat down); no token, or the host's, replays
a spectator's. The table may be finished or not: the replay ends at the version it was read at.
Each view is the class its `kind` names (`kronikas_client.events.GameView`). A 429 or 503 is
waited out as its `Retry-After` says; any other refusal raises `ReplayError`.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import quote

import httpx

from .client import AuthenticatedClient, Client
from .events import GameView
from .models.past_views import PastViews
from .models.problem import Problem

__all__ = ["PAGE", "ReplayError", "areplay", "replay"]

PAGE = 50
"""The most views the service gives a page (`list_views`' `limit`)."""
RETRY_STATUSES = frozenset({429, 503})
"""Statuses worth another try after the server's `Retry-After` (nothing was changed)."""
MAX_WAIT_S = 30.0
"""The longest single wait before another try."""


class ReplayError(Exception):
    """The server refused the replay (401, 404, 422, …): `problem` says why."""

    def __init__(self, status: int, problem: Problem | None, body: str = "") -> None:
        self.status = status
        self.problem = problem
        what = f"{problem.code}: {problem.detail}" if problem else body[:200]
        super().__init__(f"replay refused with {status} ({what})")


def _request(game_id: str, token: str | None, after: int, page: int) -> dict[str, Any]:
    """The `get` arguments of one page of past views after `after`."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return {
        "url": f"/v1/games/{quote(game_id, safe='')}/views",
        "params": {"after": after, "limit": page},
        "headers": headers,
    }


def _page(response: httpx.Response) -> PastViews | float:
    """The page a response carries, or how long to wait before asking again (429, 503)."""
    if response.status_code == 200:
        return PastViews.from_dict(response.json())
    if response.status_code in RETRY_STATUSES:
        try:
            return min(MAX_WAIT_S, max(0.0, float(response.headers.get("Retry-After", "1"))))
        except ValueError:
            return 1.0
    try:
        problem: Problem | None = Problem.from_dict(response.json())
    except (ValueError, KeyError, TypeError):
        problem = None
    raise ReplayError(response.status_code, problem, response.text)


def replay(
    client: Client | AuthenticatedClient,
    game_id: str,
    token: str | None = None,
    *,
    after: int = 0,
    page: int = PAGE,
) -> Iterator[tuple[int, GameView]]:
    """Each version after `after` and the view `token`'s holder was served at it, in order
    (`token` None: the client's own token, if it has one; else a spectator's)."""
    http = client.get_httpx_client()
    while True:
        got = _page(http.get(**_request(game_id, token, after, page)))
        if isinstance(got, float):
            time.sleep(got)
            continue
        for view in got.views:
            yield view.version, view
            after = view.version
        if not got.more or not got.views:
            return


async def areplay(
    client: Client | AuthenticatedClient,
    game_id: str,
    token: str | None = None,
    *,
    after: int = 0,
    page: int = PAGE,
) -> AsyncIterator[tuple[int, GameView]]:
    """`replay` for asyncio, over the client's async httpx client."""
    http = client.get_async_httpx_client()
    while True:
        got = _page(await http.get(**_request(game_id, token, after, page)))
        if isinstance(got, float):
            await asyncio.sleep(got)
            continue
        for view in got.views:
            yield view.version, view
            after = view.version
        if not got.more or not got.views:
            return
