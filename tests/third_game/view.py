"""What leaves the service of a High Card table: a viewer's view, and events redacted for them."""

from __future__ import annotations

from typing import Literal

from msgspec import UNSET, Struct

from kronikas_rules.cards import Card
from kronikas_rules.common import (
    AwaySeat,
    Deadline,
    EndReasonOnWire,
    HouseSeat,
    LeftSeat,
    MyHand,
    wire_reason,
)
from kronikas_rules.engine import Status, Viewer
from tests.third_game.events import Event, HighCardRoundDealt, HighCardRoundEnded
from tests.third_game.options import KIND, PLAYERS, HighCardOptions
from tests.third_game.seats import waiting_for
from tests.third_game.states import Finished, Lobby, Playing, State


class HighCardPlayerView(Struct, frozen=True):
    """A seat at a High Card table: who sits there and the rounds they won."""

    id: str
    name: str
    seat: int
    points: int
    house: HouseSeat
    away: AwaySeat
    left: LeftSeat


class HighCardTableView(Struct, frozen=True):
    """The round being played: each seat's choice so far (null: not chosen yet)."""

    choices: list[Literal["reveal", "fold"] | None]


class HighCardGameView(Struct, frozen=True, tag_field="kind", tag=KIND, omit_defaults=True):
    """A High Card table as one viewer may see it (`me` and `legal` are null for a spectator)."""

    id: str
    status: Status
    version: int
    options: HighCardOptions
    seeded: bool
    round: int
    turn: int | None
    winners: list[int]
    players: list[HighCardPlayerView]
    me: MyHand | None
    legal: list[str] | None
    high_card: HighCardTableView | None
    last_round: HighCardRoundEnded | None
    deadline: Deadline
    end_reason: EndReasonOnWire = UNSET


def view(
    state: State, viewer: Viewer, game_id: str, version: int, deadline: str | None
) -> HighCardGameView:
    """The table as `viewer` (a seat, or a spectator) may see it."""
    points = state.points if not isinstance(state, Lobby) else (0,) * PLAYERS
    players = [
        HighCardPlayerView(s.id, s.name, i, points[i], s.house or s.left, s.away, s.left)
        for i, s in enumerate(state.seats)
    ]
    me = None
    if viewer.seat is not None:
        hand: list[Card] = [state.cards[viewer.seat]] if isinstance(state, Playing) else []
        me = MyHand(state.seats[viewer.seat].id, viewer.seat, hand)
    return HighCardGameView(
        id=game_id,
        status=viewer.status,
        version=version,
        options=state.options,
        seeded=state.seeded,
        round=0 if isinstance(state, Lobby) else state.round,
        turn=waiting_for(state),
        winners=[*state.winners] if isinstance(state, Finished) else [],
        players=players,
        me=me,
        legal=viewer.legal,
        high_card=HighCardTableView([*state.choices]) if isinstance(state, Playing) else None,
        last_round=None if isinstance(state, Lobby) else state.last,
        deadline=deadline,
        end_reason=wire_reason(state.reason) if isinstance(state, Finished) else UNSET,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """A deal as `viewer` may see it: its own card alone, no deck, no salts."""
    if isinstance(event, HighCardRoundDealt):
        cards = [c if seat == viewer else None for seat, c in enumerate(event.cards)]
        return HighCardRoundDealt(event.round, cards, None, None, event.commitment)
    return event
