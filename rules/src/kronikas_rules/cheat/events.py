"""Cheat's stored events: `decide` computes every fact in them, `evolve` only assigns it."""

from __future__ import annotations

from typing import TypeAlias

import msgspec

from kronikas_rules.cards import Card
from kronikas_rules.cheat.options import CheatTableOptions
from kronikas_rules.cheat.states import CheatCallResult, RoundReason
from kronikas_rules.common import DealsOpened, DeckRevealed, EndReasonOnWire
from kronikas_rules.proofs import OLD_SCHEME, Opening
from kronikas_rules.seating import PlayerJoined, PlayerLeft, SeatAway, SeatBack


class CheatGameCreated(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="game_created"):
    """A Cheat table was created with these options (a table stored before `max_plays` has
    none: its rounds have no limit of plays)."""

    options: CheatTableOptions
    seeded: bool


class CheatRoundDealt(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="round_dealt"):
    """A round was dealt: `hands` by seat (each viewer sees only their own), `set_aside` cards
    out of play; `commitment` is the root of the Merkle tree over the shuffled deck's
    `deck_size` salted positions (`scheme` `merkle-sha256`; a deal stored before has the hash
    of the whole deck, `deck-sha256`), docs/api.md "Fair deals". A seat's copy opens its own
    cards (`openings`, made for it when the event is redacted: the stored event holds the deck
    and its salts)."""

    round: int
    dealer: int
    turn: int
    rank: str
    set_aside: int
    commitment: str
    hands: list[list[Card] | None]
    set_aside_cards: list[Card] | None = None
    deck: list[Card] | None = None
    salt: str | None = None
    salts: list[str] | None = None
    scheme: str = OLD_SCHEME
    deck_size: int | None = None
    openings: list[Opening] | None = None


class CheatCardsPlayed(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="cards_played"):
    """`seat` put `count` cards down announced as `rank`; `turn` is next, to announce
    `next_rank`. The cards are shown only to their player."""

    seat: int
    count: int
    rank: str
    turn: int
    next_rank: str
    cards: list[Card] | None = None


class CheatCalled(CheatCallResult, frozen=True, tag_field="type", tag="cheat_called"):
    """`caller` called "Cheat!" on the play of `seat`; its `cards` are turned up and opened
    (`openings`) for all. On an honest play the caller is the `taker` of the pile, on a lie the
    player who lied. (The fields but `openings` are the call's result, which the table keeps
    until the next call or deal.)"""

    openings: list[Opening] | None = None


class CheatPileTaken(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="pile_taken"):
    """After a call `seat` took the whole pile (`count` cards; the cards and their `openings`
    are shown only to them); `turn` plays next, or null when the round ends with this call."""

    seat: int
    count: int
    turn: int | None
    cards: list[Card] | None = None
    openings: list[Opening] | None = None


class CheatPenaltyTaken(
    msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="penalty_taken"
):
    """The last play held the Pale Chronicler and was not called: its player `seat` took the pile
    (`count` cards, shown only to them); `turn` plays next. `openings` opens the pile to its
    taker, and to everyone else the Pale Chronicler the penalty announces."""

    seat: int
    count: int
    turn: int
    cards: list[Card] | None = None
    openings: list[Opening] | None = None


class CheatPlayAccepted(
    msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="play_accepted"
):
    """`seat` let the window close on the play of `player`, who had no cards left or made the
    round's last allowed play."""

    seat: int
    player: int


class CheatRoundEnded(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="round_ended"):
    """`winner` finished the round; places by cards in hand, points scored and running totals
    (lists indexed by seat). With `reason` (`max_plays`, present only then) the round reached
    its limit of plays and nobody finished it: `winner` is the first seat placed 1st."""

    round: int
    winner: int
    hand_sizes: list[int]
    places: list[int]
    points: list[int]
    totals: list[int]
    reason: RoundReason = msgspec.UNSET


class CheatMatchEnded(
    msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="match_ended", omit_defaults=True
):
    """The last round ended: `winners` have the most `points` (totals by seat). With `reason`
    (`event_cap`, present only then) the table's cap of events ended the match: a round in play
    was not scored, and `winners` have the most points and, among them, the fewest cards (none
    when it ended before the start)."""

    winners: list[int]
    points: list[int]
    reason: EndReasonOnWire = msgspec.UNSET


PlayEvent: TypeAlias = (
    CheatRoundDealt
    | CheatCardsPlayed
    | CheatCalled
    | CheatPileTaken
    | CheatPenaltyTaken
    | CheatPlayAccepted
    | CheatRoundEnded
    | DeckRevealed
    | CheatMatchEnded
    | DealsOpened
)
"""The events of the match once started, from its first deal to its end."""

OwnEvent: TypeAlias = CheatGameCreated | PlayEvent
"""The game's own events: every event but seating's."""

Event: TypeAlias = CheatGameCreated | PlayerJoined | PlayEvent | PlayerLeft | SeatAway | SeatBack
"""Every event a table of the game stores, in the order the wire lists them: its own and
seating's."""
