"""The wire's JSON, in one module: how events are kept in the log (the `Record` envelope, and
the time it carries), the shapes of docs/api.md that carry views and events (made from a registry
of games, `Wire`), and the bytes of every answer.

The application makes the answers' bytes itself because the atomic append records the first
answer, so an idempotent retry gets it again byte for byte; the API sends the bytes as they are.
Each shape that names games is made once for each app (`Wire`), for the document and the
decoders; the answers' bytes are written here without them, field by field in the same order
(an encoder never checks a type: any game's view and event encode alike).
"""

from __future__ import annotations

import functools
import time
import types
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Annotated, Any, Generic, NamedTuple, TypeVar, Union

import msgspec

from kronikas.application.deals import ArenaDeal
from kronikas.application.engines import Registry
from kronikas_rules.engine import Rules, View, tag_of
from kronikas_rules.proofs import Opening

_encoder = msgspec.json.Encoder()

# --- Records: how the log keeps an event, and its time -------------------------------------

E = TypeVar("E")


class Record(msgspec.Struct, Generic[E], frozen=True, omit_defaults=True, gc=False):
    """A stored event: version, time, and on the first record the table's kind and seed.

    Not tracked by the collector (`gc=False`): a record refers to its event and strings, never
    back, so it is in no cycle; a table the fold cache holds keeps tens of them for minutes, and
    each pass of the collector walked them (docs/performance.md, issue 43)."""

    v: int
    at: str
    e: E
    k: str | None = None
    seed: int | None = None
    n: str | None = None
    """On the first record of each append: a nonce unique to it, so an append can know its own."""
    i: str | None = None
    """On the first record of an append made under an idempotency key: the key's record
    (tables.key_mark). Never on the wire: a viewer's event is made from `v`, `at` and `e`."""
    a: ArenaDeal | None = None
    """On the first record of an arena table: its deal (`ArenaDeal`). Never on the wire."""


_second: tuple[int, str] = (-1, "")


