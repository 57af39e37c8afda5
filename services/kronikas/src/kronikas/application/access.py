"""Who may do what at a table: tokens (kept only as their hashes), their roles, and the seat a
role holds.

A token's role never changes once issued: `host`, or `p:<player id>` for a player (a seat
number for tables made before players could leave). Identity is the player, never the seat:
seats move down when a player leaves before the start, so a role's seat is looked up in the
state each answer or delivery is made from.
"""

from __future__ import annotations

import hashlib
import secrets

import msgspec

from kronikas.application.errors import Forbidden, InvalidRequest, Unauthorized
from kronikas.application.folds import Folds
from kronikas.application.ids import table_id
from kronikas.application.tables import Table
from kronikas.domain.engine import Rules, tag_of

HOST = "host"
"""The role of a table's host token."""


def new_token(prefix: str) -> str:
    """An unguessable token: 192 random bits."""
    return f"{prefix}_{secrets.token_urlsafe(24)}"


def hash_token(token: str) -> str:
    """Tokens are kept, compared and cached only as their SHA-256."""
    return hashlib.sha256(token.encode()).hexdigest()


def player_role(player_id: str) -> str:
    """The role of a player's token: its player id, whose seat the state knows (seats move
    down when a player leaves before the start)."""
    return f"p:{player_id}"


def player_of_role(role: str | None) -> str | None:
    """The player id a role names, or None for the host and spectators (and the seat-number
    roles of old tables)."""
    return role[2:] if role is not None and role.startswith("p:") else None


def seat_in(rules: Rules, state: object, role: str | None) -> int | None:
    """The seat `role` holds in `state`: None for the host and spectators (no role), and for a
    player who left before the start.

    Identity is the player, never the seat: seats move down when a player leaves before the
    start, so a seat is looked up for every delivery, in the state it is made from. Tables made
    before players could leave gave a token its seat number as its role (seats never moved).
    """
    if role is None or role == HOST:
        return None
    if (player_id := player_of_role(role)) is not None:
        return rules.seat_of(state, player_id)
    return int(role)


def seat_of_role(table: Table, role: str | None) -> int | None:
    """The seat `role` holds in the table as this process holds it now (`seat_in`), looked up
    once a state: each stream of the table asks for every frame."""
    if role is None:
        return None
    if table.seats_in is not table.state:
        table.seats.clear()
        table.seats_in = table.state
    try:
        return table.seats[role]
    except KeyError:
        seat = table.seats[role] = seat_in(table.engine, table.state, role)
        return seat


def seated(table: Table, role: str | None) -> int | None:
    """The seat a reader's role holds now (None: the host, a spectator); 401 when its player
    left the table before the start, whatever it had opened before."""
    seat = seat_of_role(table, role)
    if seat is None and role is not None and role != HOST:
        raise Unauthorized("This token's player left the table before it started.")
    return seat


class Access:
    """The tables a token may act on or read, and as whom (401, 403), from the folds held here
    (a token this process has seen at a table is not asked about again)."""

    def __init__(self, folds: Folds) -> None:
        self.folds = folds

    async def authorised(self, game_id: str, token_hash: str) -> tuple[Table, bool]:
        """The table and whether it was just read; 401 when the token is not of this table."""
        folds = self.folds
        table = folds.cache.get(game_id)
        if table is not None and token_hash in table.roles:
            return table, False
        table = await folds.load(game_id, token_hash, rate=False)
        if token_hash not in table.roles:
            raise Unauthorized("This token is not one of this table's.")
        return table, True

    async def host(self, game_id: str, token: str, may: str) -> tuple[Table, bool]:
        """The table of a host token, and whether it was just read; 403 for any other token of
        the table (`may`: what only the host may do, for the refusal)."""
        token_hash = hash_token(token)
        table, fresh = await self.authorised(game_id, token_hash)
        if table.roles[token_hash] != HOST:
            raise Forbidden(f"Only the host token may {may}.")
        return table, fresh

    async def mover(
        self, game_id: str, token_hash: str, command: msgspec.Struct
    ) -> tuple[Table, bool, str]:
        """The table, whether it was just read, and the role of a player's token that may send
        `command`: 403 for the host's, 422 for a command of another game, 401 once its player
        left before the start."""
        table, fresh = await self.authorised(game_id, token_hash)
        role = table.roles[token_hash]
        if role == HOST:
            raise Forbidden("The host token cannot play: join the table for a player token.")
        if not table.engine.accepts(command):
            raise InvalidRequest(
                f"A {tag_of(type(command))!r} command is not a command of {table.kind}."
            )
        if seat_of_role(table, role) is None:  # left, or a seat this fold does not know yet
            table, fresh = await self.folds.load(game_id, rate=False), True
            seated(table, role)
        return table, fresh, role

    async def reader(
        self, game_id: str, token: str | None, cost: int = 1
    ) -> tuple[Table, str | None]:
        """The table and the reader's role: a player's (`p:<player id>`), or None for the host
        and spectators; 401 when the token is not the table's, or its player left before the
        start. The caller looks the seat up in the table it delivers from (`seated`). A token
        the table knows pays `cost`, from its bucket, in the read."""
        folds = self.folds
        if not token:  # a spectator: no role to learn, no rate to count (as a read without one)
            return await folds.followed(table_id(game_id)), None
        token_hash = hash_token(token)
        table = await folds.load(game_id, token_hash, cost=cost)
        role = table.roles.get(token_hash)
        if role is None:
            raise Unauthorized("This token is not one of this table's.")
        if role == HOST:
            return table, None
        seated(table, role)
        return table, role
