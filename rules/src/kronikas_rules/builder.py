"""The builder of every game's `Engine` (docs/engines.md, "Writing a game").

A game writes its rules: the decider of its own commands and events, the one statement of what a
seat may do now (`allowed`, with `choices` for the commands that carry fields), where it keeps
its seats and its stage, its view of a seat and the house's move. `build` composes the rest once
for every game: seating (join, leave, back, the clock running out) in `decide` and `evolve`,
`legal` and `legal_moves` from the one statement, the seats the house plays, a player's seat,
the status, and the rules text the game ships as package data (`rules.md`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Final, Generic, Protocol, TypeVar, cast

import msgspec

from kronikas_rules import seating
from kronikas_rules.common import CapReached, Randomness, Start, check_options
from kronikas_rules.engine import (
    STATUS_OF,
    Engine,
    Seats,
    Standing,
    Timing,
    View,
    Viewer,
    tag_of,
)
from kronikas_rules.seating import Join, Seating, TimeOut

OptionsT = TypeVar("OptionsT", bound=msgspec.Struct)
StateT = TypeVar("StateT")
CommandT = TypeVar("CommandT", bound=msgspec.Struct)
EventT = TypeVar("EventT", bound=msgspec.Struct)
ViewT = TypeVar("ViewT", bound=View)
MoveT = TypeVar("MoveT")
OwnEventT = TypeVar("OwnEventT")

StateIn = TypeVar("StateIn", contravariant=True)
MoveIn = TypeVar("MoveIn", contravariant=True)
EventOut = TypeVar("EventOut")
ViewOut = TypeVar("ViewOut", covariant=True)

SEATING_COMMANDS: Final = (Join, seating.Leave, seating.Back, TimeOut)
SEATING_EVENTS: Final = (
    seating.PlayerJoined,
    seating.PlayerLeft,
    seating.SeatAway,
    seating.SeatBack,
)


class Rules(Protocol[StateIn, MoveIn, EventOut]):
    """A game's own decider: the events of one of its moves by `seat` (`by_house`: the house
    chose it for a seat it plays), of the application's `Start`, or of `CapReached`."""

    def __call__(
        self,
        state: StateIn,
        command: MoveIn | Start | CapReached,
        seat: int | None,
        rng: Randomness,
        by_house: bool,
    ) -> list[EventOut]: ...


class Showing(Protocol[StateIn, ViewOut]):
    """A game's view of its table for a `Viewer` (its seat, what it may do, the status)."""

    def __call__(
        self, state: StateIn, viewer: Viewer, game_id: str, version: int, deadline: str | None
    ) -> ViewOut: ...


class Place(Generic[StateT, OptionsT]):
    """Where a game keeps its seats, its stage and its options in each of its states, and how a
    state takes new seats: what seating is composed from."""

    __slots__ = ("options_of", "reseat", "seats_of", "stage_of")

    def __init__(
        self,
        seats_of: Callable[[StateT], Seating],
        stage_of: Callable[[StateT], seating.Stage],
        reseat: Callable[[StateT, Seating], StateT],
        options_of: Callable[[StateT], OptionsT],
    ) -> None:
        self.seats_of = seats_of
        self.stage_of = stage_of
        self.reseat = reseat
        self.options_of = options_of


