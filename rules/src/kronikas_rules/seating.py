"""Seating, the decider every game composes: who sits at the table and who plays each seat
(docs/rules.md, "Clocks, leaving and the house").

Its state is the seats in order of joining, each with its player's id and name and who plays it
besides them: `house` a house player, `left` its player left after the start, `away` its
player's clock ran out and they are not back yet. A game keeps this state in its own and hands
`Join`, `Leave`, `Back` and `TimeOut` to `decide`, and `PlayerJoined`, `PlayerLeft`, `SeatAway`
and `SeatBack` to `evolve`, with the stage its own phase says the match is in; the rest of a
game's rules never touch seating. A player is found by id (`seat_of`): seats move down when
someone leaves the lobby, so a seat index names nobody for long.

The house plays through the same `decide` as everyone: `by_house=True` says that the house chose
the command for one of the seats it plays. That matters for a seat whose player left: a command
from them is refused, one the house chooses for the seat is played. The house never sends `leave`
or `back`.
"""

from __future__ import annotations

from typing import Literal, TypeAlias, assert_never

import msgspec

from kronikas_rules.common import (
    EventOutOfPlace,
    GameFull,
    GameNotOpen,
    GameOver,
    IllegalMove,
    NotYourTurn,
    check_name_free,
)

# --- its commands and events (`join`, `leave`, `back`, the application's `time_out`) -----------


class Join(msgspec.Struct, frozen=True, tag_field="type", tag="join"):
    """Take the next free seat (the join endpoint; not a wire command). `house`: the host seats
    a house player, whom the house plays for the whole match."""

    player_id: str
    name: str
    house: bool = False


class Leave(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="leave"):
    """Leave the table. Before the start your seat is freed and the seats after it move down one;
    after the start the house plays your seat to the end of the match, and its results count."""


