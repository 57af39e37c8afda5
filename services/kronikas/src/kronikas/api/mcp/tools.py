"""The tools an agent plays with (docs/api.md, MCP): each one a use case of `Games`, the façade
every transport goes through, so it pays the same rate limits and holds the same places as the
HTTP route that does the same; nothing here knows a game but through its engine.

A tool answers a typed result, or a tool error the model reads (`is_error`: api/mcp/results.py,
`answer`). Nothing here logs a tool's arguments, and no answer but the two that
hand one out (open a table, join one) holds a token.
"""

import time
from collections.abc import Callable
from typing import Any

import msgspec
from mcp.server.mcpserver import Context

from kronikas.api import inputs
from kronikas.api.client import client_address
from kronikas.api.mcp.moves import explained, written_out
from kronikas.api.mcp.results import (
    EVENTS_MAX,
    PROOFS,
    Events,
    Joined,
    Kinds,
    Moved,
    Opened,
    Record,
    Seat,
    SeatView,
    Tables,
    decoded,
    told,
)
from kronikas.api.shapes import ApiWire
from kronikas.application.errors import ApiError, InvalidRequest, Unauthorized, quoted
from kronikas.application.games import Delivered, Games, Sight
from kronikas_rules.common import DomainError
from kronikas_rules.seating import Leave

WAIT_MAX_S = 25
"""The longest a `wait` holds its call: below the 30 s a client's HTTP stack commonly allows."""

# --- The tools -------------------------------------------------------------------------------


