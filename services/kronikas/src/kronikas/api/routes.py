"""The tables: create, list, join, start, look, move, follow (docs/api.md). Thin controllers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec
from litestar import Controller, Request, Response, get, post
from litestar.datastructures import State
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.params import Body, HeaderParameter, PathParameter, QueryParameter
from litestar.response import Stream

from kronikas.api import inputs
from kronikas.api.bodies import command_headers, read_body, strict
from kronikas.api.client import client_address
from kronikas.api.openapi import InputDocs, parameter
from kronikas.api.problems import problems
from kronikas.api.shapes import (
    ApiWire,
    Command,
    CommandResult,
    Created,
    CreateGame,
    EventPage,
    GameView,
    HouseSeated,
    Joined,
    JoinRequest,
    Kind,
    Kinds,
    Lobby,
)
from kronikas.api.sse import EventStream
from kronikas.application.errors import ApiError, InvalidRequest, NotFound, Unauthorized
from kronikas.application.games import Answer, Games
from kronikas.application.ids import GAME_ID_MAX, no_table
from kronikas.application.wire import utc_text

JSON = "application/json"
MARKDOWN = "text/markdown"
GAME_ID_DOC = "The table's id."
GameId = Annotated[
    str,
    # Documented, not validated by the framework: an id no table can have is 404, however long
    # (docs/api.md, Table ids), never the framework's 422.
    PathParameter(description=GAME_ID_DOC, schema_extra={"maxLength": GAME_ID_MAX}),
]
After = Annotated[
    int, QueryParameter(ge=0, le=2**31, description="Only events with a greater version.")
]


def _wire(request: Request[Any, Any, Any]) -> ApiWire:
    """The wire types of the app's games (`create_app(games=...)`)."""
    wire: ApiWire = request.app.state.wire
    return wire


def _games(state: State) -> Games:
    games: Games = state.games
    return games


def bearer(request: Request[Any, Any, Any]) -> str | None:
    """The token of `Authorization: Bearer <token>`, if any; 401 when it is malformed."""
    return inputs.bearer(request.headers.get("authorization"))


def required_bearer(request: Request[Any, Any, Any]) -> str:
    """The token of `Authorization: Bearer <token>`; 401 when it is missing or malformed."""
    return _required(bearer(request))


def _required(token: str | None) -> str:
    if token is None:
        raise Unauthorized("This needs a token: send `Authorization: Bearer <token>`.")
    return token


def _address(request: Request[Any, Any, Any]) -> str:
    """The client's address, for the limits kept per address (api/client.py)."""
    return client_address(request.scope, _games(request.app.state).settings)


async def _seat_name(state: State, request: Request[Any, Any, Any]) -> str:
    """The name of a seat to take (a join, or a house player), from a caller within its limit,
    in the form the table keeps (`inputs.name`)."""
    data = await strict(request, JoinRequest)
    await _games(state).admit(_address(request))
    return inputs.name(data.name)


async def within_limit(request: Request[Any, Any, Any]) -> None:
    """Before every route that has no check of its own: a body announced over
    `MAX_BODY_BYTES` is 413 there too, as for any body (docs/api.md; the framework checks the
    limit only where a body is read). Nothing is read here: a route may read its body itself."""
    length = inputs.content_length(request.headers.get("content-length"))
    if length is not None and length > _games(request.app.state).settings.max_body_bytes:
        raise RequestEntityTooLarge


async def reads_its_own(request: Request[Any, Any, Any]) -> None:
    """Before `send_command`, in place of `within_limit`: `run_command` reads its own inputs and
    pays for a refused one, a body over the limit too, as when the lane serves it."""


async def read_within_limit(request: Request[Any, Any, Any]) -> None:
    """Before a route that takes no body (`start`): whatever body comes is read here, and 413
    past the limit, announced or not."""
    await request.body()