class Back(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type", tag="back"):
    """Take your seat back from the house, which has played it since your clock ran out; allowed
    at any time until the match is over."""


class TimeOut(msgspec.Struct, frozen=True, tag_field="type", tag="time_out"):
    """The clock of `seat` ran out (sent by the application, not a wire command): the house plays
    that seat until its player is back."""

    seat: int


class PlayerJoined(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="player_joined"):
    """A player took a seat; `house`: a house player, whom the house plays for the whole match."""

    player_id: str
    name: str
    seat: int
    house: bool = False


class PlayerLeft(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="player_left"):
    """The player of `seat` left. Before the start (`started` false) the seat is freed and the
    seats after it move down one; after it the seat stays, and the house plays it to the end."""

    seat: int
    player_id: str
    started: bool


class SeatAway(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="seat_away"):
    """The clock of `seat` ran out: the house plays the seat until its player is back."""

    seat: int


class SeatBack(msgspec.Struct, frozen=True, gc=False, tag_field="type", tag="seat_back"):
    """The player of `seat`, away since their clock ran out, took the seat back."""

    seat: int


Stage: TypeAlias = Literal["lobby", "playing", "over"]
"""Where the match is, as the game's phase says: taking players, started, or over."""


class Player(msgspec.Struct, frozen=True, gc=False):
    """The player who holds a seat (a seat is a place at the table, `seat` its index; its
    holder is always its player), and who plays it besides them: `house` a house player,
    `left` its player left after the start, `away` its player's clock ran out."""

    id: str
    name: str
    house: bool = False
    left: bool = False
    away: bool = False


Seating: TypeAlias = tuple[Player, ...]
"""The seating state: the seats in order, seat `i` at index `i`."""

SeatingCommand: TypeAlias = Join | Leave | Back | TimeOut
SeatingEvent: TypeAlias = PlayerJoined | PlayerLeft | SeatAway | SeatBack


def decide(
    seats: Seating,
    command: SeatingCommand,
    seat: int | None,
    stage: Stage,
    most: int,
    by_house: bool,
) -> list[SeatingEvent]:
    """The events of a join (a table of at most `most` seats), of `leave` or `back` from
    `seat`, or of the application's `TimeOut`."""
    match command:
        case Join():
            return [_join(seats, command, stage, most)]
        case TimeOut():
            return [_time_out(seats, command.seat, stage)]
        case Leave():
            leaver = _sender(seats, seat, stage, by_house)
            return [PlayerLeft(seat=leaver, player_id=seats[leaver].id, started=stage == "playing")]
        case Back():
            returner = _sender(seats, seat, stage, by_house)
            if not seats[returner].away:
                raise IllegalMove("You are not away: the house is not playing your seat.")
            return [SeatBack(seat=returner)]
        case _:
            assert_never(command)


def evolve(seats: Seating, event: SeatingEvent, stage: Stage, phase: object) -> Seating:
    """The seats after a seating event, which must follow a match at `stage` (`phase`, the
    game's state, names it when it does not)."""
    match event:
        case PlayerJoined():
            if stage != "lobby":
                raise EventOutOfPlace.of(phase, event)
            return (*seats, Player(id=event.player_id, name=event.name, house=event.house))
        case PlayerLeft():
            s = event.seat
            if not 0 <= s < len(seats) or seats[s].id != event.player_id:
                raise EventOutOfPlace(f"Seat {s} is not {event.player_id}'s.")
            if event.started:
                # The house plays the seat to the end: no longer away, its player will not be back.
                return _flagged(seats, event, stage, phase, left=True, away=False)
            if stage != "lobby":
                raise EventOutOfPlace.of(phase, event)
            return (*seats[:s], *seats[s + 1 :])
        case SeatAway():
            return _flagged(seats, event, stage, phase, away=True)
        case SeatBack():
            return _flagged(seats, event, stage, phase, away=False)
        case _:
            assert_never(event)


def _flagged(
    seats: Seating, event: SeatingEvent, stage: Stage, phase: object, **flags: bool
) -> Seating:
    """The seats with these flags of the event's seat assigned, once the match has started."""
    if stage != "playing":
        raise EventOutOfPlace.of(phase, event)
    s = event.seat
    if not 0 <= s < len(seats):
        raise EventOutOfPlace(f"There is no seat {s} for {type(event).__name__}.")
    return (*seats[:s], msgspec.structs.replace(seats[s], **flags), *seats[s + 1 :])


# --- what the rest of a game asks of the seating ---------------------------------------------


def seat_of(seats: Seating, player_id: str) -> int | None:
    """The seat of a player now, None when no seat has that id (never joined, or left the
    lobby)."""
    for s, player in enumerate(seats):
        if player.id == player_id:
            return s
    return None


def house_plays(player: Player) -> bool:
    """The house plays this seat now: a house player's, one whose player left, or one away."""
    return player.house or player.left or player.away


def house_seats(seats: Seating) -> frozenset[int]:
    """The seats the house plays now."""
    return frozenset(s for s, player in enumerate(seats) if house_plays(player))


def may_act(player: Player, by_house: bool) -> bool:
    """Whether commands may come for this seat at all: from its player unless they left, from the
    house only for a seat it plays."""
    return house_plays(player) if by_house else not player.left


def check_sender(player: Player, seat: int, by_house: bool) -> None:
    """Refuse a game command for a seat whose player left (unless the house chose it), or one the
    house chose for a seat it does not play."""
    if by_house:
        if not house_plays(player):
            raise IllegalMove(f"The house does not play seat {seat}.")
    elif player.left:
        raise IllegalMove("You have left this table; the house plays your seat.")


def kinds(player: Player, by_house: bool) -> list[str]:
    """The seating command types a seat may send, after its game's own: `leave` while its player
    has not left, `back` while it is away; none for the house."""
    if by_house or player.left:
        return []
    return ["leave", "back"] if player.away else ["leave"]


def moves(player: Player, by_house: bool) -> list[Leave | Back]:
    """The seating commands of `kinds`, in its order."""
    if by_house or player.left:
        return []
    return [Leave(), Back()] if player.away else [Leave()]


# --- the decisions ---------------------------------------------------------------------------


def _join(seats: Seating, command: Join, stage: Stage, most: int) -> PlayerJoined:
    if stage != "lobby":
        raise GameNotOpen("The game has already started; it takes no more players.")
    if len(seats) >= most:
        raise GameFull(f"All {most} seats are taken.")
    check_name_free((s.name for s in seats), command.name)
    return PlayerJoined(
        player_id=command.player_id, name=command.name, seat=len(seats), house=command.house
    )


def _sender(seats: Seating, seat: int | None, stage: Stage, by_house: bool) -> int:
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


def _time_out(seats: Seating, seat: int, stage: Stage) -> SeatAway:
    if stage != "playing":
        raise IllegalMove("No clock runs before the start or after the end of the match.")
    if not 0 <= seat < len(seats):
        raise IllegalMove(f"There is no seat {seat}.")
    player = seats[seat]
    if player.house:
        raise IllegalMove(f"Seat {seat} is a house player's: it has no clock.")
    if player.left:
        raise IllegalMove(f"The player of seat {seat} has left: the house plays it already.")
    if player.away:
        raise IllegalMove(f"Seat {seat} is already away.")
    return SeatAway(seat=seat)
