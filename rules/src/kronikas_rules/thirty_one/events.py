"""Thirty-One's stored events. They never forbid unknown fields, so new fields can be added with
defaults; `decide` puts every derived fact in them and `evolve` only assigns."""

from __future__ import annotations

from typing import TypeAlias

from msgspec import UNSET, Struct

from kronikas_rules.cards import Card
from kronikas_rules.common import DealsOpened, DeckRevealed, EndReasonOnWire
from kronikas_rules.proofs import OLD_SCHEME, Opening
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack
from kronikas_rules.thirty_one.options import ThirtyOneOptions
from kronikas_rules.thirty_one.view_types import ThirtyOneRoundResult


class _ThirtyOneEvent(Struct, frozen=True, gc=False, tag_field="type"):
    pass


class ThirtyOneGameCreated(_ThirtyOneEvent, frozen=True, tag="game_created"):
    """A Thirty-One table was created."""

    options: ThirtyOneOptions
    seeded: bool


class ThirtyOneRoundDealt(_ThirtyOneEvent, frozen=True, tag="round_dealt"):
    """A round was dealt. `seats` is the order of play of the players in the round, from the
    seat after the dealer to the dealer; `hands` is by seat (null for a seat out of the match or
    a hand the viewer may not see). `commitment` is the Merkle root of the shuffled deck's
    `deck_size` positions (`scheme` `merkle-sha256`); `openings` opens the viewer's own hand and
    the table's cards; `deck` and `salts` are seen by nobody. (A deal stored before has
    `scheme` `deck-sha256`: one hash of the deck and `salt`, revealed by `deck_revealed`.) The
    dealer is on turn, to keep or exchange."""

    round: int
    dealer: int
    seats: list[int]
    hands: list[list[Card] | None]
    table: list[Card]
    commitment: str
    deck: list[Card] | None = None
    salt: str | None = None
    salts: list[str] | None = None
    scheme: str = OLD_SCHEME
    deck_size: int | None = None
    openings: list[Opening] | None = None


class ThirtyOneHandKept(_ThirtyOneEvent, frozen=True, tag="hand_kept"):
    """The dealer kept their hand; `turn` starts the turns."""

    seat: int
    turn: int


class ThirtyOneHandExchanged(_ThirtyOneEvent, frozen=True, tag="hand_exchanged"):
    """The dealer took the table into their hand and laid their old hand, now `table`, face up
    (`openings` opens its cards). `turn` is null when the exchange ended the round (three
    Aces)."""

    seat: int
    table: list[Card]
    turn: int | None
    openings: list[Opening] | None = None


class ThirtyOneCardSwapped(_ThirtyOneEvent, frozen=True, tag="card_swapped"):
    """`seat` gave `give` to the table (`openings` opens it) and took `take` from it. `turn` is
    who is on turn next (the swapper again in the last circuit, who shows at once; null when
    the round ended)."""

    seat: int
    give: Card
    take: Card
    turn: int | None
    openings: list[Opening] | None = None


class ThirtyOneHandsSwapped(_ThirtyOneEvent, frozen=True, tag="hands_swapped"):
    """`seat` exchanged their whole hand with the table; their old hand is now `table`
    (`openings` opens its cards)."""

    seat: int
    table: list[Card]
    turn: int | None
    openings: list[Opening] | None = None


class ThirtyOnePassed(_ThirtyOneEvent, frozen=True, tag="passed"):
    """`seat` passed; `turn` is null when this was the last turn of the last circuit."""

    seat: int
    turn: int | None


class ThirtyOneHandShown(_ThirtyOneEvent, frozen=True, tag="hand_shown"):
    """`seat` laid their hand open (`openings` opens its cards): by `show` (which starts the
    last circuit) or after a swap in the last circuit."""

    seat: int
    hand: list[Card]
    turn: int | None
    openings: list[Opening] | None = None


class ThirtyOneRoundEnded(ThirtyOneRoundResult, frozen=True, tag_field="type", tag="round_ended"):
    """A round was scored. Lists are by seat: `hands` and `scores` hold what was shown (null
    elsewhere; with three Aces only the winner's), and `openings` opens the cards of `hands`;
    `lost_life` and `out` are seats; `lives` is every seat's lives afterwards. (The fields
    before `lives` are the round's result, which the match keeps as its `last_round`.)"""

    lives: list[int]
    openings: list[Opening] | None = None


class ThirtyOneMatchEnded(_ThirtyOneEvent, frozen=True, tag="match_ended", omit_defaults=True):
    """The match is over: one player is left, and wins. With `reason` (`event_cap`, present only
    then) the table's cap of events ended it: `winners` are the players still in with the most
    lives (none when it ended before the start), and a round in play was not scored."""

    winners: list[int]
    reason: EndReasonOnWire = UNSET


PlayEvent: TypeAlias = (
    ThirtyOneRoundDealt
    | ThirtyOneHandKept
    | ThirtyOneHandExchanged
    | ThirtyOneCardSwapped
    | ThirtyOneHandsSwapped
    | ThirtyOnePassed
    | ThirtyOneHandShown
    | ThirtyOneRoundEnded
    | DeckRevealed
    | ThirtyOneMatchEnded
    | DealsOpened
)
"""The events of the match once started, from its first deal to its end."""

OwnEvent: TypeAlias = ThirtyOneGameCreated | PlayEvent
"""The game's own events: every event but seating's."""

Event: TypeAlias = (
    ThirtyOneGameCreated | PlayerJoined | PlayEvent | PlayerLeft | SeatAway | SeatBack
)
"""Every event a table of the game stores, in the order the wire lists them: its own and
seating's."""