async def json_only(request: Request[Any, Any, Any]) -> None:
    """Before a route that takes a body decodes it: 415 unless it is sent as JSON."""
    content_type = request.headers.get("content-type")
    inputs.json_body(content_type, content_type is not None or bool(await request.body()))


PRIVATE = {"Cache-Control": "no-store"}
"""On every answer that may hold a seat's hand or a token: no cache keeps it, a shared cache that
ignores `Authorization` least of all (a view's `ETag` is its version, the same for every
viewer)."""


def _raw(body: bytes, status: int = 200, headers: dict[str, str] | None = None) -> Response[Any]:
    return Response(body, status_code=status, media_type=JSON, headers=PRIVATE | (headers or {}))


def _tagged(answer: Answer) -> Response[Any]:
    """A view or command answer, with its version as the entity tag for `If-Match`."""
    return _raw(answer.body, headers={"ETag": f'"{answer.version}"'})


_SSE_HEADERS = {"Cache-Control": "no-cache", "Connection": "keep-alive", "X-Accel-Buffering": "no"}


async def run_command(
    games: Games,
    commands: msgspec.json.Decoder[msgspec.Struct],
    game_id: str,
    scope: Any,
    receive: Any,
) -> Answer:
    """`POST /v1/games/{game_id}/commands` from its ASGI scope and messages: the route's work,
    shared by the route and by the lane that serves it ahead of the framework (api/lane.py).
    `commands` decodes the command union of the app's games (`ApiWire.commands`)."""
    client = client_address(scope, games.settings)
    token: str | None = None
    try:  # a command refused before it reaches the table is paid for too
        if len(game_id) > GAME_ID_MAX:
            raise no_table(game_id)
        authorization, if_match, idempotency_key, length, content_type = command_headers(scope)
        key = inputs.idempotency_key(idempotency_key)
        version = inputs.if_match(if_match)
        token = _required(inputs.bearer(authorization))
        if content_type is not None:
            inputs.json_body(content_type, True)
        limit = games.settings.max_body_bytes
        body = await read_body(receive, inputs.content_length(length), limit)
        inputs.json_body(content_type, bool(body))
        try:
            command = commands.decode(body)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise InvalidRequest(str(exc)) from None
    except (ApiError, RequestEntityTooLarge):
        await games.refused(game_id, token, client)
        raise
    return await games.command(
        game_id,
        token,
        command,
        body,
        if_match=version,
        idempotency_key=key,
        client=client,
    )