class Statement(Generic[StateT, CommandT]):
    """What a seat may do now, stated once: `allowed`, the game's command types a seat may send
    in a started match (the predicates `decide` checks too), and `choices`, the concrete
    commands of one of those types that carries fields (a type without fields is its one
    command). `legal` never lists the commands: it reads `allowed` alone."""

    __slots__ = ("allowed", "choices", "place", "plain")

    def __init__(
        self,
        place: Place[StateT, msgspec.Struct],
        commands: Sequence[type[CommandT]],
        allowed: Callable[[StateT, int], list[str]],
        choices: Callable[[StateT, int, str], Sequence[CommandT]] | None,
    ) -> None:
        self.place = place
        self.allowed = allowed
        self.choices = choices
        self.plain = {tag_of(c): c for c in commands if not c.__struct_fields__}

    def player(self, state: StateT, seat: int, by_house: bool) -> seating.Player | None:
        """The player of the seat, if commands may come for it now (from them, or the house)."""
        seats = self.place.seats_of(state)
        if not 0 <= seat < len(seats):
            return None
        player = seats[seat]
        return player if seating.may_act(player, by_house) else None

    def legal(self, state: StateT, seat: int, by_house: bool = False) -> list[str]:
        """The command types this seat may send now: the game's, then `leave` (any seat whose
        player has not left, until the match is over) and `back` (a seat away). `by_house`:
        what the house may choose for a seat it plays (the game's alone)."""
        stage = self.place.stage_of(state)
        player = None if stage == "over" else self.player(state, seat, by_house)
        if player is None:
            return []
        if stage == "playing":
            return self.allowed(state, seat) + seating.kinds(player, by_house)
        return seating.kinds(player, by_house)

    def legal_moves(self, state: StateT, seat: int, by_house: bool = False) -> list[CommandT]:
        """Every command this seat may send now (OpenSpiel's `legal_actions`), in `legal`'s
        order of types, so the first legal move is a move of the game."""
        stage = self.place.stage_of(state)
        player = None if stage == "over" else self.player(state, seat, by_house)
        if player is None:
            return []
        moves: list[CommandT] = []
        if stage == "playing":
            for kind in self.allowed(state, seat):
                plain = self.plain.get(kind)
                if plain is not None:
                    moves.append(plain())
                elif self.choices is not None:
                    moves += self.choices(state, seat, kind)
        moves += seating.moves(player, by_house)  # type: ignore[arg-type]  # every game lists them
        return moves


class Composed(Generic[StateT, OptionsT, CommandT, EventT, ViewT, MoveT, OwnEventT]):
    """Seating composed with a game's own decider, and what is read of the seating: the engine's
    functions that the builder makes."""

    def __init__(
        self,
        place: Place[StateT, OptionsT],
        statement: Statement[StateT, CommandT],
        max_players: Callable[[OptionsT], int],
        own_decide: Rules[StateT, MoveT, EventT],
        own_evolve: Callable[[StateT, OwnEventT], StateT],
        show: Showing[StateT, ViewT],
        timing: Callable[[OptionsT], Timing],
    ) -> None:
        self.place, self.statement, self.max_players = place, statement, max_players
        self.own_decide, self.own_evolve, self.show, self.timing_of = (
            own_decide,
            own_evolve,
            show,
            timing,
        )

    def decide(
        self,
        state: StateT,
        command: CommandT | Join | Start | TimeOut | CapReached,
        seat: int | None,
        rng: Randomness,
        by_house: bool = False,
    ) -> list[EventT]:
        """Seating's commands to seating, the rest to the game's own `decide`."""
        if isinstance(command, SEATING_COMMANDS):
            place = self.place
            stage = place.stage_of(state)
            # Only the lobby takes a join: `most` matters nowhere else.
            most = self.max_players(place.options_of(state)) if stage == "lobby" else 0
            made = seating.decide(place.seats_of(state), command, seat, stage, most, by_house)
            return cast(list[EventT], made)
        return self.own_decide(state, cast(MoveT, command), seat, rng, by_house)

    def evolve(self, state: StateT, event: EventT) -> StateT:
        """Seating's events to seating (the state reseated), the rest to the game's `evolve`."""
        if isinstance(event, SEATING_EVENTS):
            place = self.place
            seats = seating.evolve(place.seats_of(state), event, place.stage_of(state), state)
            return place.reseat(state, seats)
        return self.own_evolve(state, cast(OwnEventT, event))

    def view(
        self,
        state: StateT,
        viewer: int | None,
        game_id: str,
        version: int,
        deadline: str | None = None,
        by_house: bool = False,
        openings: bool = True,
    ) -> ViewT:
        """The game's view for this viewer: its seat, what it may do now, the status; with its
        openings unless `openings` is False (a command's answer)."""
        status = STATUS_OF[self.place.stage_of(state)]
        if viewer is None or not 0 <= viewer < len(self.place.seats_of(state)):
            shown = Viewer(None, None, status, openings)
            return self.show(state, shown, game_id, version, deadline)
        legal = self.statement.legal(state, viewer, by_house)
        return self.show(state, Viewer(viewer, legal, status, openings), game_id, version, deadline)

    def is_terminal(self, state: StateT) -> bool:
        """Whether the match is over."""
        return self.place.stage_of(state) == "over"

    def standing(self, state: StateT) -> Standing:
        """The status and the number of players, as the views give them."""
        return Standing(STATUS_OF[self.place.stage_of(state)], len(self.place.seats_of(state)))

    def house_seats(self, state: StateT) -> frozenset[int]:
        """The seats the house plays now."""
        return seating.house_seats(self.place.seats_of(state))

    def seat_of(self, state: StateT, player_id: str) -> int | None:
        """A player's seat now; None when no seat has that id."""
        return seating.seat_of(self.place.seats_of(state), player_id)

    def timing(self, state: StateT) -> Timing:
        """The table's clocks, from its options."""
        return self.timing_of(self.place.options_of(state))


