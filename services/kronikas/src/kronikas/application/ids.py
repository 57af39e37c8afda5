"""Table ids: what `create` makes, and the refusal of any other (docs/api.md, Table ids)."""

from __future__ import annotations

import re

from kronikas.application.errors import NotFound

GAME_ID = re.compile(r"[0-9a-f]{16}")
"""What `create` makes; anything else names no table (and could break a cluster's hash tag)."""
NO_TABLE = "There is no table {!r}."
"""The refusal of an id that names no table (quoted when no longer than `GAME_ID_MAX`)."""
GAME_ID_MAX = 64
"""The longest id a path may carry that is quoted back in a refusal (and the document's bound)."""


def is_table_id(game_id: str) -> bool:
    """Whether `game_id` could name a table (one `create` made)."""
    return GAME_ID.fullmatch(game_id) is not None


def no_table(game_id: str) -> NotFound:
    """404 for a table id that names no table; one longer than `GAME_ID_MAX` is not quoted."""
    if len(game_id) > GAME_ID_MAX:
        return NotFound("There is no table with an id that long.")
    return NotFound(NO_TABLE.format(game_id))


def table_id(game_id: str) -> str:
    """`game_id` when it could name a table; else 404 (`no_table`)."""
    if GAME_ID.fullmatch(game_id) is None:
        raise no_table(game_id)
    return game_id
