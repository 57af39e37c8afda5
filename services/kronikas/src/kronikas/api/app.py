"""The Litestar application factory."""

from __future__ import annotations

import gc
import logging
import re
from collections.abc import Sequence
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.datastructures import State
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme
from litestar.types import ControllerRouterHandler

from kronikas import __version__, metrics
from kronikas.adapters.arena_store import RedisArenaStore
from kronikas.adapters.event_store import RedisStores
from kronikas.adapters.notifier import Notifier
from kronikas.adapters.randomness import for_table
from kronikas.adapters.redis_client import connect
from kronikas.api import docs_pages
from kronikas.api.arena import ArenaController
from kronikas.api.hosts import Hosts
from kronikas.api.lane import Kronikas
from kronikas.api.logs import configure_logging
from kronikas.api.mcp import McpEndpoint
from kronikas.api.metrics import metrics_route
from kronikas.api.openapi import MendedJson
from kronikas.api.problems import handle_exception
from kronikas.api.records import RecordsController
from kronikas.api.routes import GamesController, send_command_inputs, within_limit
from kronikas.api.shapes import ApiWire
from kronikas.api.socket_route import close_all, seat_socket
from kronikas.api.system import SystemController
from kronikas.api.web import web_router
from kronikas.application.arena import Arena
from kronikas.application.engines import Registry
from kronikas.application.games import Games
from kronikas.collector import Pacer
from kronikas.config import Settings

log = logging.getLogger("kronikas.api")

_QUERY = re.compile(r"(?<=\S)\?(?:[^\s\"'<>\\]|\\u[0-9a-fA-F]{4})+")
"""A query string after a path or URL: up to a space, a quote, an angle bracket or a backslash
other than a JSON `\\uXXXX` escape, so a JSON line stays valid JSON."""


class WithoutQueryStrings(logging.Formatter):
    """Formats a record with another formatter, then drops every query string from the line.

    Tokens travel in query strings (`?token=` on the event stream, for `EventSource`): the
    service logs paths only, and this keeps any line that would hold more, a traceback's
    included, from writing it. Every handler the service sets up formats through it.
    """

    def __init__(self, inner: logging.Formatter | None = None) -> None:
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        line = self.inner.format(record)
        return _QUERY.sub("", line) if "?" in line else line  # the common line has none


def log_without_query_strings(logger: str = "kronikas") -> None:
    """Make each handler of `logger` format through `WithoutQueryStrings` (once)."""
    for handler in logging.getLogger(logger).handlers:
        if not isinstance(handler.formatter, WithoutQueryStrings):
            handler.setFormatter(WithoutQueryStrings(handler.formatter))


DESCRIPTION = """\
Krónikás serves card games of the 32-card Hungarian deck over HTTP: {games}.

Create a table, join it (each join returns a player token), let the host start it, then send
commands. Send a token as `Authorization: Bearer <token>`. Every view and event is redacted for
whoever asks: a seat sees its own cards, never another hidden card. Errors are
`application/problem+json` with a stable `code`.
"""


GC_THRESHOLDS = (5_000, 5, 1_000)
"""The collector's thresholds. A pass's pause grows with what it walks: the young generation
(each move's objects, and the tables the fold cache takes in, which live for minutes), and the
middle one, which gathers what survived the young passes since its last. At (20,000, 50, 100) a
young pass walked ~50,000 objects (20–290 ms of CPU) and a middle pass ~600,000 (0.65 s); at a
quarter and a tenth of those thresholds the longest passes are a third as long, for 10–60% more
of the collector's CPU in all (docs/performance.md, issue 43). A full pass still comes after 5,000
young passes at most, as before: it walks every table held. Passes come on a clock too
(`GC_PACE_MS`, kronikas/collector.py): CPython's count is of objects made less those freed,
which a full fold cache keeps low while the young generation grows."""

CONTROLLERS = (SystemController, GamesController, RecordsController, ArenaController)
"""The routes of the document."""


def openapi_config(wire: ApiWire) -> OpenAPIConfig:
    """The OpenAPI document's settings (served under `/schema`, the docs pages' assets too), for
    the games of `wire`."""
    mend = MendedJson([send_command_inputs(wire.Command)], wire.engines)
    return OpenAPIConfig(
        title="Krónikás",
        version=__version__,
        description=DESCRIPTION.format(
            games=", ".join(f"**{game.title}**" for game in wire.engines.values())
        ),
        path="/schema",
        create_examples=False,
        use_handler_docstrings=True,
        render_plugins=[*docs_pages.render_plugins(), mend],
        components=Components(
            security_schemes={
                "bearer": SecurityScheme(
                    type="http",
                    scheme="bearer",
                    description="A host token or a player token.",
                )
            }
        ),
    )


def redis_stores(redis: Any, settings: Settings) -> RedisStores:
    """The stores on `redis` as the settings make them: rate limits, replicas to confirm."""
    return RedisStores(
        redis,
        settings.rate_per_s,
        settings.rate_burst,
        settings.write_replicas,
        settings.write_wait_ms,
    )