def _rules_text(package: str) -> str | None:
    """The `rules.md` a game's package ships, None when it ships none."""
    path = resources.files(package).joinpath("rules.md")
    return path.read_text(encoding="utf-8") if path.is_file() else None


def build(
    *,
    package: str,
    kind: str,
    title: str,
    options: type[OptionsT],
    states: tuple[type[StateT], ...],
    commands: tuple[type[CommandT], ...],
    events: tuple[type[EventT], ...],
    view_type: type[ViewT],
    deal_event: type[EventT],
    end_event: type[EventT],
    seats: Seats,
    event_cap: int,
    max_players: Callable[[OptionsT], int],
    created: Callable[[OptionsT, bool], list[EventT]],
    initial_state: Callable[[OptionsT, bool], StateT],
    place: Place[StateT, OptionsT],
    own_decide: Rules[StateT, MoveT, EventT],
    own_evolve: Callable[[StateT, OwnEventT], StateT],
    allowed: Callable[[StateT, int], list[str]],
    choices: Callable[[StateT, int, str], Sequence[CommandT]] | None = None,
    show: Showing[StateT, ViewT],
    redact: Callable[[EventT, int | None], EventT],
    waiting_for: Callable[[StateT], int | None],
    timing: Callable[[OptionsT], Timing],
    house_command: Callable[[ViewT, Sequence[EventT], random.Random], CommandT | None],
    account: Callable[[Sequence[EventT], int | None, Sequence[str]], str],
    places: Callable[[Sequence[EventT]], list[float]],
    answers: tuple[type[CommandT], ...] = (),
    may_answer: Callable[[StateT], frozenset[int]] = lambda state: frozenset(),
) -> Engine[OptionsT, StateT, CommandT, EventT, ViewT]:
    """A game's `Engine`: its own rules, with seating, legal moves, status and rules text
    composed once (`package` is the game's, where its `rules.md` lies)."""
    statement = Statement(cast(Place[StateT, msgspec.Struct], place), commands, allowed, choices)
    composed = Composed(place, statement, max_players, own_decide, own_evolve, show, timing)
    return Engine(
        kind=kind,
        title=title,
        options=options,
        states=states,
        commands=commands,
        events=events,
        view_type=view_type,
        deal_event=deal_event,
        end_event=end_event,
        seats=seats,
        event_cap=event_cap,
        max_players=max_players,
        validate_options=check_options,
        created=created,
        initial_state=initial_state,
        decide=composed.decide,
        evolve=composed.evolve,
        legal=statement.legal,
        legal_moves=statement.legal_moves,
        view=composed.view,
        redact=redact,
        is_terminal=composed.is_terminal,
        waiting_for=waiting_for,
        house_seats=composed.house_seats,
        seat_of=composed.seat_of,
        timing=composed.timing,
        standing=composed.standing,
        house_command=house_command,
        account=account,
        places=places,
        answers=answers,
        may_answer=may_answer,
        rules_text=_rules_text(package),
    )
