"""The MCP face of the tools: each tool's arguments as an agent reads them, its description and
hints, in one table (`TOOLS`).

The work is `Tools`' (api/mcp/tools.py); here is only how a call comes in. How it goes out is
api/mcp/results.py's (`answer`): a typed result, or a refusal as a tool error the model reads, a
JSON object with the problem's `code` and `detail`, as the HTTP API's problem+json has them, and
for a refused move the seat's legal moves.
"""

import inspect
from collections.abc import Callable
from typing import Annotated, Any, Literal, NamedTuple

from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field, WithJsonSchema

from kronikas.api.mcp import results
from kronikas.api.mcp.arena import ArenaCalls, arena_tools
from kronikas.api.mcp.results import answer
from kronikas.api.mcp.tools import WAIT_MAX_S, Tools
from kronikas.application.arena import Arena

# An argument that may be left out is listed as its type alone (`WithJsonSchema`): the list of
# tools goes into every agent's context, and "or null" on each would say nothing new.
TEXT = WithJsonSchema({"type": "string"})
WHOLE = WithJsonSchema({"type": "integer", "minimum": 0})
TableId = str
Token = Annotated[str | None, TEXT, Field(description="Else the connection's bearer token.")]
SeatToken = Annotated[
    str | None, TEXT, Field(description="Your seat's; else the connection's bearer token.")
]
STATUS = Literal["open", "playing", "finished"]
Version = Annotated[int, Field(ge=0, le=2**31, description="The version you last saw.")]
After = Annotated[int, Field(ge=0, le=2**31)]
"""A version to page on after (0: from the start)."""


class Calls:
    """Each tool as an agent calls it: its arguments, and `Tools`' work, answered."""

    def __init__(self, tools: Tools) -> None:
        self.tools = tools

    async def list_games(self) -> CallToolResult:
        return await answer(self.tools.list_games())

    async def list_tables(
        self,
        ctx: Context,
        kind: Annotated[str | None, TEXT] = None,
        status: Annotated[
            STATUS | None, WithJsonSchema({"enum": ["open", "playing", "finished"]})
        ] = None,
        limit: Annotated[int, Field(ge=1, le=100)] = 20,
        offset: Annotated[int, Field(ge=0, le=100_000)] = 0,
    ) -> CallToolResult:
        return await answer(self.tools.list_tables(kind, status, limit, offset, ctx))

    async def open_table(
        self,
        ctx: Context,
        kind: str,  # described at `register`, by the games of the service
        options: Annotated[
            dict[str, Any] | None,
            WithJsonSchema({"type": "object"}),
            Field(description="Options left out take their defaults."),
        ] = None,
        house_players: Annotated[
            int, Field(ge=0, le=99, description="Seats the house plays: 0 unless asked.")
        ] = 0,
        seed: Annotated[
            int | None,
            WHOLE,
            Field(ge=0, le=2**63 - 1, description="Deal reproducibly (tests only)."),
        ] = None,
    ) -> CallToolResult:
        return await answer(self.tools.open_table(kind, options, seed, house_players, ctx))

    async def join_table(
        self,
        ctx: Context,
        table_id: TableId,
        name: Annotated[str, Field(description="1–32 characters.")],
    ) -> CallToolResult:
        return await answer(self.tools.join_table(table_id, name, ctx))

    async def start_table(
        self,
        ctx: Context,
        table_id: TableId,
        host_token: Annotated[str | None, TEXT, Field(description="From `open_table`.")] = None,
        token: Annotated[
            str | None, TEXT, Field(description="Your seat's, when you sit: its view answers.")
        ] = None,
    ) -> CallToolResult:
        return await answer(self.tools.start_table(table_id, host_token, token, ctx))

    async def get_view(
        self, ctx: Context, table_id: TableId, token: Token = None
    ) -> CallToolResult:
        return await answer(self.tools.get_view(table_id, token, ctx))

    async def make_move(
        self,
        ctx: Context,
        table_id: TableId,
        move: Annotated[dict[str, Any], Field(description="A command as `moves` lists it.")],
        token: SeatToken = None,
        expected_version: Annotated[
            int | None, WHOLE, Field(ge=0, description="The version you decided at.")
        ] = None,
        idempotency_key: Annotated[
            str | None, TEXT, Field(description="1–128 visible ASCII characters, new each move.")
        ] = None,
        since: Annotated[
            int | None,
            WHOLE,
            Field(ge=0, le=2**31, description="Answer the events after it; default: as decided."),
        ] = None,
    ) -> CallToolResult:
        tools = self.tools
        return await answer(
            tools.make_move(table_id, move, token, expected_version, idempotency_key, since, ctx),
            refused=lambda: tools.still_legal(table_id, token, ctx),
        )

    async def wait(
        self,
        ctx: Context,
        table_id: TableId,
        after_version: Version,
        token: SeatToken = None,
        timeout_s: Annotated[float, Field(ge=0, le=WAIT_MAX_S)] = WAIT_MAX_S,
    ) -> CallToolResult:
        return await answer(self.tools.wait(table_id, token, after_version, timeout_s, ctx))

    async def leave_table(
        self, ctx: Context, table_id: TableId, token: SeatToken = None
    ) -> CallToolResult:
        return await answer(self.tools.leave_table(table_id, token, ctx))

    async def get_events(
        self,
        ctx: Context,
        table_id: TableId,
        token: Token = None,
        after_version: After = 0,
    ) -> CallToolResult:
        return await answer(self.tools.get_events(table_id, token, after_version, ctx))

    async def record(
        self,
        ctx: Context,
        table_id: TableId,
        token: Token = None,
        after_version: After = 0,
    ) -> CallToolResult:
        return await answer(self.tools.record(table_id, token, after_version, ctx))


