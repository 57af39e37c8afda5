"""The tools an agent plays with (docs/api.md, MCP): each one a use case of `Games`, the façade
every transport goes through, so it pays the same rate limits and holds the same places as the
HTTP route that does the same; nothing here knows a game but through its engine.

A tool answers a typed result, or a tool error the model reads (`is_error`): a JSON object with
the problem's `code` and `detail`, as the HTTP API's problem+json has them, and for a refused
move the seat's legal moves. Nothing here logs a tool's arguments, and no answer but the two that
hand one out (open a table, join one) holds a token.
"""

import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

import msgspec
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from kronikas.api import inputs
from kronikas.api.client import client_address
from kronikas.api.errors import short
from kronikas.api.mcp.bounds import scrubbed
from kronikas.api.mcp.moves import SEATING, Choice, may_act, written_out
from kronikas.api.wire import ApiWire
from kronikas.application.access import seated
from kronikas.application.errors import ApiError, InvalidRequest, Unauthorized, VersionMismatch
from kronikas.application.games import Games
from kronikas.application.house import deadline_text
from kronikas.application.tables import Table
from kronikas.application.wire import view_json
from kronikas.domain.common import DomainError, InvalidOptions
from kronikas.domain.engine import tag_of
from kronikas.domain.seating import Leave

log = logging.getLogger("kronikas.mcp")

WAIT_MAX_S = 25
"""The longest a `wait` holds its call: below the 30 s a client's HTTP stack commonly allows."""
EVENTS_MAX = 100
"""The most events one answer carries (an agent's context is not a log reader)."""

# --- Results ---------------------------------------------------------------------------------


class SeatView(BaseModel):
    """A table as the token's seat sees it, with what the seat may send now written out."""

    table_id: str
    version: int = Field(description="The table's version: pass it as `expected_version`.")
    status: str = Field(description="`open`, `playing` or `finished`.")
    seat: int | None = Field(description="Your seat; null for a spectator or the host.")
    may_act: bool = Field(
        description="True when a move of the game is legal for you now (send one of `moves` "
        "or `choices`); some moves may be sent out of turn."
    )
    your_turn: bool = Field(
        description="True when the table waits for your move (your clock runs, see `deadline`)."
    )
    deadline: str | None = Field(
        description="When the clock of the seat the table waits for runs out (RFC 3339, UTC); "
        "null when no clock runs. Past it the house plays that seat."
    )
    moves: list[dict[str, Any]] = Field(
        description="Every legal move of the game you may send now, each a command ready for "
        "`make_move`."
    )
    choices: list[Choice] = Field(
        description="Legal moves too many to list: each is every command of its `type` that "
        "picks `min_count` to `max_count` values of `choose_from` for its `field`."
    )
    seating: list[str] = Field(
        description="Seating commands you may also send (`leave`: give up your seat; `back`: "
        "play your seat yourself again after your clock ran out)."
    )
    view: dict[str, Any] = Field(
        description="The table's view, as the HTTP API gives it (docs/api.md, The view): "
        "`players`, `me` (your hand), `legal`, `last_round`, and the game's own block named "
        "by `kind`, which holds the public state of the table."
    )


class Moved(SeatView):
    """A move's outcome: the events it made (as you may see them), then the table as you see
    it now."""

    events: list[dict[str, Any]] = Field(description="The events the move made, in order.")


class Waited(SeatView):
    """What happened since the version you knew, and the table as you see it now."""

    events: list[dict[str, Any]] = Field(
        description=f"The events after `after_version`, oldest first (at most {EVENTS_MAX})."
    )
    more: bool = Field(description="True when more events followed than this answer holds.")


class Events(BaseModel):
    """A table's events after a version, as the token may see them."""

    table_id: str
    version: int = Field(description="The table's version when read.")
    events: list[dict[str, Any]]
    more: bool = Field(description="True when more events follow: ask again `after` the last.")


