"""Who may do what at a table: tokens (kept only as their hashes), their roles, and the seat a
role holds (`seat_in`, kept with the fold it is asked of: tables.py). Pure rules: the table
they are asked of comes from the repository (folds.py).

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
from kronikas.application.tables import HOST as HOST
from kronikas.application.tables import Fold, seat_in
from kronikas_rules.engine import tag_of


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


def role_of(role: str | None) -> str:
    """The role of a token the table knows; 401 for any other (`role` None)."""
    if role is None:
        raise Unauthorized("This token is not one of this table's.")
    return role


def as_host(role: str | None, may: str) -> None:
    """401 for a token the table does not know (`role` None, `role_of`); 403 unless `role` is
    the host's (`may`: what only the host may do, for the refusal)."""
    if role_of(role) != HOST:
        raise Forbidden(f"Only the host token may {may}.")


def may_send(table: Fold, role: str, command: msgspec.Struct) -> None:
    """Whether `role` may send `command` at the table at all: 403 for the host's token, 422 for
    a command of another game."""
    if role == HOST:
        raise Forbidden("The host token cannot play: join the table for a player token.")
    if not table.engine.accepts(command):
        raise InvalidRequest(
            f"A {tag_of(type(command))!r} command is not a command of {table.kind}."
        )


def mover(table: Fold, role: str | None, command: msgspec.Struct, seat: int | None) -> int | None:
    """The seat from which a token of `role` sends `command` at the table (`seat`: the one the
    repository found its role holds there): 401 for a token the table does not know
    (`role_of`), 403 and 422 as `may_send`; 401 when its player has no seat there (`seated`)."""
    may_send(table, role_of(role), command)
    return seated(seat, role)


def seat_of(table: Fold, role: str | None) -> int | None:
    """The seat `role` holds in the table (`seat_in`); 401 when its player left (`seated`)."""
    return seated(seat_in(table.engine, table.state, role), role)


def seated(seat: int | None, role: str | None) -> int | None:
    """The seat a role holds (`seat`, looked up in the state an answer is made from; None: the
    host, a spectator); 401 when its player left the table before the start, whatever it had
    opened before."""
    if seat is None and role is not None and role != HOST:
        raise Unauthorized("This token's player left the table before it started.")
    return seat
