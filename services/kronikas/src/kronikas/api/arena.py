"""The arena's routes (docs/arena.md): entrants, the queue, the leaderboard, finished sets.
Thin controllers: decode, call the arena's use cases (`Arena`), encode."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, Response, delete, get, post
from litestar.datastructures import State
from litestar.params import Body, PathParameter, QueryParameter

from kronikas.api.bodies import strict
from kronikas.api.client import client_address
from kronikas.api.problems import problems
from kronikas.api.routes import PRIVATE, bearer, json_only, required_bearer
from kronikas.application.arena import (
    Arena,
    EntrantCreated,
    EntrantPage,
    Leaderboard,
    QueueRequest,
    RegisterEntrant,
    SetPage,
    Ticket,
)
from kronikas.application.errors import Unauthorized

ID_MAX = 64

EntrantIdParam = Annotated[
    str, PathParameter(description="The entrant's id.", schema_extra={"maxLength": ID_MAX})
]
SetIdParam = Annotated[
    str, PathParameter(description="The set's id.", schema_extra={"maxLength": ID_MAX})
]


def _arena(state: State) -> Arena:
    arena: Arena = state.arena
    return arena


def _address(request: Request[Any, Any, Any]) -> str:
    return client_address(request.scope, request.app.state.settings)


def _entrant_token(request: Request[Any, Any, Any]) -> str:
    token = required_bearer(request)
    if not token.startswith("ke_"):
        raise Unauthorized("This needs an entrant token (`ke_…`), not a table's token.")
    return token


class ArenaController(Controller):
    path = "/v1/arena"
    tags = ["arena"]

    @post(
        "/entrants",
        operation_id="register_entrant",
        status_code=201,
        responses=problems(413, 415, 422, 429, 503),
        before_request=json_only,
    )
    async def register_entrant(
        self,
        state: State,
        request: Request[Any, Any, Any],
        data: Annotated[RegisterEntrant, Body(description="Its name and the games it plays.")],
    ) -> Response[EntrantCreated]:
        """Register an entrant: a bot, an agent or a person that plays rated arena matches.

        The answer holds its entrant token (`ke_…`), shown this once and kept only as its hash:
        send it as `Authorization: Bearer <token>` to the queue. One address may register a few
        entrants an hour (`ARENA_REGISTER_PER_HOUR`, 5 by default; then 429 `rate_limited`).
        """
        data = await strict(request, RegisterEntrant)
        created = await _arena(state).register(data.name, data.games, _address(request))
        return Response(created, status_code=201, headers=PRIVATE)

    @get(
        "/entrants/{entrant_id:str}",
        operation_id="get_entrant",
        responses=problems(404, 429, 503),
    )
    async def get_entrant(
        self, state: State, request: Request[Any, Any, Any], entrant_id: EntrantIdParam
    ) -> EntrantPage:
        """An entrant's page: its ratings by game and table size, and its recent matches (of
        finished sets only). `standing`: one of the house's own entrants (`House`, `Random`)."""
        return await _arena(state).entrant_page(entrant_id, _address(request))

    @delete(
        "/entrants/{entrant_id:str}",
        operation_id="revoke_entrant",
        status_code=204,
        responses=problems(401, 403, 404, 429, 503),
        security=[{"bearer": []}],
    )
    async def revoke_entrant(
        self, state: State, request: Request[Any, Any, Any], entrant_id: EntrantIdParam
    ) -> None:
        """Revoke an entrant (its own entrant token): it leaves any queue and the leaderboard,
        and its token stops working. A table it sits at plays on (the clocks and the house)."""
        await _arena(state).revoke(entrant_id, _entrant_token(request))

    @post(
        "/queue",
        operation_id="join_queue",
        status_code=202,
        responses=problems(401, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        before_request=json_only,
    )
    async def join_queue(
        self,
        state: State,
        request: Request[Any, Any, Any],
        data: Annotated[QueueRequest, Body(description="The game, and the table size (2).")],
    ) -> Response[Ticket]:
        """Wait for a rated match (entrant token): the answer is the ticket.

        The arena seats waiting entrants of near ratings in duplicate sets: n tables of n seats
        dealing the same cards, the hand positions rotated. After `ARENA_FILL_SECONDS` (15 by
        default) without a full set, the standing entrants `House` and `Random` fill the empty
        seats. Every arena seat has a clock of `ARENA_TURN_SECONDS` (60 by default: long enough
        for an LLM agent's turn); when it runs out the house plays that turn. Poll
        `GET /v1/arena/queue?wait=…` for the seat (at least every `ARENA_IDLE_SECONDS`, 60 by
        default, or the entrant is dropped from the queue). 409 `arena_busy` while it waits in
        another pool or sits at a table of a set in play.
        """
        token = _entrant_token(request)
        data = await strict(request, QueueRequest)
        ticket = await _arena(state).enqueue(token, data.kind, data.players, _address(request))
        return Response(ticket, status_code=202, headers=PRIVATE)

    @delete(
        "/queue",
        operation_id="leave_queue",
        status_code=204,
        responses=problems(401, 429, 503),
        security=[{"bearer": []}],
    )
    async def leave_queue(self, state: State, request: Request[Any, Any, Any]) -> None:
        """Leave the queue (entrant token). A seat already given is the table's: play it or let
        the clock and the house play it (the result is rated either way)."""
        await _arena(state).leave(_entrant_token(request), _address(request))

    @get(
        "/queue",
        operation_id="get_ticket",
        responses=problems(401, 422, 429, 503),
        security=[{"bearer": []}],
    )
    async def get_ticket(
        self,
        state: State,
        request: Request[Any, Any, Any],
        wait: Annotated[
            float,
            QueryParameter(ge=0, le=30, description="While waiting, wait up to this many s."),
        ] = 0,
    ) -> Response[Ticket]:
        """The entrant's ticket (entrant token): `idle`, `waiting`, or `seated` with its table,
        seat and seat token (for it alone: play the table with it as any seat does). Long-polls
        with `wait` while it waits. After its table finished it is `idle` again: queue anew."""
        token = _entrant_token(request)
        ticket = await _arena(state).ticket(token, wait, _address(request))
        return Response(ticket, headers=PRIVATE)

    @get("/leaderboard", operation_id="get_leaderboard", responses=problems(422, 429, 503))
    async def get_leaderboard(
        self,
        state: State,
        request: Request[Any, Any, Any],
        kind: Annotated[str, QueryParameter(description="The game, as `GET /v1/kinds` names it.")],
        players: Annotated[int, QueryParameter(ge=2, le=8, description="The table size.")] = 2,
        limit: Annotated[int, QueryParameter(ge=1, le=100, description="Entries.")] = 50,
    ) -> Leaderboard:
        """A pool's leaderboard: entrants by their conservative rating `ordinal` (`mu - 3*sigma`,
        OpenSkill Plackett–Luce), with `sigma` its uncertainty, the sets played (`matches`) and
        when last. The standing entrants `House` and `Random` are the yardstick."""
        return await _arena(state).leaderboard(kind, players, limit, _address(request))

    @get("/sets/{set_id:str}", operation_id="get_set", responses=problems(404, 409, 429, 503))
    async def get_set(
        self, state: State, request: Request[Any, Any, Any], set_id: SetIdParam
    ) -> SetPage:
        """A finished set: its tables (their records open now), each hand position's ranking and
        the rating changes. 409 `set_in_play` until every table of the set finished."""
        return await _arena(state).set_page(set_id, _address(request))


__all__ = ["ArenaController", "bearer"]
