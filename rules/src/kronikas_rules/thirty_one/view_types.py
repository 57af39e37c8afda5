"""The Structs of a Thirty-One view (docs/api.md, "The view"): what `view` returns."""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import UNSET, Meta, Struct

from kronikas_rules.cards import Card
from kronikas_rules.common import (
    AwaySeat,
    Deadline,
    EndReasonOnWire,
    HouseSeat,
    LeftSeat,
    MyHand,
)
from kronikas_rules.engine import Status
from kronikas_rules.proofs import Opening
from kronikas_rules.thirty_one.options import ThirtyOneTableOptions


class ThirtyOnePlayerView(Struct, frozen=True, gc=False):
    """A seat at a Thirty-One table: who sits there, their lives, and whether the house plays
    the seat."""

    id: str
    name: str
    seat: int
    hand_size: int
    lives: int
    out: bool
    house: HouseSeat
    away: AwaySeat
    left: LeftSeat


Phase = Literal["dealer_choice", "turns", "last_circuit"]


class ThirtyOneTableView(Struct, frozen=True, gc=False):
    """The middle of the table in the current round. `shown` is by seat: the hands laid open in
    this round's last circuit; `circuit` counts the circuits of the turns from 1 (null outside
    them); `passed` lists the seats whose previous turn was a pass (they may not pass now).
    `commitment`, `scheme` and `deck_size` are the round's deal's, as its `round_dealt` says
    (`deck_size` null for a deal of the old scheme)."""

    table: list[Card]
    phase: Phase
    shown_by: int | None
    shown: list[list[Card] | None]
    circuit: int | None
    passed: list[int]
    commitment: str | None = None
    scheme: str | None = None
    deck_size: int | None = None


class ThirtyOneRoundResult(Struct, frozen=True, gc=False):
    """The most recent finished round; lists by seat, null where a seat took no part or a hand
    was not shown."""

    round: int
    hands: list[list[Card] | None]
    scores: list[float | None]
    lost_life: list[int]
    out: list[int]
    three_aces: int | None


_SCORING = (
    "by the rules: 0 below 21, else the best suit's sum (21 to 32); 30.5 for three of a rank, "
    "33 for three Aces; `XC` counts as the card that scores best"
)
HandScore = Annotated[
    float | None,
    Meta(description=f"The hand's score {_SCORING}; null while the seat holds no cards."),
]
SwapScore = Annotated[float, Meta(description=f"The hand's score after this swap, {_SCORING}.")]
SwapAllScore = Annotated[
    float | None,
    Meta(
        description="The hand's score after `swap_all` (the table's three cards), when the seat "
        "may send it now; else null."
    ),
]


class ThirtyOneSwapChoice(Struct, frozen=True, gc=False):
    """A swap the seat may make now (the command `{"type": "swap", "give", "take"}`) and what
    its hand scores after it."""

    give: Card
    take: Card
    score: SwapScore


Swaps = Annotated[
    list[ThirtyOneSwapChoice],
    Meta(
        description="Every swap the seat may send now, by the hand's cards then the table's, "
        "with the hand's score after each; empty when the seat may not swap."
    ),
]


class ThirtyOneMyHand(MyHand, frozen=True):
    """The asking player's own seat and cards (`me` in a view), with what they are worth,
    supplied by the engine so that no client scores a hand itself."""

    score: HandScore
    swaps: Swaps
    swap_all: SwapAllScore


ViewOpenings = Annotated[
    list[Opening],
    Meta(
        description="The openings of the round's cards this view shows the viewer (its hand, "
        "the table, the hands shown in the last circuit), by position, to check against the "
        "round's `commitment`; empty outside a round, for a deal of the old scheme, and in a "
        "command's answer, whose events (and those before) brought them."
    ),
]


class ThirtyOneGameView(
    Struct, frozen=True, gc=False, tag_field="kind", tag="thirty_one", omit_defaults=True
):
    """A Thirty-One table as one viewer may see it (`me` and `legal` are null for a
    spectator; `end_reason` is there only when the table's cap of events ended the match)."""

    id: str
    status: Status
    version: int
    options: ThirtyOneTableOptions
    seeded: bool
    round: int
    dealer: int | None
    turn: int | None
    winners: list[int]
    players: list[ThirtyOnePlayerView]
    me: ThirtyOneMyHand | None
    legal: list[str] | None
    thirty_one: ThirtyOneTableView | None
    last_round: ThirtyOneRoundResult | None
    deadline: Deadline
    openings: ViewOpenings
    end_reason: EndReasonOnWire = UNSET
