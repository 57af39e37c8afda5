"""A table's account in words (docs/api.md, Records): a page of its record, told by its game
(`Engine.account`) to the asker, for people and LLM agents — what `Accept: text/plain` on the
record and the MCP tool `record` answer.

The page is the record's: the same events, read and paid as an events page, redacted for the
asker's seat as its events page shows them; the game names no card those events do not show.
"""

from __future__ import annotations

from typing import NamedTuple

import msgspec

from kronikas.application.queries import Queries
from kronikas.application.session import seat_view, seen_after


class Account(NamedTuple):
    """A page of a table's account: its `text`, the table's `version` when it was read, and
    whether more events follow the page (`more`: page on after its last)."""

    text: str
    version: int
    more: bool


class _Player(msgspec.Struct):
    name: str
    house: bool = False


class _Table(msgspec.Struct):
    """What the account's head reads of the asker's view."""

    players: list[_Player]
    status: str
    seeded: bool


_table = msgspec.json.Decoder(_Table)


async def account(
    queries: Queries, game_id: str, token: str | None, after: int, limit: int, client: str | None
) -> Account:
    """The page after `after` (`limit` events at most) of the table's account, as the token's
    holder may see it; paid as an events page."""
    cost = queries.page_cost(game_id, after, limit)
    table, role = await queries.reader(game_id, token, client, cost)
    folds, engine = queries.folds, table.engine
    seat = folds.seated_now(table, role)
    seen, version = await seen_after(folds, table, after, limit)
    about = _table.decode(seat_view(table, seat).body)
    names = [p.name for p in about.players]
    told = engine.account([engine.redact(s.record.e, seat) for s in seen], seat, names)
    more = bool(seen) and seen[-1].version < version
    seated = ", ".join(
        f"seat {n + 1} {p.name}{' (house)' if p.house else ''}" for n, p in enumerate(about.players)
    )
    head = [
        f"{engine.title} table {game_id}: {about.status}"
        f"{', seeded' if about.seeded else ''}. Players: {seated or 'none yet'}.",
        "You watch as a spectator."
        if seat is None or seat >= len(names)
        else f"You are seat {seat + 1}, {names[seat]}.",
        f"Events {seen[0].version} to {seen[-1].version} of {version}."
        if seen
        else f"No events after {after} (the table is at version {version}).",
    ]
    tail = f"\nMore events follow: ask again after {seen[-1].version}.\n" if more else ""
    return Account("\n".join(head) + "\n\n" + told + tail, version, more)