def utc_now() -> str:
    """The current time as RFC 3339 UTC with milliseconds (`2026-11-29T17:09:36.123Z`)."""
    return utc_text(time.time_ns() // 1_000_000)


def utc_text(ms: int) -> str:
    """Epoch milliseconds as RFC 3339 UTC with milliseconds (`2026-11-29T17:09:36.123Z`).

    Called on every command: the text of the current second is made once a second.
    """
    global _second
    second, fraction = divmod(ms, 1000)
    if _second[0] != second:
        _second = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{_second[1]}.{fraction:03d}Z"


def ms_of(at: str) -> int:
    """Milliseconds since the epoch of a time written by `utc_now`."""
    return int(datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp() * 1000)


def encode(record: Record[msgspec.Struct]) -> bytes:
    """A record's stored bytes."""
    return _encoder.encode(record)


# --- The shapes of the answers that carry views and events ---------------------------------


def wire_type(kind: str, tag: str) -> str:
    """An event's `type` on the wire: its stored tag named by its game (`<kind>.round_dealt`).

    The log keeps the bare tags (`round_dealt`), which collide across games; the wire names
    them at the edge, so logs written before the names changed load and play on.
    """
    return f"{kind}.{tag}"


def camel(name: str) -> str:
    """`round_dealt` as `RoundDealt`: how wire type names are made from tags and kinds."""
    return "".join(part.capitalize() for part in name.split("_"))


def _first_sentence(cls: type) -> str:
    return " ".join((cls.__doc__ or "").split()).split(". ")[0].rstrip(".")


FINAL = Annotated[
    bool,
    msgspec.Meta(
        description="There, and true, on the event that ends the match (the game's last): "
        "nothing follows it."
    ),
]


@functools.cache
def envelope(kind: str, cls: type[msgspec.Struct], final: bool = False) -> type[msgspec.Struct]:
    """The wire struct of a `kind` table's event of class `cls` (made once, whichever registry
    asks): `version`, `at` and the event's fields as `data`, tagged `<kind>.<tag>`."""
    tag = tag_of(cls)
    made = msgspec.defstruct(
        f"{camel(kind)}{camel(tag)}Event",
        [
            ("version", Annotated[int, msgspec.Meta(description="1, 2, 3… without gaps.")]),
            ("at", Annotated[str, msgspec.Meta(description="When, as RFC 3339 UTC.")]),
            ("data", cls),  # the event's fields as the asker may see them
            *([("final", FINAL, True)] if final else []),
        ],
        tag_field="type",
        tag=wire_type(kind, tag),
        frozen=True,
        module=__name__,
    )
    made.__doc__ = (
        f"`{wire_type(kind, tag)}`: {_first_sentence(cls)}. `data` holds its fields as "
        "the asker may see them (hidden ones are null)."
    )
    return made


_ENVELOPES: dict[str, dict[type, Callable[..., msgspec.Struct]]] = {}
"""`envelope`'s answers by kind and class, as the hot path looks them up (two dict lookups)."""


def game_event(kind: str, version: int, at: str, event: msgspec.Struct) -> msgspec.Struct:
    """The wire form of `event`, a `kind` table's event (already redacted for its viewer)."""
    try:
        made = _ENVELOPES[kind][type(event)]
    except KeyError:
        made = _ENVELOPES.setdefault(kind, {})[type(event)] = envelope(kind, type(event))
    return made(version=version, at=at, data=event)


EVENT_PAGE = 500
"""The most events one page holds; clients page on with `after`."""
VIEWS_PAGE = 50
"""The most past views one page holds (`GET /v1/games/{id}/views`); clients page on with `after`."""
VIEWS_DEFAULT = 20
"""How many past views a page holds when the client does not say."""
TABLE_FIELDS = ("id", "options", "seeded", "players", "status")
"""What a record says of its table (`RecordTable`) besides its kind: as the view says it."""


@functools.cache
def record_table(kind: str, view: type[msgspec.Struct]) -> type[msgspec.Struct]:
    """The table a `kind` table's record describes: the fields `TABLE_FIELDS` of its view (of
    class `view`), tagged by `kind` as the view is."""
    types_of = {f.name: f.type for f in msgspec.structs.fields(view)}
    made = msgspec.defstruct(
        f"{camel(kind)}RecordTable",
        [(name, types_of[name]) for name in TABLE_FIELDS],
        tag_field="kind",
        tag=kind,
        frozen=True,
        module=__name__,
    )
    made.__doc__ = "The table a record is of: its kind, options and players, as its view says."
    return made


def _described(kind: Any, description: str) -> Any:
    return Annotated[kind, msgspec.Meta(description=description)]


class Wire:
    """The answers that carry views and events, for the games of one registry: their unions
    (`GameView`, `GameEvent`) and the structs that hold them, as the OpenAPI document names
    them. Made once for each app, from the registry the app factory is given."""

    def __init__(self, engines: Registry) -> None:
        self.engines = engines
        for kind, game in engines.items():  # the hot path's lookup, with each game's end marked
            made = _ENVELOPES.setdefault(kind, {})
            for cls in game.events:
                made[cls] = envelope(kind, cls, cls is game.end_event)
        self.GameView: Any = Annotated[
            Union[tuple(game.view_type for game in engines.values())],  # noqa: UP007
            msgspec.Meta(description="A table as the asker may see it; `kind` says which game."),
        ]
        self.GameEvent: Any = Annotated[
            Union[  # noqa: UP007
                tuple(
                    envelope(kind, cls, cls is game.end_event)
                    for kind, game in engines.items()
                    for cls in game.events
                )
            ],
            msgspec.Meta(
                description="One change to a table, as the asker may see it (docs/api.md, "
                "Events): `type` names the game and the event (`<kind>.round_dealt`), `data` "
                "holds its fields."
            ),
        ]
        self.CommandResult = struct_of(
            "CommandResult",
            "A command's outcome: the new version, its events and the table, as the mover "
            "sees them; the table's `openings` empty, as the events (these and those before) "
            "brought them to the mover.",
            [("version", int), ("events", list_of(self.GameEvent)), ("game", self.GameView)],
        )
        self.EventPage = struct_of(
            "EventPage",
            f"Events after a version (at most {EVENT_PAGE} a page), and the table's current "
            "version.",
            [
                (
                    "events",
                    Annotated[
                        list_of(self.GameEvent),
                        msgspec.Meta(
                            description=f"At most {EVENT_PAGE} events, oldest first; when "
                            "`more` is true, ask again with `after` set to the last one's "
                            "version."
                        ),
                    ],
                ),
                (
                    "version",
                    Annotated[
                        int, msgspec.Meta(description="The table's version when it was read.")
                    ],
                ),
                (
                    "more",
                    Annotated[
                        bool,
                        msgspec.Meta(
                            description="True when events after this page exist: the page "
                            f"was cut at {EVENT_PAGE} events."
                        ),
                    ],
                ),
            ],
        )
        self.GameRecord, self.PastViews = replay_types(engines, self.GameEvent, self.GameView)
        self.Created = struct_of(
            "Created",
            "A new table and the host token that may start it.",
            [("game", self.GameView), ("host_token", str)],
        )
        self.Joined = struct_of(
            "Joined",
            "A seat taken: the player's id, seat and token, and the table as they see it.",
            [("player_id", str), ("seat", int), ("token", str), ("game", self.GameView)],
        )
        self.HouseSeated = struct_of(
            "HouseSeated",
            "A house player seated: its id and seat, and the table as the host sees it. No "
            "token is handed out: nobody but the house plays that seat.",
            [("player_id", str), ("seat", int), ("game", self.GameView)],
        )


def replay_types(engines: Registry, event: Any, view: Any) -> tuple[Any, Any]:
    """The answers of a table's record (`GameRecord`) and of its past views (`PastViews`), for
    the games of `engines` whose events and views are `event` and `view` (`Wire`)."""
    record = struct_of(
        "GameRecord",
        "A table's record as the asker may see it, a page at a time (docs/api.md, Records): "
        "the table, its events as the asker's events page shows them, and every opening "
        "those events hold.",
        [
            (
                "table",
                Union[tuple(record_table(k, g.view_type) for k, g in engines.items())],  # noqa: UP007
            ),
            (
                "events",
                _described(
                    list_of(event),
                    f"At most `limit` (at most {EVENT_PAGE}) events after `after`, oldest "
                    "first, as `list_events` gives them to the asker.",
                ),
            ),
            (
                "openings",
                _described(
                    list[Opening],
                    "Every opening the page's events hold for the asker, in their order: "
                    "each proves one card against its deal's `commitment`.",
                ),
            ),
            ("version", _described(int, "The table's version when it was read.")),
            (
                "more",
                _described(bool, "True when events after this page exist: ask again with `after`."),
            ),
        ],
    )
    views = struct_of(
        "PastViews",
        "The views the asker was served at past versions of a table, one a version.",
        [
            (
                "views",
                _described(
                    list_of(view),
                    f"The view at each version after `after`, oldest first (at most "
                    f"{VIEWS_PAGE}), as the asker's token saw the table then.",
                ),
            ),
            ("version", _described(int, "The table's version when it was read.")),
            (
                "more",
                _described(bool, "True when later versions exist: ask again with `after`."),
            ),
        ],
    )
    return record, views


def list_of(item: Any) -> Any:
    """`list[item]` for an item type made at run time."""
    return types.GenericAlias(list, (item,))


def struct_of(name: str, doc: str, fields: list[tuple[str, Any]]) -> Any:
    """A frozen wire struct made at run time (its fields depend on the registry), documented:
    its docstring is its description in the OpenAPI document."""
    made = msgspec.defstruct(name, fields, frozen=True, module=__name__)
    made.__doc__ = doc
    return made


# --- The bytes of every answer ------------------------------------------------------------


class Answer(NamedTuple):
    """An answer's JSON body, the table's version it shows (the `ETag`), and for a command's
    answer the version of its first event (0: a view, or a change that appended nothing)."""

    body: bytes
    version: int
    first: int = 0


class Delivered(NamedTuple):
    """An event for a stream: its version, type and JSON as the stream's viewer sees it."""

    version: int
    type: str
    json: bytes


class _Version(msgspec.Struct):
    version: int


_version = msgspec.json.Decoder(_Version)


def version_of(body: bytes) -> int:
    """The version a recorded command answer shows (replays only: a fresh answer knows its own)."""
    return _version.decode(body).version


def event_json(
    rules: Rules, kind: str, record: Record[msgspec.Struct], viewer: int | None
) -> bytes:
    """A stored event as `viewer` (a seat, or None for spectators) may see it, on the wire."""
    redacted = rules.redact(record.e, viewer)
    return _encoder.encode(game_event(kind, record.v, record.at, redacted))


def view_json(view: View) -> bytes:
    """A table's view."""
    return _encoder.encode(view)


def created_json(view: View, host_token: str) -> bytes:
    """A new table's answer (`Created`), with its host token."""
    return _encoder.encode({"game": view, "host_token": host_token})


def joined_json(player_id: str, seat: int, token: str, view: View) -> bytes:
    """A taken seat's answer (`Joined`), with its token."""
    return _encoder.encode({"player_id": player_id, "seat": seat, "token": token, "game": view})


def house_seated_json(player_id: str, seat: int, view: View) -> bytes:
    """A house player's seat (`HouseSeated`): no token (nobody plays it but the house)."""
    return _encoder.encode({"player_id": player_id, "seat": seat, "game": view})


def _raw(events: Sequence[bytes]) -> list[msgspec.Raw]:
    # Events already made as JSON go into the answer as they are.
    return [msgspec.Raw(e) for e in events]


def result_json(version: int, events: Sequence[bytes], view: View) -> bytes:
    """A command's answer (`CommandResult`): the new version, the events as the mover sees
    them, the view."""
    return _encoder.encode({"version": version, "events": _raw(events), "game": view})


def page_json(events: Sequence[bytes], version: int, more: bool) -> bytes:
    """A page of events (`EventPage`), each already as the asker sees it."""
    return _encoder.encode({"events": _raw(events), "version": version, "more": more})


def record_json(
    table: msgspec.Struct,
    events: Sequence[bytes],
    openings: Sequence[bytes],
    version: int,
    more: bool,
) -> bytes:
    """A page of a table's record (`GameRecord`): its events and openings already as the asker
    sees them."""
    return _encoder.encode(
        {
            "table": table,
            "events": _raw(events),
            "openings": _raw(openings),
            "version": version,
            "more": more,
        }
    )


def views_json(views: Sequence[bytes], version: int, more: bool) -> bytes:
    """A page of past views (`PastViews`), each already as the asker saw it."""
    return _encoder.encode({"views": _raw(views), "version": version, "more": more})
