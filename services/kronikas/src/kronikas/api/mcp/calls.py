"""The MCP face of the tools: each tool's arguments as an agent reads them, its description and
hints, in one table (`TOOLS`); its answer, or its refusal as a tool error the model reads.

The work is `Tools`' (api/mcp/tools.py); here is only how a call comes in and goes out. A tool
error is a JSON object with the problem's `code` and `detail`, as the HTTP API's problem+json
has them, and for a refused move the seat's legal moves.
"""

import inspect
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal, NamedTuple

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from kronikas.api.mcp import results
from kronikas.api.mcp.bounds import scrubbed
from kronikas.api.mcp.tools import WAIT_MAX_S, Tools
from kronikas.api.problems import short
from kronikas.application.errors import ApiError, VersionMismatch
from kronikas.domain.common import DomainError, InvalidOptions

log = logging.getLogger("kronikas.mcp")

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
STATUS = Literal["open", "playing", "finished"]
Version = Annotated[int, Field(ge=0, le=2**31, description="The version you last saw.")]


class Calls:
    """Each tool as an agent calls it: its arguments, and `Tools`' work, answered."""

    def __init__(self, tools: Tools) -> None:
        self.tools = tools

    async def list_games(self) -> Annotated[CallToolResult, results.Kinds]:
        return await answer(self.tools.list_games())

    async def list_tables(
        self,
        ctx: Context,
        kind: Annotated[str | None, Field(description="Only this game.")] = None,
        status: Annotated[STATUS | None, Field(description="Only tables in this state.")] = None,
        limit: Annotated[int, Field(ge=1, le=100, description="Tables per page.")] = 20,
        offset: Annotated[int, Field(ge=0, le=100_000, description="Tables to skip.")] = 0,
    ) -> Annotated[CallToolResult, results.Tables]:
        return await answer(self.tools.list_tables(kind, status, limit, offset, ctx))

    async def open_table(
        self,
        ctx: Context,
        kind: str,  # described at `register`, by the games of the service
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
    ) -> Annotated[CallToolResult, results.Opened]:
        return await answer(self.tools.open_table(kind, options, seed, house_players, ctx))

    async def join_table(
        self,
        ctx: Context,
        table_id: TableId,
        name: Annotated[str, Field(description="Your name at the table: 1–32 characters.")],
    ) -> Annotated[CallToolResult, results.Joined]:
        return await answer(self.tools.join_table(table_id, name, ctx))

    async def start_table(
        self,
        ctx: Context,
        table_id: TableId,
        host_token: Annotated[
            str | None, Field(description="The host token from `open_table`.")
        ] = None,
    ) -> Annotated[CallToolResult, results.Started]:
        return await answer(self.tools.start_table(table_id, host_token, ctx))

    async def get_view(
        self, ctx: Context, table_id: TableId, token: Token = None
    ) -> Annotated[CallToolResult, results.SeatView]:
        return await answer(self.tools.get_view(table_id, token, ctx))

    async def make_move(
        self,
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
    ) -> Annotated[CallToolResult, results.Moved]:
        tools = self.tools
        return await answer(
            tools.make_move(table_id, move, token, expected_version, idempotency_key, ctx),
            refused=lambda: tools.still_legal(table_id, token, ctx),
        )

    async def wait(
        self,
        ctx: Context,
        table_id: TableId,
        after_version: Version,
        token: SeatToken = None,
        timeout_s: Annotated[
            float, Field(ge=0, le=WAIT_MAX_S, description="The longest to wait, in seconds.")
        ] = WAIT_MAX_S,
    ) -> Annotated[CallToolResult, results.Waited]:
        return await answer(self.tools.wait(table_id, token, after_version, timeout_s, ctx))

    async def leave_table(
        self, ctx: Context, table_id: TableId, token: SeatToken = None
    ) -> Annotated[CallToolResult, results.Moved]:
        return await answer(self.tools.leave_table(table_id, token, ctx))

    async def get_events(
        self,
        ctx: Context,
        table_id: TableId,
        token: Token = None,
        after_version: Annotated[
            int, Field(ge=0, le=2**31, description="Only events after this version.")
        ] = 0,
    ) -> Annotated[CallToolResult, results.Events]:
        return await answer(self.tools.get_events(table_id, token, after_version, ctx))


class Tool(NamedTuple):
    """One tool: the `Calls` method that takes it, what an agent reads of it (`{kinds}`: the
    games this service runs), and whether it changes anything."""

    name: str
    description: str
    hints: ToolAnnotations


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ACTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

