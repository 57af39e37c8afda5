"""A table as one process holds it: its fold, its latest events as each viewer sees them, and
where a role sits in its state (`seat_in`)."""

from __future__ import annotations

import base64
import hashlib
from collections import deque
from typing import NamedTuple, Union

import msgspec

from kronikas.application.deals import ArenaDeal
from kronikas.application.engines import Registry
from kronikas.application.wire import Record, event_json, ms_of, wire_type
from kronikas_rules.engine import Rules, tag_of

RECENT = 64
"""How many of its latest events a table keeps at hand for streams and long-polls."""
KEY_TTL_MS = 24 * 3600 * 1000
"""How long an accepted command's idempotency key is remembered (its table's log may go first)."""
KEYS_PER_TOKEN = 100
"""How many of a token's most recent idempotency keys are remembered at a table."""

HOST = "host"
"""The role of a table's host token."""


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


class Codec:
    """Per-game decoders of stored records, one for each game of `engines`, and what a record
    is kept as (`seen`)."""

    def __init__(self, engines: Registry) -> None:
        self._decoders: dict[str, msgspec.json.Decoder[Record[msgspec.Struct]]] = {
            kind: msgspec.json.Decoder(Record[Union[game.events]])  # type: ignore[name-defined]  # noqa: UP007
            for kind, game in engines.items()
        }
        self._first = msgspec.json.Decoder(Record[msgspec.Raw])
        self._types: dict[str, dict[type, str]] = {
            kind: {cls: wire_type(kind, tag_of(cls)) for cls in game.events}
            for kind, game in engines.items()
        }
        """Each game's event classes and their `type` on the wire (`wire.wire_type`)."""

    def seen(self, table: Fold, records: list[Record[msgspec.Struct]]) -> list[Seen]:
        """The records of events that follow on from `table`, as it will keep them."""
        kind, rules, types = table.kind, table.engine, self._types[table.kind]
        return [Seen(record, kind, rules, types[type(record.e)], record.v) for record in records]

    def first(self, raw: bytes) -> Record[msgspec.Raw]:
        """The first record, without its event: which engine reads the log, the seed, when."""
        return self._first.decode(raw)

    def decode(self, kind: str, raw: bytes) -> Record[msgspec.Struct]:
        return self._decoders[kind].decode(raw)


class Accepted(NamedTuple):
    """An idempotency key's accepted command, as its table's log records it."""

    fingerprint: str
    """The hash of the body it was accepted with."""
    version: int
    """The version of its append's first event."""
    at_ms: int
    """When it was accepted."""
    latest: list[Seen] | None = None
    """Its append's events, when that append is the table's latest (`Folds.accepted`): the state
    after it is the table's, and its answer can be made again from them."""


_TOKEN = slice(0, 8)
_KEY = slice(9, 25)
_FINGERPRINT = slice(26, None)


def _short_hash(data: bytes) -> str:
    """96 bits of SHA-256, in 16 URL-safe base64 characters (no dot among them)."""
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()[:12]).decode()


def key_hash(token_hash: str, key: str) -> str:
    """An idempotency key as the index knows it: scoped to its token (keys belong to one)."""
    return _short_hash(f"{token_hash}:{key}".encode())


def body_hash(body: bytes) -> str:
    """A command's body as its key's record knows it: another body under the key is refused."""
    return _short_hash(body)


def key_mark(token_hash: str, key: str, fingerprint: str) -> str:
    """What the first event of an append made under an idempotency key carries (`Record.i`):
    whose key (8 characters of the token's hash), which (`key_hash`) and with what body
    (`body_hash`), each after a dot: 42 characters a keyed move adds to the log."""
    return f"{token_hash[_TOKEN]}.{key}.{fingerprint}"


class Keys:
    """The idempotency keys a table's log records, each token's `KEYS_PER_TOKEN` most recent:
    the record of a key is its append's first event (no key of its own in the store).

    Kept for every keyed command a process folds, so kept cheap: a plain tuple (version, time,
    mark) a key, the time read only when the key is looked up and found."""

    __slots__ = ("_accepted", "_of_token")

    def __init__(self) -> None:
        self._accepted: dict[str, tuple[int, str, str]] = {}
        self._of_token: dict[str, deque[str]] = {}

    def add(self, mark: str, version: int, at: str) -> None:
        """The key in `mark` (`key_mark`) was accepted at `version`; the token's oldest beyond
        `KEYS_PER_TOKEN` are forgotten."""
        key, token = mark[_KEY], mark[_TOKEN]
        accepted = self._accepted
        recent = self._of_token.get(token)
        if recent is None:
            recent = self._of_token[token] = deque()
        elif key in accepted:  # remembered past its day, and accepted again
            recent.remove(key)
        accepted[key] = (version, at, mark)
        recent.append(key)
        if len(recent) > KEYS_PER_TOKEN:
            del accepted[recent.popleft()]

    def get(self, key: str, now_ms: int) -> Accepted | None:
        """The command accepted under `key` within the last day, if any."""
        found = self._accepted.get(key)
        if found is None:
            return None
        version, at, mark = found
        at_ms = ms_of(at)
        if now_ms - at_ms >= KEY_TTL_MS:
            return None
        return Accepted(mark[_FINGERPRINT], version, at_ms)


