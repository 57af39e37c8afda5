"""What the MCP tools answer: typed results, whose schemas an agent reads (api/mcp/tools.py)."""

from typing import Any

from pydantic import BaseModel, Field

from kronikas.api.mcp.moves import Choice

EVENTS_MAX = 100
"""The most events one answer carries (an agent's context is not a log reader)."""


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
