"""The Model Context Protocol endpoint at `/mcp`: the tables as tools an LLM agent calls.

Made with the official `mcp` SDK's server (`MCPServer`) and served by its Streamable HTTP
transport in stateless mode, one JSON answer a request: any worker of any instance serves any
call, as the HTTP API does, because every tool is a use case of `Games` (api/mcp/tools.py) and a
table lives in the store, never in a session. Mounted in the Litestar app (`McpEndpoint.route`),
whose lifespan runs the SDK's session manager (`McpEndpoint.running`).

Around the SDK's transport, the guard (api/mcp/guard.py: `Origin`, `Host`, the body's size)
and the endpoint's own layer (api/mcp/transport.py: no answer cached, a bound on the `id`, a
limit on the calls that need no token, every error bounded against its request). The SDK's log
lines go to the service's log (api/mcp/sdk_logs.py).

Besides the tools: each game's rules as a resource (the `rules_text` its engine ships, made from
docs/rules.md: a test keeps them equal), and a prompt that says how to play a table
through the tools.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from litestar import Litestar
from litestar.handlers import asgi
from litestar.types import Receive, Scope, Send
from mcp import MCPError
from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.resources import TextResource
from mcp.server.transport_security import TransportSecuritySettings

from kronikas import __version__, metrics
from kronikas.api.client import client_address
from kronikas.api.mcp.bounds import MESSAGE_MAX, scrubbed
from kronikas.api.mcp.calls import register
from kronikas.api.mcp.guard import OriginGuard
from kronikas.api.mcp.sdk_logs import bridge_sdk_logs
from kronikas.api.mcp.tools import WAIT_MAX_S, Tools
from kronikas.api.mcp.transport import PAYING_TOOLS, Bounded, NoStore
from kronikas.api.problems import short
from kronikas.api.shapes import ApiWire
from kronikas.application.arena import Arena
from kronikas.application.errors import ApiError
from kronikas.application.games import Games
from kronikas.config import Settings

__all__ = ["PATH", "McpEndpoint"]

PATH = "/mcp"
INVALID_PARAMS = -32602
INSTRUCTIONS = """\
Krónikás deals card games of the 32-card Hungarian deck. Each table is played through these
tools; every answer shows only what your seat may know. Read a game's rules at
`kronikas://rules/<kind>` and the prompt `play_a_table` for the loop."""

PLAYING = """\
You are playing a card game at a Krónikás table through its tools. {game}

1. `list_games` shows the games, their options and each command with what it does. Read the
   rules resource `kronikas://rules/<kind>` before you play: it says what every move does.
2. To play against the house: `open_table` (kind, and `house_players`: how many seats the house
   plays; none unless you ask) answers the table's id and a host token. `join_table` (a name)
   answers YOUR SEAT'S TOKEN: pass it as `token` to every later call (or connect with
   `Authorization: Bearer <token>`). Then `start_table` with the host token and your seat's
   `token`: it answers your seat's view, your hand included. To join someone else's table, find
   it with `list_tables` (status `open`) and `join_table`.