class Tools:
    """The tools over one app's use cases. `games` is asked for at each call: the app makes
    its use cases when it starts, after the tools are registered."""

    def __init__(self, wire: ApiWire, games: Callable[[], Games]) -> None:
        self.wire = wire
        self._games = games
        self.about = {kind: explained(game.commands) for kind, game in wire.engines.items()}
        """Each game's command types, each explained in one line."""

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
        return self.seat_view(await self.games.look(game_id, token, client))

    async def now(self, game_id: str, token: str | None, at_least: int = 0) -> SeatView:
        """The table as the token's seat sees it after a call that already paid and let the
        token in (a move, a start): from the table this process holds, read when older than
        `at_least`; the view without its `openings`, which `get_view` gives."""
        return self.seat_view(await self.games.seen(game_id, token, at_least), proofs=False)

    def seat_view(self, sight: Sight, proofs: bool = True) -> SeatView:
        """The viewer's whole view (without its `openings` unless `proofs`), its legal moves
        written out, each move type explained."""
        seat = self.seat(sight)
        types = [*(m["type"] for m in seat.moves), *(c.type for c in seat.choices), *seat.seating]
        about = self.about[sight.kind]
        view = decoded(sight.body)
        if not proofs:
            view.pop("openings", None)
        return SeatView(
            **dict(seat),
            table_id=sight.game_id,
            view=view,
            about={kind: about[kind] for kind in dict.fromkeys(types) if kind in about},
        )

    @staticmethod
    def seat(sight: Sight) -> Seat:
        """What the viewer may do now, its legal moves written out for an agent."""
        moves, choices = written_out(sight.moves())
        same = ("version", "status", "seat", "may_act", "deadline", "seating")
        return Seat(
            your_turn=sight.waited_for,
            moves=moves,
            choices=choices,
            **{name: getattr(sight, name) for name in same},
        )

    @classmethod
    def moved(cls, caught: tuple[Sight, list[Delivered], bool]) -> Moved:
        """The events since a version and the table now, its view in short (`Sight.brief`)."""
        sight, delivered, more = caught
        events = [told(d.json, PROOFS) for d in delivered[:EVENTS_MAX]]
        return Moved(
            **dict(cls.seat(sight)),
            events=events,
            more=more or len(delivered) > EVENTS_MAX,
            view=sight.brief(),
        )

    # The tools ----------------------------------------------------------------------------

    async def list_games(self) -> Kinds:
        kinds: list[dict[str, Any]] = msgspec.to_builtins(self.wire.kinds)["kinds"]
        for kind in kinds:  # each command with what it does
            about = self.about.get(kind["kind"], {})
            kind["commands"] = {name: about.get(name, "") for name in kind["commands"]}
        return Kinds(kinds=kinds)

    async def list_tables(
        self, kind: str | None, status: str | None, limit: int, offset: int, ctx: Context
    ) -> Tables:
        if kind is not None and kind not in self.wire.engines:
            raise InvalidRequest(f"kind: no game is called {quoted(kind)}.")
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
        created = decoded(await games.create(kind, request.options, request.seed))
        host_token: str = created["host_token"]
        game_id: str = created["game"]["id"]
        view = created["game"]
        seats = []
        for number in range(1, house_players + 1):
            if client is not None:
                await games.admit(client)
            seated_house = decoded(await games.seat_house(game_id, host_token, f"House {number}"))
            seats.append(seated_house["seat"])
            view = seated_house["game"]
        return Opened(table_id=game_id, host_token=host_token, house_seats=seats, view=view)

    async def join_table(self, game_id: str, name: str, ctx: Context) -> Joined:
        client = self.client(ctx)
        if client is not None:
            await self.games.admit(client)
        joined = decoded(await self.games.join(game_id, inputs.name(name)))
        token: str = joined["token"]
        seat = await self.now(game_id, token)
        seeded: bool = joined["game"]["seeded"]
        return Joined(player_id=joined["player_id"], token=token, seeded=seeded, **dict(seat))

    async def start_table(
        self, game_id: str, host_token: str | None, token: str | None, ctx: Context
    ) -> SeatView:
        """Start the table; answer the table as `token`'s seat sees it (the host's own seat
        when it sits), else as a spectator does. The seat's token is checked first (a read,
        paid), so that a wrong one changes nothing."""
        host = self.token(host_token, ctx)
        assert host is not None
        viewer = self.token(token, ctx, required=False) if token or host_token else None
        client = self.client(ctx)
        if viewer is not None and viewer != host:
            await self.games.look(game_id, viewer, client)
        answer = await self.games.start(game_id, host, client)
        return await self.now(game_id, viewer, answer.version)

    async def get_view(self, game_id: str, token: str | None, ctx: Context) -> SeatView:
        return await self.look(game_id, self.token(token, ctx, required=False), self.client(ctx))

    async def make_move(
        self,
        game_id: str,
        move: dict[str, Any],
        token: str | None,
        expected_version: int | None,
        idempotency_key: str | None,
        since: int | None,
        ctx: Context,
    ) -> Moved:
        client = self.client(ctx)
        games = self.games
        seat_token: str | None = None
        try:  # a move refused before it reaches the table is paid for too, as over HTTP
            seat_token = self.token(token, ctx)
            key = inputs.idempotency_key(idempotency_key)
            inputs.expected_version(expected_version)
            try:
                command = self.wire.commands.decode(msgspec.json.encode(move))
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                raise InvalidRequest(str(exc)) from None
        except ApiError:
            await games.refused(game_id, seat_token, client)
            raise
        assert seat_token is not None
        answer = await games.command(
            game_id,
            seat_token,
            command,
            msgspec.json.encode(command),
            if_match=expected_version,
            idempotency_key=key,
            client=client,
        )
        # The events from before the move are the agent's to pay for, as `get_events` pays;
        # the move's own and what followed it come with the move.
        made = len(decoded(answer.body)["events"])
        before = answer.version - made if expected_version is None else expected_version
        after = before if since is None else since
        if after < before:
            return self.moved(
                await games.read_since(game_id, seat_token, after, client, EVENTS_MAX)
            )
        return self.moved(await games.caught_up(game_id, seat_token, after, answer.version))

    async def leave_table(self, game_id: str, token: str | None, ctx: Context) -> Moved:
        client = self.client(ctx)
        try:  # paid for when refused, as a move is
            seat_token = self.token(token, ctx)
        except ApiError:
            await self.games.refused(game_id, None, client)
            raise
        assert seat_token is not None
        leave = Leave()
        answer = await self.games.command(
            game_id, seat_token, leave, msgspec.json.encode(leave), client=client
        )
        made = len(decoded(answer.body)["events"])
        try:
            caught = await self.games.caught_up(
                game_id, seat_token, answer.version - made, answer.version
            )
        except Unauthorized:  # left before the start: the token holds no seat any more
            caught = await self.games.caught_up(game_id, None, answer.version - made)
        return self.moved(caught)

    async def wait(
        self, game_id: str, token: str | None, after_version: int, timeout_s: float, ctx: Context
    ) -> Moved:
        seat_token = self.token(token, ctx)
        assert seat_token is not None
        client = self.client(ctx)
        games = self.games
        started = time.monotonic()
        caught = await games.read_since(game_id, seat_token, after_version, client, EVENTS_MAX)
        sight, delivered, _ = caught
        idle = not delivered and not sight.waited_for and sight.status != "finished"
        if idle and timeout_s > 0:  # a long-poll: it holds a place of the token's and address's
            left = max(0.0, timeout_s - (time.monotonic() - started))
            page = decoded(
                await games.events(game_id, seat_token, after_version, left, client, EVENTS_MAX)
            )
            caught = await games.caught_up(game_id, seat_token, after_version, page["version"])
        return self.moved(caught)

    async def get_events(
        self, game_id: str, token: str | None, after_version: int, ctx: Context
    ) -> Events:
        seat_token, client = self.token(token, ctx, required=False), self.client(ctx)
        page = decoded(
            await self.games.events(game_id, seat_token, after_version, 0, client, EVENTS_MAX)
        )
        events = [told(event) for event in page["events"]]
        return Events(table_id=game_id, version=page["version"], events=events, more=page["more"])

    async def record(
        self, game_id: str, token: str | None, after_version: int, ctx: Context
    ) -> Record:
        """The table's account in words after a version, paid as `get_events` pays."""
        token = self.token(token, ctx, required=False)
        told = await self.games.account(game_id, token, after_version, EVENTS_MAX, self.client(ctx))
        return Record(
            table_id=game_id,
            after_version=after_version,
            version=told.version,
            more=told.more,
            account=told.text,
        )

    async def still_legal(self, game_id: str, token: str | None, ctx: Context) -> dict[str, Any]:
        """What the seat may send instead of a refused move (read without paying again: the
        refusal was paid)."""
        try:
            seat = await self.now(game_id, self.token(token, ctx))
        except (ApiError, DomainError):
            return {}
        return {
            "version": seat.version,
            "may_act": seat.may_act,
            "moves": seat.moves,
            "choices": [c.model_dump(mode="json") for c in seat.choices],
            "seating": seat.seating,
        }
