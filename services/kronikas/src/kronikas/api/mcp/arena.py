"""The arena's tools (docs/arena.md): an agent registers an entrant, enters a pool and waits for
its seat, then plays that table with the table tools and the seat's token, and reads its
rating. Each tool is a use case of the arena's façade (`Arena`), as its HTTP route is: the same
limits, the same answers (the wire types, as JSON), the same refusals.

Two answers hold a token: `arena_register` the entrant's (`ke_…`, shown once) and a seated
ticket its seat's (for that entrant alone).
"""

from collections.abc import Callable
from typing import Annotated, Any

import msgspec
from mcp.server.mcpserver import Context
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import BaseModel, ConfigDict, WithJsonSchema

from kronikas.api.mcp.tools import WAIT_MAX_S, Tools
from kronikas.application.arena import Arena
from kronikas.application.errors import ArenaBusy, InvalidRequest, Unauthorized

TEXT = WithJsonSchema({"type": "string"})
TOKEN_PREFIX = "ke_"
PLAYERS = 2
"""The pools the tools play: tables of two (the HTTP API has the others; the list of tools goes
into every agent's context, and an argument more costs every agent)."""
LEADERBOARD_MAX = 20
"""The entries `arena_ratings` answers of a leaderboard (the HTTP route gives up to 100)."""


class Answer(BaseModel):
    """A wire type of the arena's, as JSON (its fields are said in the tool's description)."""

    model_config = ConfigDict(extra="allow")


def answered(struct: Any) -> Answer:
    return Answer(**msgspec.to_builtins(struct))


class ArenaCalls:
    """Each arena tool as an agent calls it. `arena` is asked for at each call: the app makes
    it when it starts, after the tools are registered."""

    def __init__(self, tools: Tools, arena: Callable[[], Arena]) -> None:
        self.tools = tools
        self._arena = arena

    async def enter(self, ctx: Context, kind: str, name: str | None, token: str | None) -> Answer:
        """Register first when a `name` comes without a token; queue (again), and wait up to
        `WAIT_MAX_S` for the seat. Waiting in another pool or seated at a table in play
        (`arena_busy`): the ticket as it stands."""
        arena, client = self._arena(), self.tools.client(ctx)
        registered: dict[str, str] = {}
        entrant = self.tools.token(token, ctx, required=name is None)
        if entrant is None:
            assert name is not None
            created = await arena.register(name, [kind], client)
            entrant = created.token
            registered = {"entrant_id": created.entrant_id, "entrant_token": created.token}
        elif not entrant.startswith(TOKEN_PREFIX):
            raise Unauthorized("This needs your entrant token (`ke_…`), not a table's token.")
        try:
            ticket = await arena.enqueue(entrant, kind, PLAYERS, client)
        except ArenaBusy:  # the queue request paid, as it pays over HTTP: the ticket is its answer
            ticket = await arena.ticket(entrant, 0, client, prepaid=True)
        if ticket.status == "waiting":
            ticket = await arena.ticket(entrant, WAIT_MAX_S, client, prepaid=True)
        return Answer(**registered, **msgspec.to_builtins(ticket))

    async def ratings(self, ctx: Context, kind: str | None, entrant_id: str | None) -> Answer:
        arena, client = self._arena(), self.tools.client(ctx)
        if entrant_id is not None:
            return answered(await arena.entrant_page(entrant_id, client))
        if kind is None:
            raise InvalidRequest("Give `kind` for its leaderboard, or an `entrant_id`.")
        return answered(await arena.leaderboard(kind, PLAYERS, LEADERBOARD_MAX, client))


ArenaTool = tuple[Callable[..., Any], str, str, ToolAnnotations]
"""A tool's function, name, description and hints."""


def arena_tools(calls: ArenaCalls, answer: Callable[..., Any]) -> list[ArenaTool]:
    """Each arena tool: its function (its arguments as an agent reads them), name, description
    and hints; `answer` turns the work into the tool's result or tool error (api/mcp/results.py)."""

    async def arena_enter(
        ctx: Context,
        kind: str,
        name: Annotated[str | None, TEXT] = None,
        token: Annotated[str | None, TEXT] = None,
    ) -> CallToolResult:
        result: CallToolResult = await answer(calls.enter(ctx, kind, name, token))
        return result

    async def arena_ratings(
        ctx: Context,
        kind: Annotated[str | None, TEXT] = None,
        entrant_id: Annotated[str | None, TEXT] = None,
    ) -> CallToolResult:
        result: CallToolResult = await answer(calls.ratings(ctx, kind, entrant_id))
        return result

    return [
        (
            arena_enter,
            "arena_enter",
            f"Rated 2-seat matches: queue for `kind`, wait ≤{WAIT_MAX_S} s (again while "
            "`waiting`). New: give `name`, get `entrant_token`; then pass it as `token`. "
            "`seated`: play `table_id` with its seat `token`.",
            ToolAnnotations(read_only_hint=False, destructive_hint=False),
        ),
        (
            arena_ratings,
            "arena_ratings",
            "The leaderboard of `kind` (by mu-3 sigma), or an entrant's ratings and matches.",
            ToolAnnotations(read_only_hint=True),
        ),
    ]
