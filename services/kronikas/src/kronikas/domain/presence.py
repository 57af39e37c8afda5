"""Who plays each seat, the same in both games: a seat's player, or the house (docs/rules.md,
"Clocks, leaving and the house").

A seat is played by the house for good when it is a house player's or its player left after the
start, and for a while when its player's clock ran out (away) until they are back. The games keep
the three flags by seat; this module decides `leave`, `back` and `TimeOut` from them, and says
which seats a command may come from and which presence commands a seat may send.

The house plays through the same `decide` as everyone: `by_house=True` says that the house chose
the command for one of the seats it plays. That matters for a seat whose player left: a command
from them is refused, one the house chooses for the seat is played. The house never sends `leave`
or `back`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol, TypeAlias, assert_never

import msgspec

from kronikas.domain.common import (
    Back,
    GameOver,
    IllegalMove,
    Leave,
    NotYourTurn,
    PlayerLeft,
    SeatAway,
    SeatBack,
    TimeOut,
)

Stage: TypeAlias = Literal["lobby", "playing", "over"]
"""Where the match is: taking players, started, or over."""

PresenceCommand: TypeAlias = Leave | Back | TimeOut
PresenceEvent: TypeAlias = PlayerLeft | SeatAway | SeatBack


class SeatFlags(Protocol):
    """Who plays a seat besides its player: what both games keep by seat."""

    @property
    def house(self) -> bool: ...

    @property
    def left(self) -> bool: ...

    @property
    def away(self) -> bool: ...


class Presence(msgspec.Struct, frozen=True, gc=False):
    """Who plays a seat: `house` a house player's, `left` its player left after the start, `away`
    its player's clock ran out and they are not back yet."""

    house: bool = False
    left: bool = False
    away: bool = False


def house_plays(flags: SeatFlags) -> bool:
    """The house plays this seat now: a house player's, one whose player left, or one away."""
    return flags.house or flags.left or flags.away


def house_seats(seats: Sequence[SeatFlags]) -> frozenset[int]:
    """The seats the house plays now."""
    return frozenset(s for s, flags in enumerate(seats) if house_plays(flags))


def seat_of(ids: Sequence[str], player_id: str) -> int | None:
    """The seat of a player id, None when no seat has it (never joined, or left the lobby)."""
    for seat, seated in enumerate(ids):
        if seated == player_id:
            return seat
    return None


def may_act(flags: SeatFlags, by_house: bool) -> bool:
    """Whether commands may come for this seat at all: from its player unless they left, from the
    house only for a seat it plays."""
    return house_plays(flags) if by_house else not flags.left


def check_sender(flags: SeatFlags, seat: int, by_house: bool) -> None:
    """Refuse a game command for a seat whose player left (unless the house chose it), or one the
    house chose for a seat it does not play."""
    if by_house:
        if not house_plays(flags):
            raise IllegalMove(f"The house does not play seat {seat}.")
    elif flags.left:
        raise IllegalMove("You have left this table; the house plays your seat.")


def kinds(flags: SeatFlags, by_house: bool) -> list[str]:
    """The presence command types a seat may send, after its game's own: `leave` while its player
    has not left, `back` while it is away; none for the house."""
    if by_house or flags.left:
        return []
    return ["leave", "back"] if flags.away else ["leave"]


def moves(flags: SeatFlags, by_house: bool) -> list[Leave | Back]:
    """The presence commands of `kinds`, in its order."""
    if by_house or flags.left:
        return []
    return [Leave(), Back()] if flags.away else [Leave()]


def decide(
    command: PresenceCommand,
    seat: int | None,
    seats: Sequence[SeatFlags],
    ids: Sequence[str],
    stage: Stage,
    by_house: bool,
) -> list[PresenceEvent]:
    """The events of `leave` or `back` from `seat`, or of the application's `TimeOut`."""
    match command:
        case TimeOut():
            return [_time_out(command.seat, seats, stage)]
        case Leave():
            leaver = _sender(seat, seats, stage, by_house)
            return [PlayerLeft(seat=leaver, player_id=ids[leaver], started=stage == "playing")]
        case Back():
            returner = _sender(seat, seats, stage, by_house)
            if not seats[returner].away:
                raise IllegalMove("You are not away: the house is not playing your seat.")
            return [SeatBack(seat=returner)]
        case _:
            assert_never(command)


def _sender(seat: int | None, seats: Sequence[SeatFlags], stage: Stage, by_house: bool) -> int:
    """The seat `leave` or `back` comes from, if it may send them at all."""
    if stage == "over":
        raise GameOver("The match is over.")
    if seat is None or not 0 <= seat < len(seats):
        raise NotYourTurn("Only a player seated at this table may send commands.")
    if seats[seat].left:
        raise IllegalMove("You have left this table.")
    if by_house:
        raise IllegalMove("The house neither leaves a seat nor comes back to one.")
    return seat


def _time_out(seat: int, seats: Sequence[SeatFlags], stage: Stage) -> SeatAway:
    if stage != "playing":
        raise IllegalMove("No clock runs before the start or after the end of the match.")
    if not 0 <= seat < len(seats):
        raise IllegalMove(f"There is no seat {seat}.")
    flags = seats[seat]
    if flags.house:
        raise IllegalMove(f"Seat {seat} is a house player's: it has no clock.")
    if flags.left:
        raise IllegalMove(f"The player of seat {seat} has left: the house plays it already.")
    if flags.away:
        raise IllegalMove(f"Seat {seat} is already away.")
    return SeatAway(seat=seat)