class Tool(NamedTuple):
    """One tool: the `Calls` method that takes it, what an agent reads of it (`{kinds}`: the
    games this service runs), and whether it changes anything."""

    name: str
    description: str
    hints: ToolAnnotations


READ_ONLY = ToolAnnotations(read_only_hint=True, open_world_hint=False)
ACTS = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)

SEAT = (
    "`version`, `status`, `seat`, `your_turn` (the table waits for you), `may_act` (a move is "
    "legal now, perhaps out of turn), `deadline`, `moves` (commands ready to send), `choices` "
    "(moves too many to list: `field` takes `min_count`–`max_count` of `choose_from`, or "
    "each field of `each_of` one of its values), "
    "`seating` (`leave`, `back`)"
)
"""What every answer about a seat holds."""

TOOLS = (
    Tool(
        "list_games",
        "The games ({kinds}): players, each option with its type, default and limits, and "
        "each command with what it does.",
        READ_ONLY,
    ),
    Tool(
        "list_tables",
        "The lobby, newest first, by kind and status: `open` tables take players.",
        READ_ONLY,
    ),
    Tool(
        "open_table",
        "Open a table. By default: no house seat (`house_players` 0), each option at its "
        "default (`list_games`), a fair deal (no seed). Answers `table_id` and `host_token`, "
        "which alone starts it. Then `join_table` to sit, and `start_table`.",
        ACTS,
    ),
    Tool(
        "join_table",
        "Take the next free seat at an open table. Answers your seat's `token` (every later "
        "call takes it), `seeded`, and the rest as `get_view` (but the deal's `openings`).",
        ACTS,
    ),
    Tool(
        "start_table",
        "Start the table (host token; at least 2 players): deals the first round. With your "
        "seat's `token` (or its bearer token on the connection) it answers as `join_table` "
        "does for your seat, your hand in `view.me`; else as for a spectator.",
        ACTS,
    ),
    Tool(
        "get_view",
        f"The table as your seat sees it now: {SEAT}, the whole `view` (players, `me`: your "
        "hand and its facts, the game's block named by its kind, `last_round`, `options`) and "
        "`about` (each move type explained). Without a token, a spectator's.",
        READ_ONLY,
    ),
    Tool(
        "make_move",
        "Make one move from `moves`, or one built as a `choices` entry says. With "
        "`expected_version` it applies only at that version (else `version_mismatch`). With "
        "`idempotency_key` a retry is answered as the first. Answers as `wait`: the events "
        "after `since` (default `expected_version`, else the move's own) and the table now. "
        "A refused move is a tool error with `code`, `detail` and your legal moves now.",
        ACTS,
    ),
    Tool(
        "wait",
        f"Wait (at most {WAIT_MAX_S} s) for something to happen after `after_version`; answers "
        "at once when it has, or when the table waits for you. Answers the `events` since "
        f"(oldest first, at most {results.EVENTS_MAX}; `more`; without the deal's proofs, "
        "`openings` and `commitment`: `get_events` has them), the seat's fields as "
        "`get_view`, and `view` in short: `me` whole, the rest (`turn`, `round`, `players`, the "
        "game's block…) without what is null, false or empty (`get_view` has all). Call it "
        "again from `version`.",
        READ_ONLY,
    ),
    Tool(
        "leave_table",
        "Leave. Before the start your seat is given up; after it the house plays your seat to "
        "the end, and your token still reads. Answers as `wait`.",
        ToolAnnotations(read_only_hint=False, destructive_hint=True),
    ),
    Tool(
        "get_events",
        f"The events after a version as your seat may see them (at most {results.EVENTS_MAX}; "
        "`more`): your deals, every move and score, with the deal's proofs (`openings`).",
        READ_ONLY,
    ),
    Tool(
        "record",
        f"The table's story in words after a version (at most {results.EVENTS_MAX} events; "
        "`more`), as your seat may see it: round by round, every move, your own cards.",
        READ_ONLY,
    ),
)


def register(server: MCPServer, tools: Tools, arena: Callable[[], Arena] | None = None) -> None:
    """Every tool of `TOOLS`, with descriptions an agent can act on; and the arena's tools
    (api/mcp/arena.py) when the app has an arena."""
    kinds = ", ".join(f"`{kind}` ({game.title})" for kind, game in tools.wire.engines.items())
    calls = Calls(tools)
    for tool in TOOLS:
        call = getattr(calls, tool.name)
        if tool.name == "open_table":
            call = _described(call, "kind", f"The game: {kinds}.")
        description = tool.description.replace("{kinds}", kinds)
        server.add_tool(call, name=tool.name, description=description, annotations=tool.hints)
    if arena is not None:
        for call, name, description, hints in arena_tools(ArenaCalls(tools, arena), answer):
            server.add_tool(call, name=name, description=description, annotations=hints)


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
