"""High Card as one `Engine`: legal moves, views, redaction, the house, and its registry."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Literal, get_args

from msgspec import UNSET, Struct

from kronikas.application.engines import ENGINES
from kronikas.domain import seating
from kronikas.domain.cards import Card
from kronikas.domain.common import (
    AwaySeat,
    Deadline,
    EndReasonOnWire,
    HouseSeat,
    LeftSeat,
    MyHand,
    check_options,
    wire_reason,
)
from kronikas.domain.engine import Engine, Seats, Standing, Timing, registry, rules
from kronikas.domain.seating import Back, Leave
from tests.third_game.game import (
    COMMANDS,
    EVENT_CAP,
    KIND,
    PLAYERS,
    Command,
    Event,
    Finished,
    Fold,
    HighCardMatchEnded,
    HighCardOptions,
    HighCardRoundDealt,
    HighCardRoundEnded,
    Lobby,
    Playing,
    Reveal,
    State,
    created,
    decide,
    evolve,
    initial_state,
    is_terminal,
    max_players,
    strength,
    turn_of,
)

__all__ = ["ENGINE", "GAMES", "KIND"]


def _moves(state: State, seat: int, by_house: bool) -> list[Command]:
    if isinstance(state, Finished) or not 0 <= seat < len(state.seats):
        return []
    flags = state.seats[seat]
    own: list[Command] = []
    if isinstance(state, Playing) and turn_of(state) == seat and seating.may_act(flags, by_house):
        own = [Reveal(), Fold()]
    return [*own, *seating.moves(flags, by_house)]


def legal_moves(state: State, seat: int, by_house: bool = False) -> list[Command]:
    """Every command this seat may send now: the game's, then `leave` / `back`."""
    return _moves(state, seat, by_house)


def legal(state: State, seat: int, by_house: bool = False) -> list[str]:
    """The command types of `legal_moves`."""
    return [type(c).__struct_config__.tag for c in _moves(state, seat, by_house)]  # type: ignore[misc]


def waiting_for(state: State) -> int | None:
    return turn_of(state) if isinstance(state, Playing) else None


def house_seats(state: State) -> frozenset[int]:
    return seating.house_seats(state.seats)


def seat_of(state: State, player_id: str) -> int | None:
    return seating.seat_of(state.seats, player_id)


def timing(state: State) -> Timing:
    return Timing(state.options.turn_seconds, 0)


def standing(state: State) -> Standing:
    status = "open" if isinstance(state, Lobby) else "finished" if is_terminal(state) else "playing"
    return Standing(status, len(state.seats))


# --- views ------------------------------------------------------------------------------------


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
    status: Literal["open", "playing", "finished"]
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
    state: State,
    viewer: int | None,
    game_id: str,
    version: int,
    deadline: str | None = None,
    by_house: bool = False,
) -> HighCardGameView:
    """The table as `viewer` (a seat, or None: a spectator) may see it."""
    points = state.points if not isinstance(state, Lobby) else (0,) * PLAYERS
    players = [
        HighCardPlayerView(s.id, s.name, i, points[i], s.house or s.left, s.away, s.left)
        for i, s in enumerate(state.seats)
    ]
    seated = viewer is not None and 0 <= viewer < len(state.seats)
    me = legal_now = None
    if seated and viewer is not None:
        hand: list[Card] = [state.cards[viewer]] if isinstance(state, Playing) else []
        me = MyHand(state.seats[viewer].id, viewer, hand)
        legal_now = legal(state, viewer, by_house)
    return HighCardGameView(
        id=game_id,
        status=standing(state).status,  # type: ignore[arg-type]
        version=version,
        options=state.options,
        seeded=state.seeded,
        round=0 if isinstance(state, Lobby) else state.round,
        turn=waiting_for(state),
        winners=[*state.winners] if isinstance(state, Finished) else [],
        players=players,
        me=me,
        legal=legal_now,
        high_card=HighCardTableView([*state.choices]) if isinstance(state, Playing) else None,
        last_round=None if isinstance(state, Lobby) else state.last,
        deadline=deadline,
        end_reason=wire_reason(state.reason) if isinstance(state, Finished) else UNSET,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """A deal as `viewer` may see it: its own card alone, no deck, no salt."""
    if isinstance(event, HighCardRoundDealt):
        cards = [c if seat == viewer else None for seat, c in enumerate(event.cards)]
        return HighCardRoundDealt(event.round, cards, None, None, event.commitment)
    return event


def house(view: HighCardGameView, seen: Sequence[Event], rng: random.Random) -> Command | None:
    """The house's move for the seat it plays: it reveals a high card (or one in three low
    ones) and folds the rest."""
    if view.me is None or not view.legal or "reveal" not in view.legal or not view.me.hand:
        return None
    high = strength(view.me.hand[0])[0] >= 4
    return Reveal() if high or rng.random() < 1 / 3 else Fold()


ENGINE: Engine[HighCardOptions, State, Command, Event, HighCardGameView] = Engine(
    kind=KIND,
    title="High Card",
    options=HighCardOptions,
    states=(Lobby, Playing, Finished),
    commands=COMMANDS,
    events=get_args(Event),
    view_type=HighCardGameView,
    deal_event=HighCardRoundDealt,
    end_event=HighCardMatchEnded,
    seats=Seats(PLAYERS, PLAYERS),
    event_cap=EVENT_CAP,
    max_players=max_players,
    validate_options=check_options,
    created=created,
    initial_state=initial_state,
    decide=decide,
    evolve=evolve,
    legal=legal,
    legal_moves=legal_moves,
    view=view,
    redact=redact,
    is_terminal=is_terminal,
    waiting_for=waiting_for,
    house_seats=house_seats,
    seat_of=seat_of,
    timing=timing,
    standing=standing,
    house_command=house,
)

GAMES = registry(*ENGINES.values(), rules(ENGINE))
"""The service's games and High Card: what the tests hand to `create_app(games=...)`."""

_ = (Leave, Back)  # the shared seating commands, listed in COMMANDS