TOOLS = (
    Tool(
        "list_games",
        "The games this service runs ({kinds}): players, each table option with its type, "
        "default and limits, and the command types of each game.",
        READ_ONLY,
    ),
    Tool(
        "list_tables",
        "The lobby: tables newest first, by kind and status, a page at a time. Open tables take "
        "players (`join_table`).",
        READ_ONLY,
    ),
    Tool(
        "open_table",
        "Open a table of a game, with seats the house plays. Answers the table's id and the host "
        "token, which alone starts it. Then `join_table` to take a seat yourself, and "
        "`start_table` with the host token.",
        ACTS,
    ),
    Tool(
        "join_table",
        "Take the next free seat at an open table. Answers your seat's token, which every later "
        "call takes, and the table as your seat sees it.",
        ACTS,
    ),
    Tool(
        "start_table",
        "Start the table (host token only; at least 2 players): deals the first round.",
        ACTS,
    ),
    Tool(
        "get_view",
        "The table as your seat sees it: your hand, the public state, and every legal move you "
        "may send now, written out (`moves`, and `choices` for moves too many to list). Without "
        "a token, what a spectator sees.",
        READ_ONLY,
    ),
    Tool(
        "make_move",
        "Make one move: a command from `moves`, or one built as a `choices` entry says. With "
        "`expected_version` it applies only if the table is still at that version (else "
        "`version_mismatch`: look again). With `idempotency_key` a retry of the same move is "
        "answered as the first and applied once. A refused move is a tool error with `code`, "
        "`detail` and your legal moves now.",
        ACTS,
    ),
    Tool(
        "wait",
        f"Wait (at most {WAIT_MAX_S} s) until something happens at the table after "
        "`after_version`, or answer at once when it already has, or when the table waits for "
        "your move. Answers the events since `after_version`, whether you may act now "
        "(`may_act`; some moves come out of turn), your legal moves and the `deadline`. Call it "
        "again with the answer's `version` to follow on.",
        READ_ONLY,
    ),
    Tool(
        "leave_table",
        "Leave the table. Before the start your seat is given up and your token holds none; "
        "after it the house plays your seat to the end, and your token still reads.",
        ToolAnnotations(read_only_hint=False, destructive_hint=True),
    ),
    Tool(
        "get_events",
        f"The table's events after a version (at most {results.EVENTS_MAX} a call), as your "
        "seat may see them: what was dealt to you and every move and score since.",
        READ_ONLY,
    ),
)


def register(server: MCPServer, tools: Tools) -> None:
    """Every tool of `TOOLS`, with descriptions an agent can act on."""
    kinds = ", ".join(f"`{kind}` ({game.title})" for kind, game in tools.wire.engines.items())
    calls = Calls(tools)
    for tool in TOOLS:
        call = getattr(calls, tool.name)
        if tool.name == "open_table":
            call = _described(call, "kind", f"The game: {kinds}.")
        description = tool.description.replace("{kinds}", kinds)
        server.add_tool(call, name=tool.name, description=description, annotations=tool.hints)


def _described(call: Callable[..., Any], name: str, description: str) -> Callable[..., Any]:
    """The tool with its argument `name` described by `description`: the games a service runs
    are known when its tools are registered."""
    signature = inspect.signature(call, eval_str=True)
    parameters = [
        p.replace(annotation=Annotated[p.annotation, Field(description=description)])
        if p.name == name
        else p
        for p in signature.parameters.values()
    ]

    async def described(*args: Any, **kwargs: Any) -> Any:
        return await call(*args, **kwargs)

    described.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
    described.__annotations__ = {p.name: p.annotation for p in parameters} | {
        "return": signature.return_annotation
    }
    described.__name__ = call.__name__
    return described


async def answer(
    work: Awaitable[BaseModel],
    refused: Callable[[], Awaitable[dict[str, Any]]] | None = None,
) -> CallToolResult:
    """The tool's result; a refusal as a tool error the model reads, with what `refused` adds
    (the legal moves, when a move was refused)."""
    try:
        result = await work
    except (ApiError, DomainError, InvalidOptions) as exc:
        problem = _problem(exc)
        if refused is not None and isinstance(exc, DomainError | VersionMismatch):
            problem.update(await refused())
        return failed(problem)
    except Exception:
        log.exception("unexpected failure in an MCP tool")
        return failed({"code": "internal", "detail": "An unexpected failure; it is logged."})
    data = result.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(type="text", text=json.dumps(data, ensure_ascii=False))],
        structured_content=data,
    )


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