class Opened(BaseModel):
    """A new table, with its house seats."""

    table_id: str
    host_token: str = Field(
        description="The host token: it starts the table (`start_table`), nothing else. Keep it."
    )
    house_seats: list[int] = Field(description="The seats the house plays.")
    view: dict[str, Any]


class Joined(SeatView):
    """A seat taken, and its token."""

    player_id: str
    token: str = Field(
        description="Your seat's token: every later call takes it (`token`). Keep it secret."
    )
    seeded: bool = Field(
        description="True when the table deals from a seed its creator gave: whoever knows the "
        "seed knows every hand. Play such a table only for a test or a replay."
    )


class Started(BaseModel):
    """A table started: the first round is dealt."""

    table_id: str
    version: int
    view: dict[str, Any]


class Kinds(BaseModel):
    """The games this service runs: players, options and commands of each."""

    kinds: list[dict[str, Any]]


class Tables(BaseModel):
    """A page of tables, newest first."""

    tables: list[dict[str, Any]]
    more: bool


# --- The tools -------------------------------------------------------------------------------

TableId = Annotated[str, Field(description="The table's id (16 hexadecimal characters).")]
Token = Annotated[
    str | None,
    Field(
        description="A token of the table (a seat's, or the host's). Leave it out when the "
        "connection sends `Authorization: Bearer <token>`."
    ),
]
SeatToken = Annotated[
    str | None,
    Field(
        description="Your seat's token, from `join_table`. Leave it out when the connection "
        "sends `Authorization: Bearer <token>`."
    ),
]


def _decoded(body: bytes) -> Any:
    return msgspec.json.decode(body)


