"""What every game shares besides seating (`seating.py`): domain errors, the random input, the
start and the cap of events, the end reason, the deals' openings at the match's end (and the
deck's reveal of deals stored before), and the options and view fields of clocks and the house
(docs/rules.md, "Clocks, leaving and the house")."""

from __future__ import annotations

import functools
import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from typing import Annotated, ClassVar, Final, Literal, Protocol, TypeVar

import msgspec
import msgspec.inspect

from kronikas_rules import proofs
from kronikas_rules.cards import Card


class EventOutOfPlace(ValueError):
    """An event that cannot be folded into the state: a corrupt, foreign or redacted log. Never a
    player's doing, so not a `DomainError`."""

    @classmethod
    def of(cls, state: object, event: object) -> EventOutOfPlace:
        return cls(f"{type(event).__name__} cannot follow {type(state).__name__}.")


PhaseT = TypeVar("PhaseT")


def expect(state: object, phase: type[PhaseT], event: object) -> PhaseT:
    """The state, which must be in `phase` for `event` to follow it (`EventOutOfPlace` if not)."""
    if isinstance(state, phase):
        return state
    raise EventOutOfPlace.of(state, event)


KeptT = TypeVar("KeptT", bound=msgspec.Struct)


def kept(kind: type[KeptT], event: msgspec.Struct) -> KeptT:
    """What a state keeps of an event, as the event says it: a `kind` made of the event's
    fields of the same names (a round's result from its `round_ended`, say)."""
    return kind(**{name: getattr(event, name) for name in kind.__struct_fields__})