3. The loop: when `may_act` is true, choose a move: send one command of `moves` exactly as
   listed, or build one as a `choices` entry says (its `type`, and its `field` filled with
   `min_count` to `max_count` values of `choose_from`; or, for an entry with `each_of`, each
   field it names set to one of its values); `about` in `join_table`'s and
   `get_view`'s answers says what each move does. Send it with `make_move`, with
   `expected_version` = the `version` you decided at and a fresh `idempotency_key`. Its answer
   holds the `events` since that version (your move's, and whatever followed) and the table now,
   its `view` in short; when it is not your move, call `wait` with `after_version` = the last
   `version` you saw. It answers at once when something happened since (the `events`), or when
   the table waits for your move; else it waits up to {wait} s. Some moves may be made out of
   turn: `may_act` can be true while `your_turn` is false. If you do not want to make such a
   move, just `wait` again from the current `version`. `get_view` gives the whole view.
4. `your_turn` true means the table waits for you; past the `deadline` (when the table has a
   clock) the house plays your seat until you send `{{"type": "back"}}`.
5. A refused move is a tool error: `code` (e.g. `illegal_move`, `not_your_turn`,
   `version_mismatch`) and `detail` say why, and the answer lists your legal moves now. Choose
   again from those; do not resend the same move.
6. The match is over when `status` is `finished`: `view.winners` lists the winning seats.
   Your hand and what it is worth are in `view.me`; the public state of the table is in the
   view's block named by the game's kind.
7. Rated matches in the arena: `arena_enter` with the game's `kind` and, the first time, your
   `name`: it answers your `entrant_token` (keep it: pass it as `token` to `arena_enter` from
   then on) and your ticket. While `waiting`, call it again. `seated`: the ticket's `table_id`
   and seat `token` are a table as in 2 (already started: no `join_table`, no `start_table`);
   play it through 3 to 6. Each seat has a clock; past it the house plays your turns. Then
   `arena_enter` again for the next table. Your rating changes once every table of your set
   (the same cards at other tables, the seats turned) has finished: `arena_ratings` with your
   `entrant_id` reads it (`ordinal` = mu - 3 sigma, the leaderboard's order) and your
   matches; with `kind`, the leaderboard."""


class McpEndpoint:
    """The MCP server of one app: its tools over the app's use cases (asked for at each call:
    they are made when the app starts), its resources and prompt, and its transport."""

    def __init__(
        self,
        wire: ApiWire,
        settings: Settings,
        games: Callable[[], Games],
        arena: Callable[[], Arena] | None = None,
    ) -> None:
        self.settings = settings
        root = logging.getLogger()
        handlers, level = list(root.handlers), root.level
        self.server: MCPServer[Any] = MCPServer(
            "kronikas",
            title="Krónikás",
            version=__version__,
            instructions=INSTRUCTIONS,
            middleware=[self._errors],
            log_level="WARNING",
        )
        # The SDK sets up the root logger when it has no handler; the service logs through its
        # own (api/logs.py), and the SDK's lines — which may quote a caller's input — go there
        # scrubbed and cut (api/mcp/sdk_logs.py), never to the last-resort stderr.
        root.handlers[:], root.level = handlers, level
        bridge_sdk_logs()
        self.tools = Tools(wire, games)
        register(self.server, self.tools, arena)
        self._resources(wire)
        self._prompt(wire)
        self.server.streamable_http_app(
            streamable_http_path=PATH,
            stateless_http=True,
            json_response=True,
            max_request_body_size=settings.max_body_bytes,
            # Host and Origin are checked by the guard (api/mcp/guard.py), with the service's
            # own settings; the transport still refuses a POST that is not JSON.
            transport_security=TransportSecuritySettings(enable_dns_rebinding_protection=False),
        )
        transport = Bounded(self.server.session_manager.handle_request, settings, games)
        self.guard = NoStore(OriginGuard(transport, settings))

    def _resources(self, wire: ApiWire) -> None:
        for kind, game in wire.engines.items():
            text = game.rules_text
            if text is None:
                continue
            self.server.add_resource(
                TextResource(
                    uri=f"kronikas://rules/{kind}",
                    name=f"rules-{kind}",
                    title=f"The rules of {game.title}",
                    description=f"How {game.title} is played here: every move, what it does, "
                    "and what the engine settles that the rules leave open.",
                    mime_type="text/markdown",
                    text=text,
                )
            )

    def _prompt(self, wire: ApiWire) -> None:
        titles = {kind: game.title for kind, game in wire.engines.items()}

        @self.server.prompt(
            name="play_a_table",
            title="Play a table",
            description="How to play a table of a game through these tools, from opening it "
            "to the end of the match.",
        )
        def play_a_table(kind: str = "") -> str:
            game = (
                f"The game is {titles[kind]} (`{kind}`): read `kronikas://rules/{kind}` first."
                if kind in titles
                else "The games are " + ", ".join(f"`{k}` ({t})" for k, t in titles.items()) + "."
            )
            return PLAYING.format(game=game, wait=WAIT_MAX_S)

    def route(self) -> Any:
        """The route that mounts the endpoint at `/mcp` in the Litestar app."""
        guard = self.guard

        @asgi(PATH, is_mount=True, copy_scope=True, include_in_schema=False)
        async def mcp_endpoint(scope: Scope, receive: Receive, send: Send) -> None:
            # Stateless (`stateless_http`): an MCP session lives for one request.
            with metrics.open_connection("mcp_session"):
                await guard(cast(Any, scope), cast(Any, receive), cast(Any, send))

        return mcp_endpoint

    async def _errors(self, ctx: ServerRequestContext[Any, Any], call_next: Any) -> Any:
        """No tool error echoes a token, whatever put it there (the SDK's own argument
        validation quotes the values it refuses). The chain answers the result as it goes on
        the wire; every error is bounded again on its way out (api/mcp/transport.py).

        A prompt the caller named wrong (or whose arguments do not fit) is the caller's error,
        -32602: the SDK would log it as a failure of its handler, with a traceback quoting the
        name. A call of a tool that pays for itself, refused by the SDK before the tool ran
        (arguments that do not fit), pays as a call without a token: else it would be free."""
        try:
            result = await call_next(ctx)
        except ValueError as exc:
            if ctx.method != "prompts/get":
                raise
            raise MCPError(INVALID_PARAMS, scrubbed(str(exc)[: 2 * MESSAGE_MAX])) from None
        if ctx.method == "tools/list" and isinstance(result, dict):
            for tool in result.get("tools") or []:
                tool["inputSchema"] = _untitled(tool.get("inputSchema"))
        if ctx.method == "tools/call" and isinstance(result, dict) and result.get("isError"):
            by_sdk = False
            for block in result.get("content") or []:
                if isinstance(block, dict) and isinstance(block.get("text"), str):
                    block["text"], sdks = _problem_text(block["text"])
                    by_sdk = by_sdk or sdks
            name = (ctx.params or {}).get("name")
            if by_sdk and isinstance(name, str) and name in PAYING_TOOLS:
                limited = await self._charge(ctx)
                if limited is not None:
                    result["content"] = [{"type": "text", "text": limited}]
        return result

    async def _charge(self, ctx: ServerRequestContext[Any, Any]) -> str | None:
        """One from the client address's read bucket; a tool error's text when it is empty."""
        scope = getattr(ctx.request, "scope", None)
        if scope is None:
            return None
        try:
            await self.tools.games.read_paid(client_address(scope, self.settings))
        except ApiError as exc:
            metrics.answered(exc.code, "mcp")
            problem = {"code": exc.code, "detail": exc.detail, "retry_after_s": exc.retry_after}
            return json.dumps(problem, ensure_ascii=False)
        return None

    @contextlib.asynccontextmanager
    async def running(self, app: Litestar) -> AsyncIterator[None]:
        """The app's lifespan around the SDK's session manager (its task group)."""
        async with self.server.session_manager.run():
            yield


def _untitled(schema: Any) -> Any:
    """A JSON schema without its `title` keywords (a property named `title` stays)."""
    if isinstance(schema, list):
        return [_untitled(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    return {
        key: {name: _untitled(sub) for name, sub in value.items()}
        if key == "properties" and isinstance(value, dict)
        else _untitled(value)
        for key, value in schema.items()
        if key != "title"
    }


def _problem_text(text: str) -> tuple[str, bool]:
    """A tool error's text as a problem: ours are already; the SDK's own (arguments that do
    not fit the tool's schema, an unknown tool) become `invalid_request`. Scrubbed either way;
    and whether it was the SDK's."""
    try:
        problem = json.loads(text)
    except ValueError:
        problem = None
    sdks = not isinstance(problem, dict) or "code" not in problem
    if sdks:
        problem = {"code": "invalid_request", "detail": short(scrubbed(text))}
    return scrubbed(json.dumps(problem, ensure_ascii=False)), sdks