class Tools:
    """The tools over one app's use cases. `games` is asked for at each call: the app makes
    its use cases when it starts, after the tools are registered."""

    def __init__(self, wire: ApiWire, games: Callable[[], Games]) -> None:
        self.wire = wire
        self._games = games

    @property
    def games(self) -> Games:
        return self._games()

    # The caller -------------------------------------------------------------------------

    def client(self, ctx: Context) -> str | None:
        """The client's address, for the limits kept per address (api/client.py)."""
        scope = getattr(ctx.request_context.request, "scope", None)
        if scope is None:
            return None
        return client_address(scope, self.games.settings)

    @staticmethod
    def token(given: str | None, ctx: Context, required: bool = True) -> str | None:
        """The token of the call: its argument, else the connection's `Authorization`."""
        if given is not None:
            return inputs.token(given)
        headers = ctx.headers or {}
        token = inputs.bearer(headers.get("authorization"))
        if token is None and required:
            raise Unauthorized(
                "This needs a token: pass `token`, or connect with `Authorization: Bearer <token>`."
            )
        return token

    # The table as a seat sees it ----------------------------------------------------------

    async def look(self, game_id: str, token: str | None, client: str | None) -> SeatView:
        """The table as the token's holder sees it now: a read, paid as `GET /v1/games/{id}`."""
        table, role = await self.games.queries.reader(game_id, token, client)
        return self.seat_view(table, seated(table, role))

    async def now(self, game_id: str, token: str, at_least: int = 0) -> SeatView:
        """The table as the token's seat sees it after a call that already paid and let the
        token in (a move, a wait): from the table this process holds, read when older than
        `at_least`."""
        table, seat = await self.games.held(game_id, token, at_least)
        return self.seat_view(table, seat)

    @staticmethod
    def seat_view(table: Table, seat: int | None) -> SeatView:
        """The view of `seat` (None: a spectator) with its legal moves, all from the engine."""
        engine, state = table.engine, table.state
        deadline = deadline_text(engine, state, table.at)
        view = _decoded(view_json(engine.view(state, seat, table.game_id, table.version, deadline)))
        legal: list[str] = view.get("legal") or []
        if seat is None:
            moves: list[dict[str, Any]] = []
            choices: list[Choice] = []
        else:
            game_moves = [m for m in engine.legal_moves(state, seat) if not _seating(m)]
            moves, choices = written_out(game_moves)
            block = (
                " The table's public state (what a move announces or takes) is in "
                f"`view.{view['kind']}`."
            )
            choices = [c.model_copy(update={"about": c.about + block}) for c in choices]
        return SeatView(
            table_id=table.game_id,
            version=table.version,
            status=view["status"],
            seat=seat,
            may_act=may_act(legal),
            your_turn=may_act(legal) and engine.waiting_for(state) == seat,
            deadline=deadline,
            moves=moves,
            choices=choices,
            seating=[kind for kind in legal if kind in SEATING],
            view=view,
        )

    # The tools ----------------------------------------------------------------------------

    async def list_games(self) -> Kinds:
        kinds: list[dict[str, Any]] = msgspec.to_builtins(self.wire.kinds)["kinds"]
        return Kinds(kinds=kinds)

    async def list_tables(
        self, kind: str | None, status: str | None, limit: int, offset: int, ctx: Context
    ) -> Tables:
        if kind is not None and kind not in self.wire.engines:
            raise InvalidRequest(f"kind: no game is called {short(repr(kind))}.")
        found, more = await self.games.lobby(kind, status, offset, limit, self.client(ctx))
        tables = [
            {
                "id": s.game_id,
                "kind": s.kind,
                "status": s.status,
                "players": s.players,
                "max_players": self.wire.max_players(s.kind),
                "seeded": s.seeded,
            }
            for s in found
            if s.kind in self.wire.engines
        ]
        return Tables(tables=tables, more=more)

    async def open_table(
        self,
        kind: str,
        options: dict[str, Any] | None,
        seed: int | None,
        house_players: int,
        ctx: Context,
    ) -> Opened:
        client = self.client(ctx)
        try:
            request = msgspec.convert(
                {"kind": kind, "options": options or {}, "seed": seed}, self.wire.CreateGame
            )
        except msgspec.ValidationError as exc:
            raise InvalidRequest(str(exc)) from None
        games = self.games
        most = self.wire.max_players(kind) - 1
        if not 0 <= house_players <= most:
            raise InvalidRequest(f"house_players: from 0 to {most} at a table of {kind}.")
        if client is not None:
            await games.admit(client)
        created = _decoded(await games.create(kind, request.options, request.seed))
        host_token: str = created["host_token"]
        game_id: str = created["game"]["id"]
        view = created["game"]
        seats = []
        for number in range(1, house_players + 1):
            if client is not None:
                await games.admit(client)
            seated_house = _decoded(await games.seat_house(game_id, host_token, f"House {number}"))
            seats.append(seated_house["seat"])
            view = seated_house["game"]
        return Opened(table_id=game_id, host_token=host_token, house_seats=seats, view=view)

    async def join_table(self, game_id: str, name: str, ctx: Context) -> Joined:
        client = self.client(ctx)
        if client is not None:
            await self.games.admit(client)
        joined = _decoded(await self.games.join(game_id, inputs.name(name)))
        token: str = joined["token"]
        seat = await self.now(game_id, token)
        seeded: bool = joined["game"]["seeded"]
        return Joined(player_id=joined["player_id"], token=token, seeded=seeded, **dict(seat))

    async def start_table(self, game_id: str, host_token: str | None, ctx: Context) -> Started:
        token = self.token(host_token, ctx)
        assert token is not None
        answer = await self.games.start(game_id, token, self.client(ctx))
        return Started(table_id=game_id, version=answer.version, view=_decoded(answer.body))

    async def get_view(self, game_id: str, token: str | None, ctx: Context) -> SeatView:
        return await self.look(game_id, self.token(token, ctx, required=False), self.client(ctx))

    async def make_move(
        self,
        game_id: str,
        move: dict[str, Any],
        token: str | None,
        expected_version: int | None,
        idempotency_key: str | None,
        ctx: Context,
    ) -> Moved:
        seat_token = self.token(token, ctx)
        assert seat_token is not None
        client = self.client(ctx)
        games = self.games
        key = inputs.idempotency_key(idempotency_key)
        try:
            command = self.wire.commands.decode(msgspec.json.encode(move))
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            await games.refused(game_id, seat_token, client)
            raise InvalidRequest(str(exc)) from None
        answer = await games.command(
            game_id,
            seat_token,
            command,
            msgspec.json.encode(command),
            if_match=expected_version,
            idempotency_key=key,
            client=client,
        )
        result = _decoded(answer.body)
        seat = await self.now(game_id, seat_token, answer.version)
        return Moved(events=result["events"], **dict(seat))

    async def leave_table(self, game_id: str, token: str | None, ctx: Context) -> Moved:
        seat_token = self.token(token, ctx)
        assert seat_token is not None
        leave = Leave()
        answer = await self.games.command(
            game_id, seat_token, leave, msgspec.json.encode(leave), client=self.client(ctx)
        )
        result = _decoded(answer.body)
        try:
            seat = await self.now(game_id, seat_token, answer.version)
        except Unauthorized:  # left before the start: the token holds no seat any more
            table, _ = await self.games.held(game_id, None)
            seat = self.seat_view(table, None)
        return Moved(events=result["events"], **dict(seat))

    async def wait(
        self, game_id: str, token: str | None, after_version: int, timeout_s: float, ctx: Context
    ) -> Waited:
        seat_token = self.token(token, ctx)
        assert seat_token is not None
        client = self.client(ctx)
        games = self.games
        started = time.monotonic()
        page = _decoded(await games.events(game_id, seat_token, after_version, 0, client))
        seat = await self.now(game_id, seat_token, page["version"])
        idle = not page["events"] and not seat.your_turn and seat.status != "finished"
        if idle and timeout_s > 0:  # a long-poll: it holds a place of the token's and address's
            left = max(0.0, timeout_s - (time.monotonic() - started))
            page = _decoded(await games.events(game_id, seat_token, after_version, left, client))
            seat = await self.now(game_id, seat_token, page["version"])
        events = page["events"]
        return Waited(
            events=events[:EVENTS_MAX],
            more=page["more"] or len(events) > EVENTS_MAX,
            **dict(seat),
        )

    async def get_events(
        self, game_id: str, token: str | None, after_version: int, ctx: Context
    ) -> Events:
        body = await self.games.events(
            game_id, self.token(token, ctx, required=False), after_version, 0, self.client(ctx)
        )
        page = _decoded(body)
        events = page["events"]
        return Events(
            table_id=game_id,
            version=page["version"],
            events=events[:EVENTS_MAX],
            more=page["more"] or len(events) > EVENTS_MAX,
        )

    # Answers and refusals -----------------------------------------------------------------

    async def answer(
        self,
        work: Awaitable[BaseModel],
        refused_move: tuple[str, str | None, Context] | None = None,
    ) -> CallToolResult:
        """The tool's result; a refusal as a tool error the model reads, with the legal moves
        when a move was refused (`refused_move`: the table, the token given and the call)."""
        try:
            result = await work
        except (ApiError, DomainError, InvalidOptions) as exc:
            problem = _problem(exc)
            if refused_move is not None and isinstance(exc, DomainError | VersionMismatch):
                problem.update(await self._still_legal(*refused_move))
            return failed(problem)
        except Exception:
            log.exception("unexpected failure in an MCP tool")
            return failed({"code": "internal", "detail": "An unexpected failure; it is logged."})
        data = result.model_dump(mode="json")
        return CallToolResult(
            content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
            structured_content=data,
        )

    async def _still_legal(self, game_id: str, token: str | None, ctx: Context) -> dict[str, Any]:
        """What the seat may send instead of a refused move (read without paying again: the
        refusal was paid)."""
        try:
            seat_token = self.token(token, ctx)
            assert seat_token is not None
            seat = await self.now(game_id, seat_token)
        except (ApiError, DomainError):
            return {}
        return {
            "version": seat.version,
            "may_act": seat.may_act,
            "moves": seat.moves,
            "choices": [c.model_dump(mode="json") for c in seat.choices],
            "seating": seat.seating,
        }


