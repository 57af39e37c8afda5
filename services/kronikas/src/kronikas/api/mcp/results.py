"""What the MCP tools answer (api/mcp/tools.py): typed results, dumped as the JSON an agent
reads (`answer`), or a refusal as a tool error the model reads (`failed`); an event as the tools
give it (`told`), without the deal's proofs where they leave them out (`PROOFS`). The tools
declare no output schema: what each answer holds is said once, in the tools' descriptions, the
prompt and docs/api.md (MCP), so that `tools/list` stays small."""

import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from mcp_types import CallToolResult, TextContent
from pydantic import BaseModel

from kronikas import metrics
from kronikas.api.mcp.bounds import scrubbed
from kronikas.api.mcp.moves import Choice, Combination
from kronikas.api.problems import short
from kronikas.application.errors import ApiError, VersionMismatch
from kronikas_rules.common import DomainError, InvalidOptions

log = logging.getLogger("kronikas.mcp")

EVENTS_MAX = 100
"""The most events one answer carries (an agent's context is not a log reader)."""


def decoded(body: bytes) -> Any:
    """JSON the use cases made, as Python values."""
    return msgspec.json.decode(body)


PROOFS = frozenset({"openings", "commitment", "scheme", "deck_size"})
"""What the events of a move's or a wait's answer leave out: the proof of a fair deal
(docs/api.md, Fair deals), which decides no move and was half of some matches' bytes;
`get_events` gives the events with it."""


def told(event: bytes | dict[str, Any], left_out: frozenset[str] = frozenset()) -> dict[str, Any]:
    """An event as the tools give it: its `data` (whose `type` is the event's, without the
    game's prefix) with its `version`, without what is null (a card the seat may not see, a
    deck not yet revealed) or `left_out` names; not its time (`at`)."""
    whole = decoded(event) if isinstance(event, bytes) else event
    data: dict[str, Any] = whole["data"]
    kept = {k: v for k, v in data.items() if v is not None and k not in left_out}
    return {"version": whole["version"], **kept}


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
    when more followed; without the deal's proofs, `PROOFS`), then the table now with its
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


async def answer(
    work: Awaitable[BaseModel],
    refused: Callable[[], Awaitable[dict[str, Any]]] | None = None,
) -> CallToolResult:
    """The tool's result; a refusal as a tool error the model reads, with what `refused` adds
    (the legal moves, when a move was refused)."""
    try:
        result = await work
    except (ApiError, DomainError, InvalidOptions) as exc:
        problem = _problem(exc)
        if refused is not None and isinstance(exc, DomainError | VersionMismatch):
            problem.update(await refused())
        return failed(problem)
    except Exception:
        log.exception("unexpected failure in an MCP tool")
        return failed({"code": "internal", "detail": "An unexpected failure; it is logged."})
    data = result.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(type="text", text=_json(data))], structured_content=data
    )


def _problem(exc: Exception) -> dict[str, Any]:
    """The problem of a refusal, as the HTTP API's problem+json has its `code` and `detail`."""
    if isinstance(exc, ApiError):
        metrics.answered(exc.code, "mcp")
        problem: dict[str, Any] = {"code": exc.code, "detail": exc.detail}
        if (retry := exc.retry_after) is not None:
            problem["retry_after_s"] = retry
        return problem
    if isinstance(exc, DomainError):
        return {"code": exc.code, "detail": exc.detail}
    return {"code": "invalid_request", "detail": str(exc)}


def failed(problem: dict[str, Any]) -> CallToolResult:
    """A tool error the model reads: the problem as JSON, its texts cut short and scrubbed."""
    problem["detail"] = short(scrubbed(str(problem.get("detail", ""))))
    return CallToolResult(content=[TextContent(type="text", text=_json(problem))], is_error=True)


def _json(data: Any) -> str:
    """JSON as an agent reads it: no byte it does not need."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