class GamesController(Controller):
    path = "/v1"
    tags = ["games"]

    @get("/kinds", operation_id="list_kinds", responses=problems(429))
    async def list_kinds(self, request: Request[Any, Any, Any]) -> Kinds:
        """The game kinds: how many may play, and each option with its type, default and limits."""
        kinds: Kinds = _wire(request).kinds
        return kinds

    @get(
        "/kinds/{kind:str}/rules",
        operation_id="get_rules",
        media_type=MARKDOWN,
        responses=problems(404, 429),
    )
    async def get_rules(
        self,
        request: Request[Any, Any, Any],
        kind: Annotated[
            str, PathParameter(description="The game kind, as `GET /v1/kinds` names it.")
        ],
    ) -> str:
        """A game's rules as the service enforces them, in Markdown: the text MCP serves too."""
        game = _wire(request).engines.get(kind)
        if game is None or game.rules_text is None:
            raise NotFound("There is no game of that kind here, or it ships no rules.")
        return game.rules_text

    @post(
        "/games",
        operation_id="create_game",
        status_code=201,
        responses=problems(413, 415, 422, 429, 503),
        before_request=json_only,
    )
    async def create_game(
        self,
        state: State,
        request: Request[Any, Any, Any],
        data: Annotated[
            CreateGame,
            Body(description="`kind` chooses the game; every option may be left out."),
        ],
    ) -> Response[Created]:
        """Create a table. The answer holds the host token, which alone may start it."""
        wire = _wire(request)
        data = await strict(request, wire.CreateGame)
        await _games(state).admit(_address(request))
        kind = wire.create_kinds[type(data)]
        body = await _games(state).create(kind, data.options, data.seed)
        return _raw(body, 201)

    @get("/games", operation_id="list_games", responses=problems(422, 429, 503))
    async def list_games(
        self,
        state: State,
        request: Request[Any, Any, Any],
        kind: Annotated[Kind | None, QueryParameter(description="Only this game.")] = None,
        status: Annotated[
            Literal["open", "playing", "finished"] | None,
            QueryParameter(description="Only tables in this state."),
        ] = None,
        limit: Annotated[int, QueryParameter(ge=1, le=100, description="Tables per page.")] = 20,
        offset: Annotated[int, QueryParameter(ge=0, le=100_000, description="Tables to skip.")] = 0,
    ) -> Lobby:
        """The lobby: tables, newest first, filtered by kind and status, a page at a time."""
        found, more = await _games(state).lobby(kind, status, offset, limit, _address(request))
        wire = _wire(request)
        entries = [
            wire.LobbyEntry(
                id=s.game_id,
                kind=s.kind,
                status=s.status,
                players=s.players,
                max_players=wire.max_players(s.kind),
                created_at=utc_text(s.created_ms),
                seeded=s.seeded,
            )
            for s in found
            if s.kind in wire.engines  # one Redis may hold tables of a game this app does not run
        ]
        lobby: Lobby = wire.Lobby(games=entries, offset=offset, limit=limit, more=more)
        return lobby

    @post(
        "/games/{game_id:str}/players",
        operation_id="join_game",
        status_code=201,
        responses=problems(404, 409, 413, 415, 422, 429, 503),
        before_request=json_only,
    )
    async def join_game(
        self,
        state: State,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: Annotated[JoinRequest, Body(description="The player's name.")],
    ) -> Response[Joined]:
        """Take the next free seat. The answer holds the player token: keep it secret."""
        name = await _seat_name(state, request)
        return _raw(await _games(state).join(game_id, name), 201)

    @post(
        "/games/{game_id:str}/house-players",
        operation_id="seat_house_player",
        status_code=201,
        responses=problems(401, 403, 404, 409, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        before_request=json_only,
    )
    async def seat_house_player(
        self,
        state: State,
        request: Request[Any, Any, Any],
        game_id: GameId,
        data: Annotated[JoinRequest, Body(description="The house player's name.")],
    ) -> Response[HouseSeated]:
        """Seat a house player on an open table (host token only): the house plays that seat.

        No token is handed out for it, so nobody can read its hand or move for it. It plays at
        once when it is its turn; where the game lets other seats answer a play, it waits the
        game's pause first, while a person may still answer (docs/rules.md).
        """
        token = required_bearer(request)
        name = await _seat_name(state, request)
        return _raw(await _games(state).seat_house(game_id, token, name), 201)

    @post(
        "/games/{game_id:str}/start",
        operation_id="start_game",
        status_code=200,
        responses=problems(401, 403, 404, 409, 413, 422, 429, 503),
        security=[{"bearer": []}],
        before_request=read_within_limit,
    )
    async def start_game(
        self, state: State, request: Request[Any, Any, Any], game_id: GameId
    ) -> Response[GameView]:
        """Deal the first round (host token only; at least two players)."""
        token = required_bearer(request)
        return _tagged(await _games(state).start(game_id, token, _address(request)))

    @get(
        "/games/{game_id:str}",
        operation_id="get_game",
        responses=problems(401, 404, 422, 429, 503),
    )
    async def get_game(
        self, state: State, request: Request[Any, Any, Any], game_id: GameId
    ) -> Response[GameView]:
        """The table as the asker sees it: a player token adds that seat's hand and legal moves.

        The token is optional (`Authorization: Bearer <token>`): without one, a spectator's view.
        """
        return _tagged(await _games(state).view(game_id, bearer(request), _address(request)))

    @post(
        "/games/{game_id:str}/commands",
        operation_id="send_command",
        status_code=200,
        responses=problems(401, 403, 404, 409, 412, 413, 415, 422, 429, 503),
        security=[{"bearer": []}],
        before_request=reads_its_own,
    )
    async def send_command(self, request: Request[Any, Any, Any]) -> Response[CommandResult]:
        """One move by the token's seat. The answer has the new version, its events and the view
        (its `openings` empty: the events brought them)."""
        # The busiest route reads its own inputs: Litestar's extraction of its parameters and
        # body cost a sixth of a command (README, Performance). SEND_COMMAND_INPUTS documents them.
        # Most requests never get here: api/lane.py serves them ahead of the framework.
        games = _games(request.app.state)
        answer = await run_command(
            games,
            _wire(request).commands,
            request.path_params["game_id"],
            request.scope,
            request.receive,
        )
        return _tagged(answer)

    @get(
        "/games/{game_id:str}/events",
        operation_id="list_events",
        responses=problems(401, 404, 422, 429, 503),
    )
    async def list_events(
        self,
        state: State,
        request: Request[Any, Any, Any],
        game_id: GameId,
        after: After = 0,
        wait: Annotated[
            float,
            QueryParameter(ge=0, le=30, description="Wait up to this many seconds for an event."),
        ] = 0,
    ) -> Response[EventPage]:
        """Events after a version, as the asker may see them; long-polls with `wait`.

        The token is optional (`Authorization: Bearer <token>`): without one, a spectator's events.
        """
        body = await _games(state).events(game_id, bearer(request), after, wait, _address(request))
        return _raw(body)

    @get(
        "/games/{game_id:str}/stream",
        operation_id="stream_events",
        responses=problems(401, 404, 422, 429, 503),
        response_description="Server-Sent Events: `id` the version, `event` the type, "
        "`data` the event's JSON; a comment every 15 s keeps the connection open.",
        media_type="text/event-stream",
    )
    async def stream_events(
        self,
        state: State,
        request: Request[Any, Any, Any],
        game_id: GameId,
        after: After = 0,
        token: Annotated[
            str | None,
            QueryParameter(
                name="token",
                description="The token, for browsers' EventSource, which sets no header.",
            ),
        ] = None,
        last_event_id: Annotated[
            str | None,
            HeaderParameter(
                name="Last-Event-ID",
                description="Resume after this version.",
            ),
        ] = None,
    ) -> Stream:
        """The same events as `list_events`, as a stream that stays open.

        The token is optional, in `Authorization: Bearer <token>` or `?token=`; resumes after
        `Last-Event-ID`.
        """
        if last_event_id is not None:
            after = inputs.last_event_id(last_event_id)
        seat = bearer(request) if token is None else inputs.token(token)
        games = _games(state)
        session = await games.stream(game_id, seat, after, _address(request))
        return EventStream(session, _SSE_HEADERS, games.settings.outbox_bytes)


def send_command_inputs(command: Any = Command) -> InputDocs:
    """What `send_command` reads itself, for the OpenAPI document (api/openapi.py): `command`
    is the union of the app's games' commands (`ApiWire.Command`)."""
    return InputDocs(
        operation_id="send_command",
        parameters=[
            parameter("game_id", "path", GAME_ID_DOC, required=True, maxLength=GAME_ID_MAX),
            parameter(
                "If-Match",
                "header",
                'Apply only at this version, as `"<version>"`; otherwise 412.',
            ),
            parameter(
                "Idempotency-Key",
                "header",
                "A retry with the same key and body gets the first answer again.",
                minLength=1,
                maxLength=128,
                pattern="^[!-~]{1,128}$",
            ),
        ],
        body=command,
        body_description="One command; `type` chooses it.",
    )
