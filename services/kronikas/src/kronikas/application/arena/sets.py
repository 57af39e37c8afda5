"""A set's tables: made, seated and started through the application's own use cases (create,
join, seat the house, start), dealing from the set's secret; and read back when they finish."""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from kronikas.application.arena.entrants import STANDING_NAMES, Entrants
from kronikas.application.arena.matchmaking import standing_of
from kronikas.application.arena.ports import ArenaStore
from kronikas.application.commands import new_table_id
from kronikas.application.deals import ArenaDeal
from kronikas.application.errors import NotFound
from kronikas.application.games import Games
from kronikas.config import Settings
from kronikas_rules import duplicate

SEAT_NAME_MAX = 32
"""A seat's name at a table (the tables' own limit)."""


class TableGone(Exception):
    """A table of a set whose log is no more: the set can never be rated."""


class Seat(msgspec.Struct, frozen=True):
    """A real entrant's seat at a table of a set, for it alone."""

    table_id: str
    seat: int
    token: str


class _Created(msgspec.Struct):
    host_token: str
    game: dict[str, object]


class _Joined(msgspec.Struct):
    seat: int
    token: str


_created = msgspec.json.Decoder(_Created).decode
_joined = msgspec.json.Decoder(_Joined).decode
encode_seat = msgspec.json.Encoder().encode
decode_seat = msgspec.json.Decoder(Seat).decode


def seat_name(name: str, taken: set[str]) -> str:
    """An entrant's name as a table seats it: cut to the tables' limit, and made unique there."""
    base = name[:SEAT_NAME_MAX].strip() or "Entrant"
    candidate, n = base, 1
    while candidate.casefold() in taken:
        n += 1
        suffix = f" #{n}"
        candidate = base[: SEAT_NAME_MAX - len(suffix)] + suffix
    taken.add(candidate.casefold())
    return candidate


def arena_options(games: Games, kind: str, settings: Settings) -> msgspec.Struct:
    """The arena's fixed options of a game: its defaults, and a clock on every seat."""
    options = games.engines[kind].options()
    fields = {f.name for f in msgspec.structs.fields(options)}
    if "turn_seconds" in fields:
        options = msgspec.structs.replace(options, turn_seconds=settings.arena_turn_s)
    return options


class SetTables:
    """Opens a set's tables, and reads a finished table's places."""

    def __init__(
        self, games: Games, store: ArenaStore, entrants: Entrants, settings: Settings
    ) -> None:
        self.games, self.store, self.entrants, self.settings = games, store, entrants, settings

    async def open(self, set_id: str, kind: str, players: int, seats: list[list[str]]) -> list[str]:
        """Make the set's `players` tables, seat them as `seats` says and start them; keep each
        real entrant's seat for it. Answers the tables' ids."""
        games, store = self.games, self.store
        secret = duplicate.new_secret().hex()
        options = arena_options(games, kind, self.settings)
        tables: list[str] = []
        kept: dict[str, bytes] = {}
        for j, row in enumerate(seats):
            random_seats = tuple(
                s for s, e in enumerate(row) if (standing_of(e) or ("", ""))[0] == "random"
            )
            deal = ArenaDeal(set_id, j, players, secret, random_seats)
            # out of the lobby before it is made: no client finds it open, to join it
            game_id = new_table_id()
            await store.add_tables([game_id], set_id)
            created = _created(await games.create(kind, options, None, deal, game_id))
            tables.append(game_id)
            taken: set[str] = set()
            for entrant_id in row:
                standing = standing_of(entrant_id)
                if standing is not None:
                    name = seat_name(STANDING_NAMES[standing[0]], taken)
                    await games.seat_house(game_id, created.host_token, name)
                    continue
                entrant = await self.entrants.get(entrant_id)
                name = seat_name(entrant.name, taken)
                joined = _joined(await games.join(game_id, name, arena=True))
                kept[entrant_id] = encode_seat(Seat(game_id, joined.seat, joined.token))
            await games.start(game_id, created.host_token)
        await store.keep_seats(set_id, kept, self.settings.open_ttl_s)
        return tables

    async def places(self, table_id: str) -> list[float] | None:
        """Each seat's place at a finished table; None while it plays; `TableGone` when its
        log is no more (it lapsed, or the store lost it)."""
        games = self.games
        try:
            table = await games.folds.load(table_id, rate=False)
        except NotFound:
            raise TableGone(table_id) from None
        if not table.engine.is_terminal(table.state):
            return None
        read = await games.stores.log.read(table_id, 0, "", table.version, rate=False)
        codec = games.folds.codec
        events: Sequence[msgspec.Struct] = [codec.decode(table.kind, r).e for r in read.records]
        places: list[float] = table.engine.places(events)
        return places