class Refusal(Exception):
    """A command or request refused, with a stable `code` (what the wire says) and a `detail`
    for the person who reads it. Every kind of refusal names its code where it is declared:
    `class GameFull(DomainError, code="game_full")`."""

    code: ClassVar[str]

    def __init_subclass__(cls, *, code: str, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.code = code

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class DomainError(Refusal, code="illegal_move"):
    """A rule or the table's state forbids the command (HTTP 409); `code` is stable."""


class NotYourTurn(DomainError, code="not_your_turn"):
    """This seat may do nothing now."""


class IllegalMove(DomainError, code="illegal_move"):
    """This seat may act, but not this way."""


class GameNotOpen(DomainError, code="game_not_open"):
    """The table is no longer taking players, or has not started yet where that matters."""


class GameFull(DomainError, code="game_full"):
    """Every seat is taken."""


class GameOver(DomainError, code="game_over"):
    """The match has ended."""


class NameTaken(DomainError, code="name_taken"):
    """Another player at the table has this name, ignoring case."""


def name_key(name: str) -> str:
    """A name as compared at a table: NFKC, then case folded (`Ilona` is `ILONA`, `Strauß` is
    `STRAUSS`)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def check_name_free(names: Iterable[str], name: str) -> None:
    """NameTaken when a player at the table already has `name`, ignoring case: two seats that
    read alike would be told apart by nobody."""
    key = name_key(name)
    if any(name_key(other) == key for other in names):
        raise NameTaken(f"Someone at this table is already called {name}; choose another name.")


class InvalidOptions(ValueError):
    """Table options outside the limits in docs/rules.md (HTTP 422)."""


def check_options(options: msgspec.Struct) -> None:
    """Raise `InvalidOptions` for the first option outside the limits its type declares: every
    game's options are checked here, against the same `msgspec.Meta` limits that the wire
    enforces and the OpenAPI document shows, so options made in code (not decoded) are held to
    them too and no game writes its limits twice."""
    for field in _option_fields(type(options)):
        broken = _broken(getattr(options, field.name), field.type)
        if broken is not None:
            raise InvalidOptions(f"{field.name} must {broken}.")


@functools.cache
def _option_fields(options: type[msgspec.Struct]) -> tuple[msgspec.inspect.Field, ...]:
    info = msgspec.inspect.type_info(options)
    if not isinstance(info, msgspec.inspect.StructType):
        raise TypeError(f"{options.__name__} is not a Struct")
    return info.fields


def _broken(value: object, kind: msgspec.inspect.Type) -> str | None:
    """What `value` must be to keep `kind`'s limits, or None when it keeps them."""
    match kind:
        case msgspec.inspect.Metadata(type=inner):  # a description for the OpenAPI document
            return _broken(value, inner)
        case msgspec.inspect.UnionType(types=types) if msgspec.inspect.NoneType() in types:
            others = [t for t in types if t != msgspec.inspect.NoneType()]
            broken = None if value is None else _broken(value, others[0])
            return None if broken is None else f"{broken}, or null"
        case msgspec.inspect.IntType(ge=int() as low, le=int() as high):
            if type(value) is int and low <= value <= high:
                return None
            if high - low == 1:
                return f"be {low} or {high}"
            return f"be a whole number from {low:,} to {high:,}"
        case msgspec.inspect.IntType():
            return None if type(value) is int else "be a whole number"
        case msgspec.inspect.BoolType():
            return None if type(value) is bool else "be true or false"
        case msgspec.inspect.LiteralType(values=values):
            return None if value in values else "be " + " or ".join(f'"{v}"' for v in values)
        case msgspec.inspect.VarTupleType(
            item_type=item, min_length=int() as low, max_length=int() as high
        ):
            if not isinstance(value, tuple | list) or not low <= len(value) <= high:
                return f"list {low} to {high} numbers"
            items = (_broken(v, item) for v in value)
            broken = next((b for b in items if b is not None), None)
            return None if broken is None else broken.replace("a whole number", "whole numbers")
        case _:
            return None


class Shuffle(msgspec.Struct, frozen=True, gc=False):
    """A shuffled deck, a salt for each of its positions, and the root of their Merkle tree
    (`proofs.py`): the deal's `commitment`."""

    deck: tuple[Card, ...]
    salts: tuple[str, ...]
    commitment: str

    @classmethod
    def committed(cls, deck: Sequence[Card], salts: Sequence[str]) -> Shuffle:
        """The shuffle of `deck` with these salts, and their root."""
        cards, salted = tuple(deck), tuple(salts)
        return cls(deck=cards, salts=salted, commitment=proofs.tree(cards, salted).root)


class Randomness(Protocol):
    """The random input of a decision; the domain never draws a number itself."""

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        """The cards in a random order, committed to, for the deal of `round`."""
        ...

    def pick(self, n: int) -> int:
        """A uniform choice from `range(n)` (the first dealer)."""
        ...


class Start(msgspec.Struct, frozen=True, tag_field="type", tag="start"):
    """Deal the first round (the start endpoint, host only; not a wire command)."""


class CapReached(msgspec.Struct, frozen=True, tag_field="type", tag="cap_reached"):
    """The table's log reached its cap of events (sent by the application, not a wire command):
    the match ends where it stands, as docs/rules.md says (`match_ended` with `reason`
    `event_cap`). Nothing when it is over already."""


EVENT_CAP_REASON: Final = "event_cap"
"""`reason` of a match that its table's cap of events ended."""

EndReason = Annotated[
    Literal["event_cap"],
    msgspec.Meta(
        description="Why the match ended before its rules ended it: `event_cap`, its table's "
        "log reached the most events a table keeps (docs/rules.md)."
    ),
]
EndReasonOnWire = EndReason | msgspec.UnsetType
"""`reason` of `match_ended` and `end_reason` of a view: there only when the cap ended the match."""


def wire_reason(reason: str | None) -> EndReasonOnWire:
    """A match's end reason as its event or view carries it: absent (`UNSET`) when its rules
    ended it."""
    return msgspec.UNSET if reason is None else EVENT_CAP_REASON


def state_reason(reason: EndReasonOnWire) -> Literal["event_cap"] | None:
    """An end reason as an event carries it, as a state keeps it (None: its rules ended it)."""
    return None if isinstance(reason, msgspec.UnsetType) else reason


def commitment(deck: Sequence[Card], salt: str) -> str:
    """The hash of a deal stored before deals were committed card by card (`proofs.OLD_SCHEME`):
    lowercase hex SHA-256 of `"<salt>:<code>,<code>,…"`, checked once `deck_revealed` came."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


class MyHand(msgspec.Struct, frozen=True, gc=False):
    """The asking player's own seat and cards (`me` in a view)."""

    id: str
    seat: int
    hand: list[Card]


class DeckRevealed(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="deck_revealed"):
    """A round of a deal stored before deals were committed card by card (`proofs.OLD_SCHEME`)
    ended: the salt and the whole shuffled deck behind its `commitment`."""

    round: int
    salt: str | None
    deck: list[Card] | None


Reveal = Annotated[
    Literal["never", "match_end"],
    msgspec.Meta(
        description="`never`: a card is opened only to those who may know it; `match_end`: "
        "when the match ends, every card of every deal is opened to everyone (`deals_opened`)."
    ),
]
"""The `reveal` option of every game (absent from a table stored before it: `never`)."""


class DealsOpened(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="deals_opened"):
    """The match ended at a table whose `reveal` is `match_end`: every position of every deal
    of the match, opened to everyone."""

    openings: list[proofs.Opening]


# --- clocks, leaving and the house: options and view fields both games share ------------------

MIN_TURN_SECONDS: Final = 5
MAX_TURN_SECONDS: Final = 86_400

TurnSeconds = (
    Annotated[
        int,
        msgspec.Meta(
            ge=MIN_TURN_SECONDS,
            le=MAX_TURN_SECONDS,
            description="Seconds a player has for each move (5–86,400): when they run out the "
            "house plays the seat until its player comes back; null: no clock.",
        ),
    ]
    | None
)


def valid_turn_seconds(value: object) -> bool:
    """`turn_seconds` is null or a whole number within its limits."""
    return value is None or (type(value) is int and MIN_TURN_SECONDS <= value <= MAX_TURN_SECONDS)


TURN_SECONDS_LIMITS: Final = "turn_seconds must be a whole number from 5 to 86,400, or null."

HouseSeat = Annotated[
    bool,
    msgspec.Meta(
        description="The house plays this seat for good: a house player, or a player who left."
    ),
]
AwaySeat = Annotated[
    bool,
    msgspec.Meta(
        description="The seat's clock ran out: the house plays it until its player is back."
    ),
]
LeftSeat = Annotated[
    bool,
    msgspec.Meta(
        description="The player left after the start: the house plays the seat to the end."
    ),
]
Deadline = Annotated[
    str | None,
    msgspec.Meta(
        description="When the clock of the seat the table waits for (`turn`) runs out, RFC 3339 "
        "in UTC; null without a clock or when the table waits for nobody."
    ),
]