def cors_config(settings: Settings) -> CORSConfig | None:
    """CORS for the browsers of `CORS_ORIGINS` (none: no CORS headers at all)."""
    return (
        CORSConfig(
            # `*` alone, or origins: an origin with a `*` in it, which the middleware would read
            # as a pattern, lets in nothing, as at /mcp and the seat socket (config.py).
            allow_origins=[o for o in settings.cors_origins if o == "*" or "*" not in o],
            allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
            allow_headers=[
                "Authorization",
                "Content-Type",
                "If-Match",
                "Idempotency-Key",
                "Last-Event-ID",
                # What a browser MCP client (the MCP Inspector) sends to /mcp.
                "Mcp-Protocol-Version",
                "Mcp-Session-Id",
            ],
            expose_headers=["Date", "ETag", "Retry-After", "X-Request-ID"],
            max_age=600,
        )
        if settings.cors_origins
        else None
    )


def create_app(
    settings: Settings | None = None,
    redis: Any = None,
    extra_routes: Sequence[ControllerRouterHandler] = (),
    *,
    games: Registry,
) -> Litestar:
    """Build the application.

    `redis` may be given (tests); otherwise it is made from settings. `extra_routes` are for
    tests and the benchmark only, never production. `games`: the games it runs, by kind (the
    composition root's `service_games()`, or a test's own registry); every per-game list of
    the app — the wire's unions and decoders, the OpenAPI document, `/v1/kinds`, the use cases
    — is made from it here, once, and nothing below has a registry of its own.
    """
    settings = settings or Settings.from_env()
    configure_logging(settings.log_level, settings.log_format)
    log_without_query_strings()
    wire = ApiWire(games)
    wire.kinds  # noqa: B018 - made now, not on the first request
    state = State({"settings": settings, "redis": redis, "wire": wire, "sockets": set()})

    async def on_startup(app: Litestar) -> None:
        if app.state.redis is None:
            app.state.redis = connect(settings)
        stores = redis_stores(app.state.redis, settings)
        app.state.stores = stores
        notifier = Notifier(app.state.redis)
        notifier.start()
        app.state.notifier = notifier
        arena_store = RedisArenaStore(app.state.redis)
        app.state.games = Games(stores, notifier, for_table, settings, games, arena=arena_store)
        app.state.games.run_clocks()
        app.state.arena = Arena(arena_store, app.state.games, settings)
        app.state.arena.run()
        if isinstance(app, Kronikas):
            app.games = app.state.games
        # What start-up made lives for ever: keep it out of the collector's way.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        if settings.gc_pace_ms:  # and on a clock: passes as small as the work of the moment
            app.state.pacer = Pacer(settings.gc_pace_ms / 1000)
            app.state.pacer.start()

    async def on_shutdown(app: Litestar) -> None:
        if pacer := app.state.get("pacer"):
            pacer.stop()
        close_all(app.state.sockets)  # 1001: reconnect to another worker or instance
        if isinstance(app, Kronikas):
            app.games = None
        if arena := app.state.get("arena"):
            await arena.stop()
        if games := app.state.get("games"):
            await games.stop_clocks()
        if notifier := app.state.get("notifier"):
            await notifier.stop()
        if stores := app.state.get("stores"):
            await stores.aclose()
        if redis is None and app.state.redis is not None:
            await app.state.redis.aclose()
        metrics.flush()  # the last second's counts, for the scrapes after this worker

    cors = cors_config(settings)
    # The web table (`web/`, at `/`) and the docs pages' assets: neither is in the document.
    pages: list[ControllerRouterHandler] = [docs_pages.assets_router()]
    if settings.web_dir:
        pages.append(web_router(settings.web_dir))
    # The MCP endpoint at /mcp (api/mcp/): the same use cases, as tools for LLM agents.
    mcp = (
        McpEndpoint(wire, settings, lambda: state.games, lambda: state.arena)
        if settings.mcp_enabled
        else None
    )
    if mcp is not None:
        pages.append(mcp.route())
    # `/metrics` (api/metrics.py): the process counts from now on, and serves what it counts.
    if settings.metrics_enabled:
        metrics.enable()
        pages.append(metrics_route(settings.metrics_token))
    app = Kronikas(
        route_handlers=[*CONTROLLERS, seat_socket, *pages, *extra_routes],
        state=state,
        on_startup=[on_startup],
        on_shutdown=[on_shutdown],
        lifespan=[mcp.running] if mcp is not None else [],
        exception_handlers={Exception: handle_exception},
        openapi_config=openapi_config(wire),
        signature_namespace=wire.namespace(),
        wire=wire,
        hosts=Hosts.of(settings),
        cors_config=cors,
        request_max_body_size=settings.max_body_bytes,
        before_request=within_limit,
        logging_config=None,
        debug=False,
    )
    return app