def _seating(move: msgspec.Struct) -> bool:
    return tag_of(type(move)) in SEATING


def _problem(exc: Exception) -> dict[str, Any]:
    """The problem of a refusal, as the HTTP API's problem+json has its `code` and `detail`."""
    if isinstance(exc, ApiError):
        problem: dict[str, Any] = {"code": exc.code, "detail": exc.detail}
        if (retry := exc.retry_after) is not None:
            problem["retry_after_s"] = retry
        return problem
    if isinstance(exc, DomainError):
        return {"code": exc.code, "detail": exc.detail}
    return {"code": "invalid_request", "detail": str(exc)}


def failed(problem: dict[str, Any]) -> CallToolResult:
    """A tool error the model reads: the problem as JSON, its texts cut short and scrubbed."""
    problem["detail"] = short(scrubbed(str(problem.get("detail", ""))))
    text = json.dumps(problem, ensure_ascii=False)
    return CallToolResult(content=[TextContent(type="text", text=text)], is_error=True)


STATUS = Literal["open", "playing", "finished"]


def register(server: MCPServer, tools: Tools) -> None:
    """Every tool, with descriptions an agent can act on."""
    kinds = ", ".join(f"`{kind}` ({game.title})" for kind, game in tools.wire.engines.items())
    read_only = ToolAnnotations(read_only_hint=True, open_world_hint=False)
    acts = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

    @server.tool(
        description=f"The games this service runs ({kinds}): players, each table option with "
        "its type, default and limits, and the command types of each game.",
        annotations=read_only,
    )
    async def list_games() -> Annotated[CallToolResult, Kinds]:
        return await tools.answer(tools.list_games())

    @server.tool(
        description="The lobby: tables newest first, by kind and status, a page at a time. "
        "Open tables take players (`join_table`).",
        annotations=read_only,
    )
    async def list_tables(
        ctx: Context,
        kind: Annotated[str | None, Field(description="Only this game.")] = None,
        status: Annotated[STATUS | None, Field(description="Only tables in this state.")] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Tables per page.")] = 20,
        offset: Annotated[int, Field(ge=0, le=100_000, description="Tables to skip.")] = 0,
    ) -> Annotated[CallToolResult, Tables]:
        return await tools.answer(tools.list_tables(kind, status, limit, offset, ctx))

    @server.tool(
        description="Open a table of a game, with seats the house plays. Answers the table's "
        "id and the host token, which alone starts it. Then `join_table` to take a seat "
        "yourself, and `start_table` with the host token.",
        annotations=acts,
    )
    async def open_table(
        ctx: Context,
        kind: Annotated[str, Field(description=f"The game: {kinds}.")],
        options: Annotated[
            dict[str, Any] | None,
            Field(description="Table options (`list_games` lists them); any may be left out."),
        ] = None,
        house_players: Annotated[
            int, Field(ge=0, le=99, description="How many seats the house plays.")
        ] = 1,
        seed: Annotated[
            int | None,
            Field(ge=0, le=2**63 - 1, description="Deal reproducibly (for tests only)."),
        ] = None,
    ) -> Annotated[CallToolResult, Opened]:
        return await tools.answer(tools.open_table(kind, options, seed, house_players, ctx))

    @server.tool(
        description="Take the next free seat at an open table. Answers your seat's token, which "
        "every later call takes, and the table as your seat sees it.",
        annotations=acts,
    )
    async def join_table(
        ctx: Context,
        table_id: TableId,
        name: Annotated[str, Field(description="Your name at the table: 1–32 characters.")],
    ) -> Annotated[CallToolResult, Joined]:
        return await tools.answer(tools.join_table(table_id, name, ctx))

    @server.tool(
        description="Start the table (host token only; at least 2 players): deals the first round.",
        annotations=acts,
    )
    async def start_table(
        ctx: Context,
        table_id: TableId,
        host_token: Annotated[
            str | None, Field(description="The host token from `open_table`.")
        ] = None,
    ) -> Annotated[CallToolResult, Started]:
        return await tools.answer(tools.start_table(table_id, host_token, ctx))

    @server.tool(
        description="The table as your seat sees it: your hand, the public state, and every "
        "legal move you may send now, written out (`moves`, and `choices` for moves too many to "
        "list). Without a token, what a spectator sees.",
        annotations=read_only,
    )
    async def get_view(
        ctx: Context, table_id: TableId, token: Token = None
    ) -> Annotated[CallToolResult, SeatView]:
        return await tools.answer(tools.get_view(table_id, token, ctx))

    @server.tool(
        description="Make one move: a command from `moves`, or one built as a `choices` entry "
        "says. With `expected_version` it applies only if the table is still at that version "
        "(else `version_mismatch`: look again). With `idempotency_key` a retry of the same move "
        "is answered as the first and applied once. A refused move is a tool error with `code`, "
        "`detail` and your legal moves now.",
        annotations=acts,
    )
    async def make_move(
        ctx: Context,
        table_id: TableId,
        move: Annotated[
            dict[str, Any],
            Field(description='The command, e.g. {"type": "<type>", ...} as `moves` lists it.'),
        ],
        token: SeatToken = None,
        expected_version: Annotated[
            int | None, Field(ge=0, description="The version your decision was made at.")
        ] = None,
        idempotency_key: Annotated[
            str | None, Field(description="1–128 visible ASCII characters, new for each move.")
        ] = None,
    ) -> Annotated[CallToolResult, Moved]:
        return await tools.answer(
            tools.make_move(table_id, move, token, expected_version, idempotency_key, ctx),
            refused_move=(table_id, token, ctx),
        )

    @server.tool(
        description=f"Wait (at most {WAIT_MAX_S} s) until something happens at the table after "
        "`after_version`, or answer at once when it already has, or when the table waits for "
        "your move. Answers the events since `after_version`, whether you may act now "
        "(`may_act`; some moves come out of turn), your legal moves and the `deadline`. Call it "
        "again with the answer's `version` to follow on.",
        annotations=read_only,
    )
    async def wait(
        ctx: Context,
        table_id: TableId,
        after_version: Annotated[
            int, Field(ge=0, le=2**31, description="The version you last saw.")
        ],
        token: SeatToken = None,
        timeout_s: Annotated[
            float, Field(ge=0, le=WAIT_MAX_S, description="The longest to wait, in seconds.")
        ] = WAIT_MAX_S,
    ) -> Annotated[CallToolResult, Waited]:
        return await tools.answer(tools.wait(table_id, token, after_version, timeout_s, ctx))

    @server.tool(
        description="Leave the table. Before the start your seat is given up and your token "
        "holds none; after it the house plays your seat to the end, and your token still reads.",
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=True),
    )
    async def leave_table(
        ctx: Context, table_id: TableId, token: SeatToken = None
    ) -> Annotated[CallToolResult, Moved]:
        return await tools.answer(tools.leave_table(table_id, token, ctx))

    @server.tool(
        description=f"The table's events after a version (at most {EVENTS_MAX} a call), as your "
        "seat may see them: what was dealt to you and every move and score since.",
        annotations=read_only,
    )
    async def get_events(
        ctx: Context,
        table_id: TableId,
        token: Token = None,
        after_version: Annotated[
            int, Field(ge=0, le=2**31, description="Only events after this version.")
        ] = 0,
    ) -> Annotated[CallToolResult, Events]:
        return await tools.answer(tools.get_events(table_id, token, after_version, ctx))
