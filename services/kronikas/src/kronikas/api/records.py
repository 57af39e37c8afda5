"""A table's record and its past views (docs/api.md, Records). Thin controllers."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, get
from litestar.params import QueryParameter

from kronikas.api.client import client_address
from kronikas.api.problems import problems
from kronikas.api.routes import JSON, PRIVATE, After, GameId, bearer
from kronikas.api.shapes import GameRecord, PastViews
from kronikas.application.games import Games
from kronikas.application.wire import EVENT_PAGE, VIEWS_DEFAULT, VIEWS_PAGE

Asking = Request[Any, Any, Any]


def _asked(request: Asking) -> tuple[Games, str | None, str]:
    """The use cases, the asker's token (if any) and the client's address."""
    games: Games = request.app.state.games
    return games, bearer(request), client_address(request.scope, games.settings)


def _private(body: bytes) -> Response[Any]:
    """An answer that may hold a seat's cards: no cache keeps it (`routes.PRIVATE`)."""
    return Response(body, media_type=JSON, headers=PRIVATE)


TEXT = "text/plain"
"""The record in words: Litestar adds `; charset=utf-8`."""


def _varied(body: bytes | str, media_type: str) -> Response[Any]:
    """A record's answer: kept by no cache (`routes.PRIVATE`), and told apart by `Accept`."""
    return Response(body, media_type=media_type, headers={**PRIVATE, "Vary": "Accept"})


READS = problems(401, 404, 422, 429, 503)
"""What a read of a table may be refused with."""
EventsLimit = Annotated[int, QueryParameter(ge=1, le=EVENT_PAGE, description="Events per page.")]
Since = Annotated[
    int, QueryParameter(ge=0, le=2**31, description="Only views at a greater version.")
]
Views = Annotated[int, QueryParameter(ge=1, le=VIEWS_PAGE, description="Views per page.")]


class RecordsController(Controller):
    path = "/v1"
    tags = ["games"]

    @get("/games/{game_id:str}/record", operation_id="get_record", responses=READS)
    async def get_record(
        self, request: Asking, game_id: GameId, after: After = 0, limit: EventsLimit = EVENT_PAGE
    ) -> Response[GameRecord]:  # or the same page in words: `Response[str]`
        """A table's record as the asker may see it, finished or not, a page at a time: the
        table (kind, options, players), its events as `list_events` gives them to the asker,
        and every opening those events hold. Paid as a page of events.

        The token is optional (`Authorization: Bearer <token>`): without one, a spectator's
        record. Page on with `after` set to the last event's version while `more` is true.

        With `Accept: text/plain`, the same page as an account in words (`text/plain;
        charset=utf-8`), for people and LLM agents: the table and the asker's seat, then round
        by round each deal, play, call, swap, show and result, with the asker's own cards where
        its events show them; its last line says where to page on when more events follow.
        """
        games, token, client = _asked(request)
        if request.accept.best_match([JSON, TEXT], default=JSON) == TEXT:
            told = await games.account(game_id, token, after, limit, client)
            return _varied(told.text, TEXT)
        return _varied(await games.record(game_id, token, after, limit, client), JSON)

    @get("/games/{game_id:str}/views", operation_id="list_views", responses=READS)
    async def list_views(
        self, request: Asking, game_id: GameId, after: Since = 0, limit: Views = VIEWS_DEFAULT
    ) -> Response[PastViews]:
        """The views the asker was served at past versions of the table, one for each version
        after `after`: what replays a match, step by step, as the asker saw it. Paid as one
        view read a view.

        A player token sees its seat's view at each version (a spectator's before it sat
        down), never a card its seat could not see then; without a token (or with the host's),
        a spectator's views. Page on with `after` set to the last view's version while `more`
        is true.
        """
        games, token, client = _asked(request)
        return _private(await games.past_views(game_id, token, after, limit, client))