class Seen(msgspec.Struct, gc=False):
    """One stored event, and its JSON as each viewer (a seat, or None for spectators) sees it.

    Every viewer's JSON is made once, however many connections show it to that viewer. Not
    tracked by the collector (`gc=False`): a table keeps its latest events (`Recent`), and the
    fold cache's thousands of tables held ~64 of them each for every pass to walk; a `Seen`
    refers to its record, its game's rules and its JSON, never back to anything that holds it.
    """

    record: Record[msgspec.Struct]
    kind: str
    rules: Rules
    type: str
    """The event's `type` on the wire (`Codec.seen` knows each game's)."""
    version: int
    """`record.v`, kept at hand: every delivery reads it."""
    made: dict[int | None, bytes] = msgspec.field(default_factory=dict)
    """Each viewer's JSON made so far."""

    def json(self, viewer: int | None) -> bytes:
        """The event as `viewer` may see it, made the first time it is asked for."""
        made = self.made.get(viewer)
        if made is None:
            made = self.made[viewer] = event_json(self.rules, self.kind, self.record, viewer)
        return made


def follow_round(
    round: list[msgspec.Struct], event: msgspec.Struct, deal: type[msgspec.Struct]
) -> None:
    """Add `event` to a round's events, which a deal starts again."""
    if isinstance(event, deal):
        round.clear()
    round.append(event)


class Recent:
    """A table's latest events, in order and without gaps."""

    __slots__ = ("_seen",)

    def __init__(self) -> None:
        self._seen: deque[Seen] = deque(maxlen=RECENT)

    def add(self, added: list[Seen]) -> None:
        """Keep events that follow on from what is kept (else start again with them)."""
        if added and self._seen and self._seen[-1].version + 1 != added[0].version:
            self._seen.clear()
        self._seen.extend(added)

    def after(self, version: int, last: int) -> list[Seen] | None:
        """The events after `version` up to `last`, or None when they are not all at hand."""
        if not self._seen or self._seen[-1].version != last:
            return None
        start = version + 1 - self._seen[0].version
        if start < 0:
            return None
        seen = self._seen
        return [seen[i] for i in range(start, len(seen))]  # near the end: cheap on a deque


class Fold(NamedTuple):
    """A game folded up to `version`: a frozen value, a new one a version (`after`). What
    this process keeps beside the fold it holds of a table (the tokens' roles, its latest
    events, the keys its log records, its seats looked up) the repository keeps (folds.py)."""

    game_id: str
    kind: str
    engine: Rules
    seed: int | None
    version: int
    state: object
    created_ms: int
    at: str = ""
    """When the latest event was appended: the clocks run from it."""
    round: tuple[msgspec.Struct, ...] = ()
    """The events since the latest deal (all of them before it): what the house remembers."""
    arena: ArenaDeal | None = None
    """An arena table's deal (its first record's): None for any other table."""

    def after(self, state: object, records: list[Record[msgspec.Struct]]) -> Fold:
        """The fold after this one moved on to `state` by appended `records` (the version of
        the last): a new value; the round's events start again at a deal."""
        if not records:
            return self._replace(state=state)
        deal = self.engine.deal_event
        events = [record.e for record in records]
        for i in range(len(events) - 1, -1, -1):
            if isinstance(events[i], deal):
                round = tuple(events[i:])
                break
        else:
            round = (*self.round, *events)
        last = records[-1]
        return Fold(
            self.game_id,
            self.kind,
            self.engine,
            self.seed,
            last.v,
            state,
            self.created_ms,
            last.at,
            round,
            self.arena,
        )


class Appended(NamedTuple):
    """An append made from this process, as the repository folds it in (`Folds.advance`):
    decided on `before`, taking it to `state`, without decoding anything."""

    before: Fold
    state: object
    records: list[bytes]
    """Its records as stored."""
    folded: list[Record[msgspec.Struct]]
    """Its records, as the fold reads them."""
    seen: list[Seen]
    """Its events, with each viewer's JSON made so far."""
    auth: tuple[tuple[str, str], ...]
    """Token hashes and the roles the append gives them."""
