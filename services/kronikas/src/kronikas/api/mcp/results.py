"""What the MCP tools answer (api/mcp/tools.py): typed results, dumped as the JSON an agent
reads. The tools declare no output schema: what each answer holds is said once, in the tools'
descriptions, the prompt and docs/api.md (MCP), so that `tools/list` stays small."""

from typing import Any

from pydantic import BaseModel

from kronikas.api.mcp.moves import Choice, Combination

EVENTS_MAX = 100
"""The most events one answer carries (an agent's context is not a log reader)."""


class Seat(BaseModel):
    """A table as the token's seat sees it now, with what the seat may send written out:
    `moves` (commands ready for `make_move`), `choices` (moves too many to list: a `Choice` or
    a `Combination`), `seating`
    (`leave`, `back`); `may_act` (a move of the game is legal now, perhaps out of turn),
    `your_turn` (the table waits for this seat), `deadline` (RFC 3339, or null)."""

    version: int
    status: str
    seat: int | None
    may_act: bool
    your_turn: bool
    deadline: str | None
    moves: list[dict[str, Any]]
    choices: list[Choice | Combination]
    seating: list[str]


class SeatView(Seat):
    """The table with its id and its whole view (docs/api.md, The view), and `about`: each move
    type that `moves`, `choices` and `seating` hold, explained in one line."""

    table_id: str
    view: dict[str, Any]
    about: dict[str, str]


class Moved(Seat):
    """The events after a version the agent knew (oldest first, at most `EVENTS_MAX`; `more`
    when more followed; without the deal's proofs, `tools.PROOFS`), then the table now with its
    view in short (`Sight.brief`); not the table's id, which the call named."""

    events: list[dict[str, Any]]
    more: bool
    view: dict[str, Any]


class Events(BaseModel):
    """A table's events after a version, as the token may see them."""

    table_id: str
    version: int
    events: list[dict[str, Any]]
    more: bool


class Record(BaseModel):
    """A page of a table's account in words (docs/api.md, Records), as the token may see it:
    the events after `after_version` up to `version`; `more` when more followed."""

    table_id: str
    after_version: int
    version: int
    more: bool
    account: str


class Opened(BaseModel):
    """A new table, with its house seats, and the host token that alone starts it."""

    table_id: str
    host_token: str
    house_seats: list[int]
    view: dict[str, Any]


class Joined(SeatView):
    """A seat taken: its token, and whether the table deals from a seed its creator gave."""

    player_id: str
    token: str
    seeded: bool


class Kinds(BaseModel):
    """The games this service runs: players, options, and each command with what it does."""

    kinds: list[dict[str, Any]]


class Tables(BaseModel):
    """A page of tables, newest first."""

    tables: list[dict[str, Any]]
    more: bool
