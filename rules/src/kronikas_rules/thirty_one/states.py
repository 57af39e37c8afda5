"""Thirty-One's states: one Struct per phase of the match, each holding only what it needs."""

from __future__ import annotations

from typing import TypeAlias, TypeVar, assert_never

from msgspec import Struct

from kronikas_rules import proofs
from kronikas_rules.cards import Card
from kronikas_rules.common import EndReason
from kronikas_rules.seating import Seating
from kronikas_rules.thirty_one.options import ThirtyOneOptions
from kronikas_rules.thirty_one.view_types import ThirtyOneRoundResult

T = TypeVar("T")


class Shuffled(Struct, frozen=True, gc=False):
    """A deal of the match, kept for `deals_opened` at a table with `reveal` `match_end`."""

    round: int
    deck: tuple[Card, ...]
    salts: tuple[str, ...]


class Match(Struct, frozen=True, gc=False):
    """What lasts the whole match: the seating (`seating`: who sits where, and who plays each
    seat), the seats' lives and who is out, the round and its dealer; with `reveal`
    `match_end`, every deal committed card by card (`deals`)."""

    options: ThirtyOneOptions
    seeded: bool
    seats: Seating = ()
    lives: tuple[int, ...] = ()
    out: tuple[bool, ...] = ()
    round: int = 0
    dealer: int | None = None
    last_round: ThirtyOneRoundResult | None = None
    deals: tuple[Shuffled, ...] = ()


class Deal(Struct, frozen=True, gc=False):
    """One round's cards. `order` is the players in the round from the seat after the dealer;
    `after` maps a seat to the next seat in the round (-1 for a seat that is out). The deck is
    committed card by card (`salts`, `proofs.SCHEME`), or, dealt before that, by one hash
    (`salt`, `proofs.OLD_SCHEME`, `salts` None)."""

    order: tuple[int, ...]
    after: tuple[int, ...]
    hands: tuple[tuple[Card, ...], ...]
    table: tuple[Card, ...]
    deck: tuple[Card, ...]
    salt: str | None
    commitment: str
    salts: tuple[str, ...] | None = None
    tree: proofs.Tree | None = None
    """The Merkle tree of `deck` and `salts`, built once for the deal and carried from state to
    state; None for a deal of the old scheme."""


class Lobby(Struct, frozen=True, gc=False):
    """Seats are being taken."""

    match: Match


class DealerChoice(Struct, frozen=True, gc=False):
    """The dealer keeps or exchanges their hand."""

    match: Match
    deal: Deal


class Turns(Struct, frozen=True, gc=False):
    """Turns go round until someone shows. `passed` is by seat; `turns` counts the turns taken
    since the dealer's choice."""

    match: Match
    deal: Deal
    turn: int | None
    passed: tuple[bool, ...]
    turns: int = 0


class LastCircuit(Struct, frozen=True, gc=False):
    """After `shower` showed, everyone else has one last turn; `shown` is by seat."""

    match: Match
    deal: Deal
    turn: int | None
    shower: int
    shown: tuple[tuple[Card, ...] | None, ...]


class RoundOver(Struct, frozen=True, gc=False):
    """Between a round's end and the next deal (or the match's end), inside one decision."""

    match: Match


class Finished(Struct, frozen=True, gc=False):
    """The match is over; `reason` is why when its rules did not end it (`event_cap`)."""

    match: Match
    winners: tuple[int, ...]
    reason: EndReason | None = None


State: TypeAlias = Lobby | DealerChoice | Turns | LastCircuit | RoundOver | Finished
InRound: TypeAlias = DealerChoice | Turns | LastCircuit


def initial_state(options: ThirtyOneOptions, seeded: bool) -> State:
    """The empty lobby."""
    return Lobby(Match(options=options, seeded=seeded))


def is_terminal(state: State) -> bool:
    """Whether the match is over."""
    return isinstance(state, Finished)


def deal_of(state: State) -> Deal | None:
    """The cards of the round being played; None outside a round."""
    match state:
        case Turns() | LastCircuit() | DealerChoice():
            return state.deal
        case Lobby() | RoundOver() | Finished():
            return None
        case _:
            assert_never(state)


def put(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """The tuple with `value` at `index`."""
    return (*items[:index], value, *items[index + 1 :])
