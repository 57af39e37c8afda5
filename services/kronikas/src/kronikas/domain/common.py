"""What both games share: domain errors, the random input, the lobby's commands and events."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import ClassVar, Protocol

import msgspec

from kronikas.domain.cards import Card


class EventOutOfPlace(ValueError):
    """An event that cannot be folded into the state: a corrupt, foreign or redacted log. Never a
    player's doing, so not a `DomainError`."""

    @classmethod
    def of(cls, state: object, event: object) -> EventOutOfPlace:
        return cls(f"{type(event).__name__} cannot follow {type(state).__name__}.")


class DomainError(Exception):
    """A rule or the table's state forbids the command (HTTP 409); `code` is stable."""

    code: ClassVar[str] = "illegal_move"

    def __init__(self, detail: str) -> None:
        super().__init__(detail)
        self.detail = detail


class NotYourTurn(DomainError):
    """This seat may do nothing now."""

    code = "not_your_turn"


class IllegalMove(DomainError):
    """This seat may act, but not this way."""

    code = "illegal_move"


class GameNotOpen(DomainError):
    """The table is no longer taking players, or has not started yet where that matters."""

    code = "game_not_open"


class GameFull(DomainError):
    """Every seat is taken."""

    code = "game_full"


class GameOver(DomainError):
    """The match has ended."""

    code = "game_over"


class InvalidOptions(ValueError):
    """Table options outside the limits in docs/rules.md (HTTP 422)."""


class Shuffle(msgspec.Struct, frozen=True):
    """A shuffled deck with the salt of its commitment (`sha256("<salt>:<c>,<c>,…")`)."""

    deck: tuple[Card, ...]
    salt: str
    commitment: str


class Randomness(Protocol):
    """The random input of a decision; the domain never draws a number itself."""

    def shuffle(self, cards: Sequence[Card], round: int) -> Shuffle:
        """The cards in a random order, committed to, for the deal of `round`."""
        ...

    def pick(self, n: int) -> int:
        """A uniform choice from `range(n)` (the first dealer)."""
        ...


class Join(msgspec.Struct, frozen=True, tag_field="type", tag="join"):
    """Take the next free seat (the join endpoint; not a wire command)."""

    player_id: str
    name: str


class Start(msgspec.Struct, frozen=True, tag_field="type", tag="start"):
    """Deal the first round (the start endpoint, host only; not a wire command)."""


def commitment(deck: Sequence[Card], salt: str) -> str:
    """The published hash of a deal: lowercase hex SHA-256 of `"<salt>:<code>,<code>,…"`."""
    return hashlib.sha256(f"{salt}:{','.join(deck)}".encode()).hexdigest()


class MyHand(msgspec.Struct, frozen=True):
    """The asking player's own seat and cards (`me` in a view)."""

    id: str
    seat: int
    hand: list[Card]


class PlayerJoined(msgspec.Struct, frozen=True, tag_field="type", tag="player_joined"):
    """A player took a seat."""

    player_id: str
    name: str
    seat: int


class DeckRevealed(msgspec.Struct, frozen=True, tag_field="type", tag="deck_revealed"):
    """A round ended: the salt and the whole shuffled deck behind its deal's `commitment`."""

    round: int
    salt: str | None
    deck: list[Card] | None
