"""The Structs of a Thirty-One view (docs/api.md, "The view"): what `view` returns."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, Struct

from kronikas.domain.cards import Card
from kronikas.domain.common import (
    AwaySeat,
    Deadline,
    EndReasonOnWire,
    HouseSeat,
    LeftSeat,
    MyHand,
)
from kronikas.domain.engine import Status
from kronikas.domain.thirty_one.options import ThirtyOneTableOptions


class ThirtyOnePlayerView(Struct, frozen=True):
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


class ThirtyOneTableView(Struct, frozen=True):
    """The middle of the table in the current round. `shown` is by seat: the hands laid open in
    this round's last circuit; `circuit` counts the circuits of the turns from 1 (null outside
    them); `passed` lists the seats whose previous turn was a pass (they may not pass now)."""

    table: list[Card]
    phase: Literal["dealer_choice", "turns", "last_circuit"]
    shown_by: int | None
    shown: list[list[Card] | None]
    circuit: int | None
    passed: list[int]


class ThirtyOneRoundResult(Struct, frozen=True):
    """The most recent finished round; lists by seat, null where a seat took no part or a hand
    was not shown."""

    round: int
    hands: list[list[Card] | None]
    scores: list[float | None]
    lost_life: list[int]
    out: list[int]
    three_aces: int | None


class ThirtyOneGameView(
    Struct, frozen=True, tag_field="kind", tag="thirty_one", omit_defaults=True
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
    me: MyHand | None
    legal: list[str] | None
    thirty_one: ThirtyOneTableView | None
    last_round: ThirtyOneRoundResult | None
    deadline: Deadline
    end_reason: EndReasonOnWire = UNSET
